/* CSV quoting (RFC 4180). */
#ifndef VMR_CSV_H
#define VMR_CSV_H

#include <stdio.h>

/* Write one CSV field, quoted as RFC 4180 asks when it holds a comma, a
 * quote or a line break. */
void vmr_csv_field(FILE *f, const char *s);

#endif
