/* vmcal.h - the guest's timing floor as vmmeta records it: the calibration
 * (configs/vm-calibration.json) with each probe's spread over its
 * repetitions, the cyclictest cross-check run beside the same load, the
 * host's load when the guest calibrated, and the warm-up passes before. */
#ifndef SB_VMCAL_H
#define SB_VMCAL_H

#include <stddef.h>

#include <jansson.h>

/* meta.vm.calibration from DIR/calibration.json and DIR/cyclictest.json;
 * host_load is /proc/loadavg's line when the guest began calibrating (NULL:
 * not seen).  asked: the guest was asked to calibrate, so a missing file is
 * recorded as such.  0, or -1 with err for a calibration.json of the wrong
 * shape (cyclictest's file is third-party: what cannot be read of it is
 * recorded, never fatal). */
int vm_calibration(json_t *vm, const char *dir, int asked, const char *host_load, char *err,
		   size_t len);

/* meta.vm.warmup.probe_p99_us: the loaded-fifo probe's p99 of each pass
 * DIR/warmup-1.json, warmup-2.json, ... in order; 0 or -1 with err. */
int vm_warmup(json_t *vm, const char *dir, char *err, size_t len);

/* meta.vm.timescale from DIR/timescale.json (the guest's slowdown k against
 * the host and the lengths scaled by it: slicebench timescale), with
 * k_after_suite from DIR/timescale-after.json; 0 or -1 with err. */
int vm_timescale(json_t *vm, const char *dir, char *err, size_t len);

#endif
