/* Bringing a guest's run into the host's store.  A guest runs its suite
 * into a store file of its own and sends that file home whole; here its run
 * is copied into the host store as an ordinary run, tagged with the matrix
 * name, with the matrix's facts (accelerator, kernel package, command line,
 * console log) added to its environment under "matrix". */
#ifndef VMR_IMPORT_H
#define VMR_IMPORT_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"

/* Copy the newest run of the store file guest_db into host as `name`,
 * tagged `tag`, under the suite name `suite` (the guest knew only its
 * copy's path), in one transaction.  Its UUID, status, and start and end
 * times are the guest's (the guest's clock is set from the virtual
 * machine's, so they are the host's time when it ran); the time it was
 * imported is matrix.imported in its environment.  0, or -1 after a
 * one-line error. */
int import_guest_run(struct store *host, const char *guest_db, const char *name, const char *suite,
		     const char *tag, const json_t *matrix, int64_t *run_id);

/* The same, the run joining group (NULL: none) as its variant and index. */
int import_guest_run_group(struct store *host, const char *guest_db, const char *name, const char *suite,
			   const char *tag, const struct store_group *group, const json_t *matrix, int64_t *run_id);

/* Record a guest that brought nothing home as a `failed` run with no
 * cases, in group when not NULL; matrix says why and where its console
 * log is. */
int import_failed_run(struct store *host, const char *name, const char *suite, const char *tag,
		      const struct store_group *group, const json_t *matrix, int64_t *run_id);

#endif
