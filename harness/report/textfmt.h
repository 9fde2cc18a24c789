/* textfmt.h - small formatters shared by the report writers (compare, plot). */
#ifndef SB_TEXTFMT_H
#define SB_TEXTFMT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* s to f with < > & " as HTML entities. */
void html_esc(FILE *f, const char *s);
/* s with < > & " as HTML entities, malloc'd; NULL when out of memory. */
char *html_esc_dup(const char *s);
/* A deep copy of v with every string, and every key, through fn (which
 * returns a malloc'd string, NULL when out of memory). */
json_t *json_map_strings(const json_t *v, char *(*fn)(const char *));
/* A run key's value for a label: a string as is, a number, an object's
 * "policy" (the victim probe: "other", "fifo"; two probes that differ in
 * it must not share a panel) or else "on", "off" for null or missing;
 * anything else as compact JSON. */
void val_str(const json_t *v, char *buf, size_t len);
/* A ratio beyond a figure's axis, for its label at the edge: "x16.7",
 * "x250", "x1e-06"; "0" for zero. */
void ratio_str(double x, char *buf, size_t len);

#endif
