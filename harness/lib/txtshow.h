/* txtshow.h - the messages that show a value as given. */
#ifndef SB_TXTSHOW_H
#define SB_TXTSHOW_H

#include <stddef.h>

/* The offset of the first byte of s[0..n) that is not UTF-8, or n. */
size_t txt_utf8_bad(const char *s, size_t n);
/* s[0..n) for a message, as given: printable text and valid UTF-8 as is,
 * control bytes, invalid bytes and '\\' as \xNN escapes, "..." when cut. */
void txt_show(const char *s, size_t n, char *buf, size_t len);

/* s for a terminal or a text report, whole: every control byte (a
 * newline, ESC, DEL, the C1 controls), and every byte that is not UTF-8,
 * as \xNN, the rest as is.  Malloc'd; NULL when out of memory. */
char *txt_term(const char *s);

#endif
