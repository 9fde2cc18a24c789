/* catalog.h - what `slicebench list` prints: the locks, the waiting
 * policies and the named workloads, as text or as docs/manual.md's tables,
 * all from the registry (workloads/registry.c) and the key tables. */
#ifndef SB_CATALOG_H
#define SB_CATALOG_H

#include <stdio.h>

/* Locks with their keys, policies, then the named workloads. */
void catalog_print(FILE *f);
/* docs/manual.md's key table: every run key, then each lock's and workload's. */
void catalog_keys_markdown(FILE *f);
/* docs/manual.md's three tables: locks, policies, named workloads. */
void catalog_tables_markdown(FILE *f);

#endif
