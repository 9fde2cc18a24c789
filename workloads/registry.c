/* registry.c - every workload, once.  Adding one: a file in workloads/ and
 * a line here. */
#include <stdlib.h>
#include <string.h>

#include "../harness/workload.h"

extern const struct workload_ops wl_spin_tas, wl_spin_ticket, wl_futex, wl_adaptive,
	wl_pthread, wl_pthread_adaptive, wl_futex_pi, wl_slice_spin, wl_slice_adaptive,
	wl_primitives, wl_cpu_hog, wl_slice_hog, wl_slice_noyield, wl_idle, wl_slice_dry, wl_slice_adaptive_dry;

#ifdef SB_FAULTS
extern const struct workload_ops wl_fault_crash, wl_fault_hang;
#endif

const struct workload_ops *const wl_registry[] = {
	&wl_spin_tas,	&wl_spin_ticket,  &wl_futex,	  &wl_adaptive,	      &wl_pthread,
	&wl_pthread_adaptive, &wl_futex_pi, &wl_slice_spin, &wl_slice_adaptive, &wl_slice_dry, &wl_slice_adaptive_dry, &wl_primitives,
	&wl_cpu_hog, &wl_slice_hog, &wl_slice_noyield, &wl_idle,
#ifdef SB_FAULTS
	&wl_fault_crash, &wl_fault_hang,
#endif
	NULL,
};

const struct workload_ops *wl_find(const char *name)
{
	for (size_t i = 0; wl_registry[i]; i++)
		if (!strcmp(wl_registry[i]->name, name))
			return wl_registry[i];
	return NULL;
}

int64_t wl_param_int(const json_t *params, const char *key)
{
	return json_integer_value(json_object_get(params, key));
}
