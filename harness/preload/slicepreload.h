/* slicepreload.h - what a program run under the preload library may ask
 * it (tests do), and the stats file's schema name. */
#ifndef SB_SLICEPRELOAD_H
#define SB_SLICEPRELOAD_H

#include <stdatomic.h>
#include <stdint.h>

#define SLICEPRELOAD_SCHEMA "slicepreload/1"

/* The calling thread's request byte (the registered area's or, in the dry
 * control, the private one) and its lock depth; NULL when the thread has
 * no state.  Look it up with dlsym(RTLD_DEFAULT, "slicepreload_request"):
 * a program linked normally never needs the library. */
typedef const _Atomic uint8_t *slicepreload_request_fn(unsigned *depth);

#endif
