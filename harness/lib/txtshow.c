/* txtshow.c - a value as given, for a message: valid UTF-8 as is, the
 * rest escaped. */
#include "txtshow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t txt_utf8_bad(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned c = u[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
			   : (c & 0xf8) == 0xf0 ? 4 : 0;
		uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;

		if (!len || i + len > n)
			return i;
		for (size_t k = 1; k < len; k++) {
			if ((u[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (u[i + k] & 0x3f);
		}
		/* Overlong forms, UTF-16 surrogates and beyond U+10FFFF are not
		 * UTF-8 (RFC 3629, section 3); jansson refuses them too. */
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return i;
		i += len;
	}
	return n;
}

/* A C1 control (U+0080..U+009F, CSI is U+009B) at s: a terminal acts on
 * it as on its ESC form. */
static int is_c1(const char *s, size_t n)
{
	return n >= 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] <= 0x9f;
}

void txt_show(const char *s, size_t n, char *buf, size_t len)
{
	size_t o = 0, i = 0;

	if (!len)
		return;
	while (i < n && o + 8 < len) {
		unsigned char c = (unsigned char)s[i];
		size_t ok = c >= 0x80 && !is_c1(s + i, n - i) ? txt_utf8_bad(s + i, n - i) : 0;

		if (c >= 0x80 && ok) { /* a valid run of UTF-8: as is */
			size_t take = 1;

			while (take < ok && ((unsigned char)s[i + take] & 0xc0) == 0x80)
				take++;
			if (o + take + 8 >= len)
				break;
			memcpy(buf + o, s + i, take);
			o += take;
			i += take;
			continue;
		}
		if (c < 0x20 || c == 0x7f || c >= 0x80 || c == '\\')
			o += (size_t)snprintf(buf + o, len - o, c == '\\' ? "\\\\" : "\\x%02x", c);
		else
			buf[o++] = (char)c;
		i++;
	}
	if (i < n && o + 4 <= len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o < len ? o : len - 1] = '\0';
}

char *txt_term(const char *s)
{
	size_t n = strlen(s), o = 0, i = 0;
	/* 4 bytes out for 1 in at most ("\xNN") */
	char *buf = malloc(4 * n + 1);

	if (!buf)
		return NULL;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		/* a C1 control's two bytes are escaped one by one */
		size_t ok = c >= 0x80 && !is_c1(s + i, n - i) ? txt_utf8_bad(s + i, n - i) : 0;
		size_t take = 1;

		if (c >= 0x80 && ok) { /* a valid run of UTF-8: its first character */
			while (take < ok && ((unsigned char)s[i + take] & 0xc0) == 0x80)
				take++;
			memcpy(buf + o, s + i, take);
			o += take;
			i += take;
			continue;
		}
		if (c < 0x20 || c == 0x7f || c >= 0x80)
			o += (size_t)sprintf(buf + o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
		i++;
	}
	buf[o] = '\0';
	return buf;
}
