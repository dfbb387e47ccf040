/* libcurl, loaded when something is first sent over HTTP (core/lazylib.h
 * says why and how).  http.c includes this.  CURL_DISABLE_TYPECHECK: curl.h
 * otherwise wraps curl_easy_setopt in a checking macro, which would hide
 * the table's entry of that name. */
#ifndef VMR_CORE_CURLLIB_H
#define VMR_CORE_CURLLIB_H

#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "core/lazylib.h"

#define CURLLIB_SONAME "libcurl.so.4"

#define CURLLIB_FNS(X) \
	X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_perform) \
	X(curl_easy_setopt) X(curl_easy_strerror) X(curl_slist_append) X(curl_slist_free_all)

#define CURLLIB_FIELD(f) __typeof__(f) *f;
struct curllib {
	CURLLIB_FNS(CURLLIB_FIELD)
};
#undef CURLLIB_FIELD

extern struct curllib curllib;
extern struct lazylib curllib_lib;

/* The table; http_post loads it with an error to return first, so this
 * only exits 3 if a call comes without it. */
static inline const struct curllib *curllib_get(void)
{
	lazylib_need(&curllib_lib);
	return &curllib;
}

#ifndef VMR_LAZYLIB_FILL
/* curl.h's checks of the argument count, which would call past the table */
#undef curl_easy_getinfo
#undef curl_easy_setopt
#define curl_easy_cleanup (curllib_get()->curl_easy_cleanup)
#define curl_easy_getinfo (curllib_get()->curl_easy_getinfo)
#define curl_easy_init (curllib_get()->curl_easy_init)
#define curl_easy_perform (curllib_get()->curl_easy_perform)
#define curl_easy_setopt (curllib_get()->curl_easy_setopt)
#define curl_easy_strerror (curllib_get()->curl_easy_strerror)
#define curl_slist_append (curllib_get()->curl_slist_append)
#define curl_slist_free_all (curllib_get()->curl_slist_free_all)
#endif

#endif
