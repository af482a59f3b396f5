/* SPDX-License-Identifier: MIT */
/*
 * json_items: a JSON array read one item at a time, for inputs of many
 * small records (`commroof check --measured-json`, a harness's results):
 * memory holds one item, not the file, however many items it has.
 *
 * The input is a JSON array, or an object one of whose members (named by
 * the caller, e.g. "results") is that array; the object's other members are
 * checked to be JSON and skipped, or handed one at a time (each under the
 * same size cap) to a callback (cr_json_items_on_member: the run metadata
 * beside an nccl-tests JSON file's results). Each item is parsed by jansson with
 * JSON_REJECT_DUPLICATES, so an item reads exactly as it would inside a
 * json_load_file() tree.
 */
#ifndef CR_JSON_ITEMS_H
#define CR_JSON_ITEMS_H

#include <stdio.h>

#include <jansson.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest item (and skipped member) in bytes of JSON text: a result
 * record is well under 1 KiB; one over this is refused with CR_ERANGE. */
#define CR_JSON_ITEM_MAX_BYTES (1u << 20)

typedef struct cr_json_items cr_json_items;

/* Reads items from f, which the caller keeps owning (it must outlive the
 * reader); label names it in diagnostics ("<stdin>" or the path); member is
 * the name of the array inside a top-level object ("results"). Errors:
 * CR_ENOMEM. Content errors come from cr_json_items_next(). */
cr_status cr_json_items_open(FILE *f, const char *label, const char *member, cr_json_items **out);

/* The next item in *item (a new reference: json_decref() it), or *item =
 * NULL at the end of the array, after the rest of the input was checked to
 * be whitespace or, in the object form, the object's other members.
 * Errors, with "label:line: what is wrong" in d: CR_EPARSE (not JSON, not
 * an array or an object with the member, the member twice, input cut short
 * inside the array), CR_ERANGE (an item over CR_JSON_ITEM_MAX_BYTES), CR_EIO
 * (a read error), CR_ENOMEM. After an error the reader only returns that
 * error again. */
cr_status cr_json_items_next(cr_json_items *r, json_t **item, cr_diag *d);

/* Called with each of the top-level object's other members (name, value:
 * borrowed, valid during the call) as the reader passes it, before the
 * items when the member comes first; a status other than CR_OK stops the
 * reader with the message the callback set in d. */
typedef cr_status (*cr_json_member_fn)(void *ctx, const char *name, json_t *value, cr_diag *d);

/* Sets the member callback (NULL: members are checked and skipped). */
void cr_json_items_on_member(cr_json_items *r, cr_json_member_fn fn, void *ctx);

/* Items returned so far. */
size_t cr_json_items_count(const cr_json_items *r);

/* Frees the reader (not the file). NULL is a no-op. */
void cr_json_items_free(cr_json_items *r);

#ifdef __cplusplus
}
#endif

#endif
