/* slice-noyield - abuse: requests the extension around each "critical
 * section" like slice-spin but ignores grants (never calls
 * rseq_slice_yield), so the kernel's timer has to end every grant. */
#include "nolock.h"

WL_DEFINE_LOOPS(snoy, NO_LOCK, NO_UNLOCK, SP_NOYIELD)

const struct workload_ops wl_slice_noyield = {
	.name = "slice-noyield",
	.desc = "abuser: requests the extension per op, ignores grants, no lock",
	.lock_size = sizeof(struct no_lock),
	.unlocked = 1,
	.slice = 1,
	.loop = WL_LOOPS(snoy),
};
