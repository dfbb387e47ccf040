/* The HTML report's escaper and table cell (report/html_util.c): the four
 * characters of markup as entities (every attribute of the page is
 * double-quoted), an apostrophe, tab and newline kept as they are (the
 * verdict's sentences quote names in apostrophes), the other control
 * characters dropped, so that no text can hold the bytes that mark a
 * graph's place in the page (HTML_SLOT_OPEN, HTML_SLOT_CLOSE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"
#include "t.h"

static char *esc(const char *s, bool td)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (td)
		html_td(f, s);
	else
		html_esc(f, s);
	fclose(f);
	return buf;
}

struct html_case {
	const char *in, *want, *what;
};

static const struct html_case cases[] = {
	{ "a&b", "a&amp;b", "an ampersand" },
	{ "<x>", "&lt;x&gt;", "angle brackets" },
	{ "say \"hi\"", "say &quot;hi&quot;", "a double quote" },
	{ "case 'x' is not in b", "case 'x' is not in b", "an apostrophe is kept" },
	{ "a\nb\tc", "a\nb\tc", "newline and tab are kept" },
	{ "a\r\nb", "a\nb", "a carriage return is dropped" },
	{ "a\001b\033[0mc\037", "ab[0mc", "other control characters are dropped" },
	{ "x\x02" "7\x03y", "x7y", "the bytes that mark a graph's place are dropped" },
	{ "caf\xc3\xa9 \xff", "caf\xc3\xa9 \xff", "bytes from 0x80 pass as they are" },
	{ "", "", "an empty string writes nothing" },
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = esc(cases[i].in, false);
		CHECK_STR(got, cases[i].want, "html_esc: %s", cases[i].what);
		free(got);
	}
	char *none = esc(NULL, false);
	CHECK_STR(none, "", "html_esc: NULL writes nothing");
	free(none);
	char *td = esc("1 < 2", true);
	CHECK_STR(td, "<td>1 &lt; 2</td>", "html_td: a cell of escaped text");
	free(td);
	td = esc(NULL, true);
	CHECK_STR(td, "<td></td>", "html_td: NULL is an empty cell");
	free(td);
	T_DONE();
}
