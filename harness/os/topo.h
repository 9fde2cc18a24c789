/* topo.h - topology (hwloc) and the pinning policies. */
#ifndef SB_TOPO_H
#define SB_TOPO_H

#include <stddef.h>

#include <jansson.h>

/* Loads the topology once per process; 0 or -1 with err filled. */
int topo_init(char *err, size_t len);
void topo_fini(void);
unsigned topo_npus(void);
/* Checks a pin policy string without a thread count; 0 or -1 + err. */
int topo_check_pin(const char *pin, char *err, size_t len);
/* PUs in the set the policy draws from (for "Nx" thread counts). */
int topo_pin_pus(const char *pin, unsigned *npus, char *err, size_t len);
/* Fills cpu[i] (OS index, or -1 = unbound) for n threads. */
int topo_assign(const char *pin, unsigned n, int *cpu, char *err, size_t len);
/* Binds the calling thread to one PU by OS index (-1: leave it). */
int topo_bind_self(int cpu);
/* {"pus","cores","packages","numa_nodes","cpu_model","allowed"} */
json_t *topo_summary_json(void);

#endif
