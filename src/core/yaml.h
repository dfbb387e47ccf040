/* YAML read into JSON values, with libyaml (Debian's libyaml-0-2): what
 * LAVA writes (its logs are one YAML mapping a line, with tagged strings
 * such as `! "562"`) read as jansson values, so the rest of vmregress
 * handles them as it handles JSON.  A quoted or tagged scalar is a string;
 * a plain one is an integer, a real, true/false or null when it reads as
 * one (YAML 1.1's spellings), else a string. */
#ifndef VMR_CORE_YAML_H
#define VMR_CORE_YAML_H

#include <jansson.h>
#include <stddef.h>

/* The first document of text, or NULL with why set (a parse error and
 * where). */
json_t *yaml_to_json(const char *text, size_t len, char *why, size_t whylen);

#endif
