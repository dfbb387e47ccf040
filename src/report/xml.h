/* Text put into XML (JUnit files): one escaper for every writer.
 *
 * What it writes is valid in element content and in a double- or
 * single-quoted attribute alike: the five markup characters as entities
 * (&amp; &lt; &gt; &quot; &apos;); tab, newline and carriage return as
 * character references (&#9; &#10; &#13;), because a parser turns a
 * literal one in an attribute into a space; each byte of a character
 * XML 1.0 forbids (the other C0 controls, U+FFFE, U+FFFF) and each byte
 * that is not part of well-formed UTF-8 (a stray byte, an overlong form, a
 * surrogate) as U+FFFD, so that the reader sees that something was there. */
#ifndef VMR_REPORT_XML_H
#define VMR_REPORT_XML_H

#include <stdio.h>

/* s escaped into f; NULL writes nothing. */
void xml_escape(FILE *f, const char *s);

#endif
