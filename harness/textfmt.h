/* textfmt.h - small formatters shared by the report writers (compare, plot)
 * and the messages that show a value as given. */
#ifndef SB_TEXTFMT_H
#define SB_TEXTFMT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* s to f with < > & " as HTML entities. */
void html_esc(FILE *f, const char *s);
/* A run key's value for a label: a string as is, a number, "on" for an
 * object, "off" for null or missing; anything else as compact JSON. */
void val_str(const json_t *v, char *buf, size_t len);

/* The offset of the first byte of s[0..n) that is not UTF-8, or n. */
size_t txt_utf8_bad(const char *s, size_t n);
/* s[0..n) for a message, as given: printable text and valid UTF-8 as is,
 * control bytes, invalid bytes and '\\' as \xNN escapes, "..." when cut. */
void txt_show(const char *s, size_t n, char *buf, size_t len);

#endif
