/* resget.c - the accessors every reader of a result uses: a value by its
 * dotted path, the meta a result was measured under, and its repetitions'
 * values.  Nothing here loads or checks a file (resload.c, rescheck.c). */
#include "resget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/fields.h"

json_t *res_get(const json_t *obj, const char *path)
{
	const char *p = path;
	json_t *cur = (json_t *)obj;

	while (cur && *p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		char key[128];

		if (!json_is_object(cur) || n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		cur = json_object_get(cur, key);
		p += n + (dot ? 1 : 0);
	}
	return cur;
}

double res_num(const json_t *obj, const char *path)
{
	json_t *v = res_get(obj, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *res_str(const json_t *obj, const char *path, const char *def)
{
	json_t *v = res_get(obj, path);

	return json_is_string(v) ? json_string_value(v) : def;
}

const json_t *res_meta_of(const json_t *doc, const json_t *result)
{
	const json_t *m = json_object_get(result, fld_r_meta);

	if (json_is_object(m))
		return m;
	m = json_object_get(doc, fld_meta);
	return json_is_object(m) ? m : NULL;
}

void res_group(const json_t *meta, char *buf, size_t len)
{
	snprintf(buf, len, "%s / %s / %s", res_str(meta, fld_m_host, "?"),
		 res_str(meta, fld_m_cpu_model, "?"), res_str(meta, fld_m_kernel_release, "?"));
}

void res_where(const json_t *meta, char *buf, size_t len)
{
	const char *accel = res_str(meta, fld_m_vm_accel, NULL);
	const char *kind = res_str(meta, fld_m_virt_kind, NULL);

	if (accel)
		snprintf(buf, len, "VM (%s)", accel);
	else if (json_is_true(res_get(meta, fld_m_virt_hypervisor)) || (kind && strcmp(kind, "none")))
		snprintf(buf, len, "virtualized (%s)", kind ? kind : "a hypervisor");
	else
		snprintf(buf, len, "bare metal");
}

void res_meta_line(const json_t *meta, char *buf, size_t len)
{
	char where[96];

	res_where(meta, where, sizeof(where));
	snprintf(buf, len, "kernel %s, %s, %s, %s, preempt=%s, HZ=%.0f, %s",
		 res_str(meta, fld_m_kernel_release, "?"), res_str(meta, fld_m_cpu_model, "?"),
		 where, res_str(meta, fld_m_host, "?"), res_str(meta, fld_m_preempt_model, "?"),
		 res_num(meta, fld_m_hz), res_str(meta, fld_m_utc, "?"));
}

size_t res_rep_values(const json_t *r, const char *path, const char *div_path, double **out)
{
	const json_t *reps = json_object_get(r, fld_r_reps), *rep;
	size_t i, n = 0, cap = json_array_size(reps);

	*out = malloc((cap ? cap : 1) * sizeof(**out));
	if (!*out)
		return 0;
	json_array_foreach(reps, i, rep) {
		double v = res_num(rep, path);

		if (div_path) {
			double d = res_num(rep, div_path);

			v = d > 0 ? v / d : NAN;
		}
		if (isfinite(v))
			(*out)[n++] = v;
	}
	return n;
}
