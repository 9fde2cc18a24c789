/* extstate.c - the extension's state in a result, in one line. */
#include "extstate.h"

#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "status.h"

/* 1 for a run that asked the kernel for the extension: a requesting policy
 * (every one but "none"), not its dry control. */
static int requests(const json_t *r)
{
	const json_t *p = json_object_get(r, fld_r_params);
	const char *pol = json_string_value(json_object_get(p, "policy"));

	return pol && strcmp(pol, "none") && !json_is_true(json_object_get(p, "dry"));
}

void ext_state_line(const json_t *doc, char *buf, size_t len)
{
	const json_t *meta = json_object_get(doc, "meta"), *ext = json_object_get(meta, fld_m_slice);
	const char *kernel = json_string_value(json_object_get(json_object_get(meta, fld_m_kernel),
								fld_key(fld_m_kernel_release)));
	const char *why = NULL, *lacks;
	double grants = 0, reqs = 0;
	size_t i, ran = 0, asked = 0;
	json_t *r;

	if (!kernel)
		kernel = "?";
	json_array_foreach(json_object_get(doc, "results"), i, r) {
		if (!requests(r))
			continue;
		asked++;
		if (rs_is(json_string_value(json_object_get(r, fld_r_status)), RS_OK)) {
			const json_t *s = json_object_get(json_object_get(r, fld_r_summary),
							  fld_key(fld_s_slice));

			ran++;
			grants += json_number_value(json_object_get(s, fld_key(fld_s_slice_grants)));
			reqs += json_number_value(json_object_get(s, fld_key(fld_s_slice_req)));
		} else if (!why) {
			why = json_string_value(json_object_get(r, fld_r_reason));
		}
	}
	if (!why)
		why = "no reason recorded";
	if (ran) {
		snprintf(buf, len, "slice extension: ran (kernel %s, %zu run%s): %.0f of %.0f "
			 "requests granted%s%s", kernel, ran, ran > 1 ? "s" : "", grants, reqs,
			 asked > ran ? "; the others did not run: " : "", asked > ran ? why : "");
		return;
	}
	if (asked) {
		snprintf(buf, len, "slice extension: did not run (kernel %s): %s", kernel, why);
		return;
	}
	if (json_is_true(json_object_get(ext, fld_key(fld_m_slice_available)))) {
		snprintf(buf, len, "slice extension: no run requested it (kernel %s has it)", kernel);
		return;
	}
	lacks = json_string_value(json_object_get(ext, fld_key(fld_m_slice_reason)));
	snprintf(buf, len, "slice extension: no run requested it (kernel %s lacks it: %s)", kernel,
		 lacks ? lacks : "no reason recorded");
}
