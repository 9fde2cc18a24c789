/* topo.c - hwloc topology and the pin policies none, compact, scatter,
 * oversubscribe:N and cpus:LIST. */
#include "topo.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "../lib/fields.h"

static hwloc_topology_t topo;

int topo_init(char *err, size_t len)
{
	if (topo)
		return 0;
	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo)) {
		snprintf(err, len, "hwloc topology load failed: %s", strerror(errno));
		topo = NULL;
		return -1;
	}
	return 0;
}

void topo_fini(void)
{
	if (topo)
		hwloc_topology_destroy(topo);
	topo = NULL;
}

unsigned topo_npus(void)
{
	return (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
}

static int pu_os(unsigned logical)
{
	hwloc_obj_t o = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, logical);

	return o ? (int)o->os_index : -1;
}

/* cpus:LIST as a bitmap of allowed PUs; NULL + err when invalid. */
static hwloc_bitmap_t parse_cpus(const char *list, char *err, size_t len)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(topo);

	char *canon = NULL;

	/* Syntax first: hwloc's parser takes "-1", "0,,1" and a trailing
	 * space. */
	size_t n = strlen(list);

	if (!n || strspn(list, "0123456789,-") != n || !isdigit((unsigned char)list[0]) ||
	    !isdigit((unsigned char)list[n - 1]) || hwloc_bitmap_list_sscanf(set, list) ||
	    hwloc_bitmap_iszero(set) || hwloc_bitmap_weight(set) < 0) {
		snprintf(err, len, "pin \"cpus:%s\": not a CPU list like 0-3,6", list);
		goto bad;
	}
	/* One spelling per set ("0,1" and "01" are "0-1"), so the same
	 * point merges in a sweep and pairs in compare. */
	if (hwloc_bitmap_list_asprintf(&canon, set) < 0 || strcmp(canon, list)) {
		snprintf(err, len, "pin \"cpus:%s\": write this CPU list as \"cpus:%s\" (one "
			 "spelling per set)", list, canon ? canon : "?");
		free(canon);
		goto bad;
	}
	free(canon);
	if (!hwloc_bitmap_isincluded(set, allowed)) {
		char *s;

		hwloc_bitmap_list_asprintf(&s, allowed);
		snprintf(err, len, "pin \"cpus:%s\": outside the allowed CPUs %s", list, s);
		free(s);
		goto bad;
	}
	return set;
bad:
	hwloc_bitmap_free(set);
	return NULL;
}

static int parse_over(const char *arg, unsigned *per, char *err, size_t len)
{
	char *end;
	/* Digits only, no sign, space or leading zero: one spelling of N. */
	long n = *arg >= '1' && *arg <= '9' ? strtol(arg, &end, 10) : 0;

	if (!n || *end || n > 1024) {
		snprintf(err, len, "pin \"oversubscribe:%s\": N must be an integer in 1..1024 "
			 "(digits only, no sign, space or leading zero)", arg);
		return -1;
	}
	*per = (unsigned)n;
	return 0;
}

int topo_pin_pus(const char *pin, unsigned *npus, char *err, size_t len)
{
	unsigned per;

	if (!strncmp(pin, "cpus:", 5)) {
		hwloc_bitmap_t set = parse_cpus(pin + 5, err, len);

		if (!set)
			return -1;
		*npus = (unsigned)hwloc_bitmap_weight(set);
		hwloc_bitmap_free(set);
		return 0;
	}
	if (!strncmp(pin, "oversubscribe:", 14)) {
		if (parse_over(pin + 14, &per, err, len))
			return -1;
	} else if (strcmp(pin, "none") && strcmp(pin, "compact") && strcmp(pin, "scatter")) {
		snprintf(err, len,
			 "pin \"%s\": unknown policy (none, compact, scatter, oversubscribe:N, "
			 "cpus:LIST)",
			 pin);
		return -1;
	}
	*npus = topo_npus();
	return 0;
}

int topo_check_pin(const char *pin, char *err, size_t len)
{
	unsigned n;

	return topo_pin_pus(pin, &n, err, len);
}

int topo_assign(const char *pin, unsigned n, int *cpu, char *err, size_t len)
{
	unsigned npus = topo_npus(), per;

	if (!strcmp(pin, "none")) {
		for (unsigned i = 0; i < n; i++)
			cpu[i] = -1;
	} else if (!strcmp(pin, "compact")) {
		for (unsigned i = 0; i < n; i++)
			cpu[i] = pu_os(i % npus);
	} else if (!strcmp(pin, "scatter")) {
		/* hwloc_distrib spreads over the widest levels first (packages,
		 * then cores), which is what scatter means. */
		hwloc_obj_t root = hwloc_get_root_obj(topo);
		hwloc_bitmap_t *sets = calloc(n, sizeof(*sets));

		if (!sets)
			return -1;
		for (unsigned i = 0; i < n; i++)
			sets[i] = hwloc_bitmap_alloc();
		hwloc_distrib(topo, &root, 1, sets, n, INT_MAX, 0);
		for (unsigned i = 0; i < n; i++) {
			hwloc_bitmap_singlify(sets[i]);
			cpu[i] = hwloc_bitmap_first(sets[i]);
			hwloc_bitmap_free(sets[i]);
		}
		free(sets);
	} else if (!strncmp(pin, "oversubscribe:", 14)) {
		if (parse_over(pin + 14, &per, err, len))
			return -1;
		unsigned need = (n + per - 1) / per;

		if (need > npus) {
			snprintf(err, len,
				 "pin \"%s\" with %u threads needs %u PUs, this machine has %u", pin,
				 n, need, npus);
			return -1;
		}
		for (unsigned i = 0; i < n; i++)
			cpu[i] = pu_os(i / per);
	} else if (!strncmp(pin, "cpus:", 5)) {
		hwloc_bitmap_t set = parse_cpus(pin + 5, err, len);
		unsigned k = 0, w;
		int id;

		if (!set)
			return -1;
		w = (unsigned)hwloc_bitmap_weight(set);
		int *ids = calloc(w, sizeof(*ids));

		if (!ids) {
			hwloc_bitmap_free(set);
			return -1;
		}
		hwloc_bitmap_foreach_begin(id, set) ids[k++] = id;
		hwloc_bitmap_foreach_end();
		for (unsigned i = 0; i < n; i++)
			cpu[i] = ids[i % w];
		free(ids);
		hwloc_bitmap_free(set);
	} else {
		return topo_check_pin(pin, err, len);
	}
	return 0;
}

int topo_bind_self(int cpu)
{
	if (cpu < 0)
		return 0;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	hwloc_bitmap_only(set, (unsigned)cpu);
	int rc = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);

	hwloc_bitmap_free(set);
	return rc ? -errno : 0;
}

json_t *topo_summary_json(void)
{
	hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
	const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
	char *allowed;

	hwloc_bitmap_list_asprintf(&allowed, hwloc_topology_get_allowed_cpuset(topo));
	json_t *o = json_pack("{s:i,s:i,s:i,s:i,s:s,s:s}", fld_key(fld_m_pus),
			      hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU), fld_key(fld_m_cores),
			      hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE), fld_key(fld_m_packages),
			      hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE),
			      fld_key(fld_m_numa),
			      hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE),
			      fld_key(fld_m_cpu_model), model ? model : "unknown",
			      fld_key(fld_m_allowed), allowed);
	free(allowed);
	return o;
}
