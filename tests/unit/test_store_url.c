/* Printing a store's location never shows a password: user:PASSWORD@ and
 * password=PASSWORD are masked the way libpq reads them, and files and
 * password-less URLs print as they are. */
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "store/store.h"
#include "t.h"

static const struct {
	const char *in, *want;
} cases[] = {
	{ "postgresql://fleet:s3cret@db.example.org/vmr", "postgresql://fleet:***@db.example.org/vmr" },
	{ "postgres://fleet:s3cret@db:5432/vmr?sslmode=require", "postgres://fleet:***@db:5432/vmr?sslmode=require" },
	{ "postgresql://fleet@db/vmr?password=s3cret&sslmode=require",
	  "postgresql://fleet@db/vmr?password=***&sslmode=require" },
	{ "postgresql:///vmr?host=/run/pg&password=a&password=b", "postgresql:///vmr?host=/run/pg&password=***&password=***" },
	/* libpq ends the user information at the first '@' before a '/' */
	{ "postgresql://u:p?w#d@h/db", "postgresql://u:***@h/db" },
	{ "postgresql://u:p@ss@h/db", "postgresql://u:***@ss@h/db" },
	{ "postgresql://u:@h/db", "postgresql://u:***@h/db" },
	/* libpq decodes parameter names; a password runs to the next '&' */
	{ "postgresql://h/db?%70assword=s3cret", "postgresql://h/db?%70assword=***" },
	{ "postgresql://h/db?password=s3#cret&x=1", "postgresql://h/db?password=***&x=1" },
	/* a parameter merely ending in "password" is another one */
	{ "postgresql://h/db?xpassword=1", "postgresql://h/db?xpassword=1" },
	{ "postgresql://fleet@db/vmr", "postgresql://fleet@db/vmr" },
	{ "postgresql://db/vmr", "postgresql://db/vmr" },
	{ "/var/lib/vmregress/results.db", "/var/lib/vmregress/results.db" },
	{ "sqlite:results.db", "sqlite:results.db" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = store_mask_url(cases[i].in);
		CHECK_STR(got, cases[i].want, "mask %s", cases[i].in);
		free(got);
	}
	CHECK(store_mask_url(NULL) == NULL, "NULL stays NULL");
	/* libpq's own messages quote the URL, or a token of it. */
	static const struct {
		const char *url, *msg, *want;
	} msgs[] = {
		{ "postgresql://u:secret@[::1/x", "in URI: \"postgresql://u:secret@[::1/x\"",
		  "in URI: \"postgresql://u:***@[::1/x\"" },
		{ "postgresql://u:secret%zz@h/x", "invalid percent-encoded token: \"secret%zz\"",
		  "invalid percent-encoded token: \"***\"" },
		{ "postgresql://u:s%65cret@h/x", "password \"secret\" or \"s%65cret\"", "password \"***\" or \"***\"" },
		{ "postgresql://h/x?password=sec%zzret", "token: \"sec%zzret\"", "token: \"***\"" },
		{ "postgresql://h/x?%70assword=abcd&password=efgh", "abcd efgh", "*** ***" },
		/* a short one only where it stands quoted */
		{ "postgresql://u:s@h/x", "token \"s\" is said", "token \"***\" is said" },
		{ "postgresql://u@h/x", "no password here", "no password here" },
	};
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		struct strlist secrets = { 0 };
		store_url_secrets(msgs[i].url, &secrets);
		char *got = store_mask_secrets(msgs[i].msg, &secrets);
		CHECK_STR(got, msgs[i].want, "mask the message about %s", msgs[i].url);
		free(got);
		strlist_free(&secrets);
	}

	/* Locations that are no store are refused as bad input (-2), before
	 * anything is created. */
	struct store *st = NULL;
	CHECK(store_open(&st, "mysql://u:s3cret@x/y", true) == -2 && !st, "an unknown URL scheme is refused");
	CHECK(access("mysql:", F_OK) < 0, "and no file ./mysql:/x/y is made");
	CHECK(store_open(&st, "/nonexistent/results.db", false) == -2 && !st, "a missing file is refused");
	CHECK(store_open(&st, "sqlite:/nonexistent/dir/results.db", false) == -2 && access("/nonexistent", F_OK) < 0,
	      "a read does not create a missing file's directory");
	CHECK(store_open(&st, "sqlite:/", false) == -2 && store_open(&st, "/dev/null", false) == -2,
	      "a directory or a device is no results file");
	CHECK(access("/dev/null-journal", F_OK) < 0, "and SQLite never opened the device");
	T_DONE();
}
