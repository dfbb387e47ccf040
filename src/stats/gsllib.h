/* GSL, loaded when a statistic first needs it (core/lazylib.h says why and
 * how).  The statistics' files include this after GSL's headers. */
#ifndef VMR_STATS_GSLLIB_H
#define VMR_STATS_GSLLIB_H

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>

#include "core/lazylib.h"

#define GSLLIB_SONAME "libgsl.so.27"

#define GSLLIB_FNS(X) \
	X(gsl_cdf_tdist_Q) X(gsl_cdf_tdist_Pinv) X(gsl_cdf_tdist_Qinv) \
	X(gsl_cdf_ugaussian_P) X(gsl_cdf_ugaussian_Q) X(gsl_ran_chisq_pdf) \
	X(gsl_cdf_chisq_Pinv) \
	X(gsl_integration_workspace_alloc) X(gsl_integration_workspace_free) \
	X(gsl_integration_qags) X(gsl_set_error_handler) X(gsl_set_error_handler_off)

#define GSLLIB_FIELD(f) __typeof__(f) *f;
struct gsllib {
	GSLLIB_FNS(GSLLIB_FIELD)
};
#undef GSLLIB_FIELD

extern struct gsllib gsllib;
extern struct lazylib gsllib_lib;

/* The table, GSL loaded on the first call (exit 3 when it cannot be). */
static inline const struct gsllib *gsllib_get(void)
{
	lazylib_need(&gsllib_lib);
	return &gsllib;
}

#ifndef VMR_LAZYLIB_FILL
#define gsl_cdf_tdist_Q (gsllib_get()->gsl_cdf_tdist_Q)
#define gsl_cdf_tdist_Pinv (gsllib_get()->gsl_cdf_tdist_Pinv)
#define gsl_cdf_tdist_Qinv (gsllib_get()->gsl_cdf_tdist_Qinv)
#define gsl_cdf_ugaussian_P (gsllib_get()->gsl_cdf_ugaussian_P)
#define gsl_cdf_ugaussian_Q (gsllib_get()->gsl_cdf_ugaussian_Q)
#define gsl_ran_chisq_pdf (gsllib_get()->gsl_ran_chisq_pdf)
#define gsl_cdf_chisq_Pinv (gsllib_get()->gsl_cdf_chisq_Pinv)
#define gsl_integration_workspace_alloc (gsllib_get()->gsl_integration_workspace_alloc)
#define gsl_integration_workspace_free (gsllib_get()->gsl_integration_workspace_free)
#define gsl_integration_qags (gsllib_get()->gsl_integration_qags)
#define gsl_set_error_handler (gsllib_get()->gsl_set_error_handler)
#define gsl_set_error_handler_off (gsllib_get()->gsl_set_error_handler_off)
#endif

#endif
