/* The one XML escaper (report/xml.h) over the characters that matter:
 * the five of markup, tab, newline and carriage return (kept through an
 * attribute, where a parser turns a literal one into a space), the
 * controls XML 1.0 forbids, and bytes that are not well-formed UTF-8.
 * Where xmllint is installed, a document with every byte in an attribute
 * and in text must parse, and the attribute must read back as written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "report/xml.h"
#include "t.h"

static char *esc(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	xml_escape(f, s);
	fclose(f);
	return buf;
}

struct xml_case {
	const char *in, *want, *what;
};

static const struct xml_case cases[] = {
	{ "a&b", "a&amp;b", "an ampersand" },
	{ "<x>", "&lt;x&gt;", "angle brackets" },
	{ "say \"hi\"", "say &quot;hi&quot;", "a double quote (attributes in double quotes)" },
	{ "it's", "it&apos;s", "a single quote (attributes in single quotes)" },
	{ "a\nb", "a&#10;b", "a newline survives an attribute" },
	{ "a\tb", "a&#9;b", "a tab survives an attribute" },
	{ "a\r\nb", "a&#13;&#10;b", "a carriage return is kept, not folded into the newline" },
	{ "a\001b\033[0mc\037", "a\xef\xbf\xbd" "b\xef\xbf\xbd[0mc\xef\xbf\xbd", "forbidden controls become U+FFFD" },
	{ "del\177", "del\177", "DEL is allowed in XML 1.0" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7",
	  "well-formed UTF-8 passes as it is" },
	{ "a\xff" "b", "a\xef\xbf\xbd" "b", "a byte that starts no sequence becomes U+FFFD" },
	{ "a\xc3", "a\xef\xbf\xbd", "a sequence cut by the end of the string" },
	{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", "an overlong form ('/' in two bytes) is refused byte by byte" },
	{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a surrogate is not a character" },
	{ "\xef\xbf\xbe", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "U+FFFE is forbidden" },
	{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "nothing above U+10FFFF" },
	{ "", "", "an empty string writes nothing" },
};

static void check_table(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = esc(cases[i].in);
		CHECK_STR(got, cases[i].want, "%s", cases[i].what);
		free(got);
	}
	char *none = esc(NULL);
	CHECK_STR(none, "", "NULL writes nothing");
	free(none);
}

/* Every byte 1..255, then text that must read back as it was written. */
static void check_xmllint(const char *dir)
{
	if (system("command -v xmllint > /dev/null 2>&1") != 0) {
		SKIP_WHY("every byte escaped is well-formed XML", "xmllint is not installed (Debian libxml2-utils)");
		return;
	}
	char all[256], *path = xasprintf("%s/all.xml", dir), *out = xasprintf("%s/attr.txt", dir);
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	const char *keep = "line 1\n\tline 2 <&'\"> caf\xc3\xa9";
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a all=\"", f);
		xml_escape(f, all);
		fputs("\" q='", f);
		xml_escape(f, all);
		fputs("' keep=\"", f);
		xml_escape(f, keep);
		fputs("\">", f);
		xml_escape(f, all);
		fputs("</a>\n", f);
		fclose(f);
	}
	char *cmd = xasprintf("xmllint --noout '%s'", path);
	fflush(stdout);
	CHECK(f && system(cmd) == 0, "every byte escaped, in attributes and text, is well-formed XML");
	free(cmd);
	cmd = xasprintf("xmllint --xpath 'string(/a/@keep)' '%s' > '%s'", path, out);
	char got[256] = "";
	FILE *g = system(cmd) == 0 ? fopen(out, "r") : NULL;
	size_t n = g ? fread(got, 1, sizeof(got) - 1, g) : 0;
	got[n] = '\0';
	if (n && got[n - 1] == '\n')  /* xmllint ends what it prints with one */
		got[n - 1] = '\0';
	if (g)
		fclose(g);
	CHECK_STR(got, keep, "an attribute reads back as written, its newline and tab with it");
	free(cmd);
	free(out);
	free(path);
}

int main(void)
{
	char dir[] = "/tmp/vmr-xml-XXXXXX";

	check_table();
	if (!mkdtemp(dir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	check_xmllint(dir);
	char *rm = xasprintf("rm -rf '%s'", dir);
	CHECK(system(rm) == 0, "clean up");
	free(rm);
	T_DONE();
}
