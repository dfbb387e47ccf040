/* Text put into XML: see xml.h. */
#include "report/xml.h"

#include <stdint.h>

#define XML_REPLACEMENT "\xef\xbf\xbd"  /* U+FFFD in UTF-8 */

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong form, no surrogate, nothing above U+10FFFF) whose character
 * XML 1.0 allows; 0 when there is none. */
static size_t xml_utf8(const unsigned char *s)
{
	size_t n = s[0] > 0xf4 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (!n)
		return 0;
	uint32_t c = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

void xml_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		size_t n = 1;
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\t': case '\n': case '\r': fprintf(f, "&#%d;", *p); break;
		default:
			if (*p < 0x20 || (*p >= 0x80 && !(n = xml_utf8(p)))) {
				n = 1;
				fputs(XML_REPLACEMENT, f);
			} else {
				fwrite(p, 1, n, f);
			}
		}
		p += n;
	}
}
