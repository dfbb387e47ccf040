/* The environment fingerprint: everything about the host that can change a
 * VM measurement, as one JSON object.  The store records it with every run
 * and compare diffs two of them.
 *
 * Keys (each present on every host; a value the host lacks is null, or
 * {"available":false,...} for features):
 *   kernel {release, version, machine, cmdline}, hostname, page_size,
 *   mem_total_bytes, swap_total_bytes,
 *   swaps [{path, type, size_bytes, used_bytes, priority}],
 *   sysctl {"vm.swappiness": "60", ...every vm.*},
 *   thp {available, enabled, defrag, shmem_enabled, and where the kernel has
 *        them: every other setting (use_zero_page, shrink_underused ...),
 *        khugepaged {settings}, sizes {"64K": {size_kb, enabled,
 *        shmem_enabled}} (multi-size THP)},
 *   zswap {available, enabled, compressor, max_pool_percent, and every other
 *          parameter: shrinker_enabled, accept_threshold_percent ...},
 *   lru_gen {available, and with it enabled "0x0007", core, mm_walk,
 *            nonleaf_young, min_ttl_ms},
 *   swap {vma_ra_enabled},
 *   damon {available, and with it nr_kdamonds, kdamonds [{state,
 *          operations, schemes: [action], sample_us, aggr_us}]},
 *   ksm {available, run},
 *   cgroup {version: "v1"|"v2"|"hybrid"|"none", v2_mount, v1_memory_mount,
 *           memory_controller: "v1"|"v2"|null},
 *   psi {available},
 *   cpu {model, count},
 *   numa {nodes, node_ids: [0, ...], demotion_enabled} */
#ifndef VMR_PROBE_SYSTEM_H
#define VMR_PROBE_SYSTEM_H

#include <jansson.h>
#include <stddef.h>

/* The fingerprint of this host, never NULL (fields it cannot read are null). */
json_t *system_fingerprint(void);

/* The "[always] madvise never" selection: the word in brackets, into out.
 * 0, or -1 when there is no bracketed word. */
int system_selected_word(const char *text, char *out, size_t outlen);

/* Parse /proc/swaps text into a JSON array (see above).  NULL with err on
 * a malformed line. */
json_t *system_parse_swaps(const char *buf, size_t len, char *err);
/* /proc/swaps read and parsed: the one reader of it, so that every caller
 * sees a path as the kernel named it (its octal escapes of space, tab, new
 * line and backslash undone).  NULL with err when it cannot be read or
 * parsed. */
json_t *system_read_swaps(char *err);

#endif
