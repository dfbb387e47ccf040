/* Base64 (RFC 4648, with padding): the matrix's serial-console frames and
 * the HTML report's inline images. */
#ifndef VMR_BASE64_H
#define VMR_BASE64_H

#include <stddef.h>

/* Writes 4*ceil(len/3) characters and a NUL into out. */
void base64_encode(const unsigned char *in, size_t len, char *out);
/* Returns the decoded length, or -1 on a bad character, padding or length.
 * out needs 3*(n/4) bytes.  Bits past the end must be zero, so a payload has
 * one encoding. */
long base64_decode(const char *in, size_t n, unsigned char *out);

#endif
