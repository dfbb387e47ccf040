/* "Did you mean": distances and which candidate is offered. */
#include <stdint.h>

#include "core/suggest.h"
#include "t.h"

struct named {
	const char *name;
	int other;
};

int main(void)
{
	CHECK_EQ_U(suggest_distance("", ""), 0, "empty words are equal");
	CHECK_EQ_U(suggest_distance("abc", ""), 3, "distance to the empty word is the length");
	CHECK_EQ_U(suggest_distance("kitten", "sitting"), 3, "kitten -> sitting: the textbook 3");
	CHECK_EQ_U(suggest_distance("compre", "compare"), 1, "one letter left out");
	CHECK_EQ_U(suggest_distance("comapre", "compare"), 1, "two neighbours swapped count 1");
	CHECK_EQ_U(suggest_distance("ca", "abc"), 3, "optimal string alignment: ca -> abc is 3");

	const char *cmds[] = { "sense", "test", "refs", "run", "list", "show", "compare", "report", NULL, "matrix" };
	size_t n = sizeof(cmds) / sizeof(cmds[0]);
	CHECK_STR(suggest("compre", cmds, n), "compare", "compre suggests compare");
	CHECK_STR(suggest("mtrix", cmds, n), "matrix", "a NULL in the list is skipped, not the end");
	CHECK(suggest("rpt", cmds, n) == NULL, "rpt is too far from report");
	CHECK(suggest("xyzzy", cmds, n) == NULL, "nothing close: no suggestion");
	CHECK(suggest("run", cmds, n) == NULL, "an exact match is not a suggestion");
	CHECK(suggest("", cmds, n) == NULL, "the empty word gets none");
	CHECK_STR(suggest("comp", cmds, n), "compare", "a prefix of 3 or more letters counts");
	CHECK_STR(suggest("lsit", cmds, n), "list", "a swap in a short word");

	struct named tab[] = { { "page-cluster", 1 }, { "swappiness", 2 }, { NULL, 0 }, { "after-end", 3 } };
	CHECK_STR(suggest_in("pagecluster", tab, sizeof(tab[0]), SIZE_MAX), "page-cluster",
		  "struct table: pagecluster suggests page-cluster");
	CHECK(suggest_in("after-ends", tab, sizeof(tab[0]), SIZE_MAX) == NULL, "struct table ends at the NULL name");
	T_DONE();
}
