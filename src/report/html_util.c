/* Text into the HTML report: the escaper and a table cell
 * (report/html_int.h).  Every file of the page calls these, and they call
 * nothing of it.
 *
 * Not report/xml.c's xml_escape, which writes an apostrophe as &apos;, tab
 * and newline as character references and a forbidden byte as U+FFFD: the
 * page keeps those as they are (the verdict's sentences quote names in
 * apostrophes; every attribute of the page is double-quoted) and drops the
 * other control characters. */
#include "report/html_int.h"

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

void html_td(FILE *f, const char *s)
{
	fputs("<td>", f);
	html_esc(f, s ? s : "");
	fputs("</td>", f);
}
