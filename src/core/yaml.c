#include "core/yaml.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static json_t *yaml_plain(const char *s)
{
	static const char *const truths[] = { "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON" };
	static const char *const falses[] = { "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF" };
	if (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL"))
		return json_null();
	for (size_t i = 0; i < sizeof(truths) / sizeof(truths[0]); i++) {
		if (!strcmp(s, truths[i]))
			return json_true();
		if (!strcmp(s, falses[i]))
			return json_false();
	}
	char *end;
	errno = 0;
	long long n = strtoll(s, &end, 10);
	if (!*end && !errno)
		return json_integer(n);
	double d = strtod(s, &end);
	if (!*end && end != s && strpbrk(s, "0123456789"))
		return json_real(d);
	return json_string(s);
}

static json_t *yaml_node(yaml_document_t *doc, yaml_node_t *node, int depth)
{
	if (!node || depth > 64)
		return json_null();
	switch (node->type) {
	case YAML_SCALAR_NODE: {
		const char *v = (const char *)node->data.scalar.value;
		bool plain = node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
			     (!node->tag || !strcmp((const char *)node->tag, YAML_DEFAULT_SCALAR_TAG) ||
			      strncmp((const char *)node->tag, "tag:yaml.org,2002:", 18) == 0);
		json_t *j = plain && (!node->tag || strcmp((const char *)node->tag, YAML_STR_TAG)) ? yaml_plain(v)
												   : json_string(v);
		return j ? j : json_string("");
	}
	case YAML_SEQUENCE_NODE: {
		json_t *a = json_array();
		for (yaml_node_item_t *i = node->data.sequence.items.start; i < node->data.sequence.items.top; i++)
			json_array_append_new(a, yaml_node(doc, yaml_document_get_node(doc, *i), depth + 1));
		return a;
	}
	case YAML_MAPPING_NODE: {
		json_t *o = json_object();
		for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key);
			if (!k || k->type != YAML_SCALAR_NODE)
				continue;
			json_object_set_new(o, (const char *)k->data.scalar.value,
					    yaml_node(doc, yaml_document_get_node(doc, p->value), depth + 1));
		}
		return o;
	}
	default:
		return json_null();
	}
}

json_t *yaml_to_json(const char *text, size_t len, char *why, size_t whylen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	json_t *out = NULL;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(why, whylen, "libyaml could not start");
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(why, whylen, "%s at line %zu", parser.problem ? parser.problem : "not YAML",
			 parser.problem_mark.line + 1);
		goto delete_parser;
	}
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (root)
		out = yaml_node(&doc, root, 0);
	else
		snprintf(why, whylen, "no YAML document");
	yaml_document_delete(&doc);
delete_parser:
	yaml_parser_delete(&parser);
	return out;
}
