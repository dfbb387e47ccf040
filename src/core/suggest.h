/* "Did you mean": the candidate closest to a word a user mistyped, as git
 * offers for commands.  Distance is Damerau-Levenshtein (a swap of two
 * neighbours counts one), and a candidate is offered only when it is close
 * enough to be a slip of the fingers rather than another word. */
#ifndef VMR_SUGGEST_H
#define VMR_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b (insertions, deletions, substitutions and
 * transpositions of neighbours each cost 1).  Words longer than 64 bytes
 * are compared on their first 64. */
size_t suggest_distance(const char *a, const char *b);

/* The candidate closest to word, or NULL when none is close: within 1 edit
 * for words of up to 4 letters, 2 up to 8, else 3; a candidate that starts
 * with the word (a prefix of 3 or more letters) also counts.  Ties go to
 * the first.  cands may hold NULLs, which are skipped. */
const char *suggest(const char *word, const char *const *cands, size_t n);

/* The same over an array of structs whose first member is a `const char *`
 * name, stride bytes apart, ending at the first NULL name (or after n: SIZE_MAX for "until the NULL"). */
const char *suggest_in(const char *word, const void *base, size_t stride, size_t n);

#endif
