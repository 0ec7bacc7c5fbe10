/*
 * vta_json.h - one strict reader for every JSON file a user hands vtasim
 * (sweep specs, run reports, a sweep's points): cJSON accepts text after the
 * document and keeps both members of a repeated key, which a reader would
 * then silently resolve one way or the other; here both are errors that
 * name the file and the line, as vta_config.json's reader does.
 */
#ifndef VTA_JSON_H
#define VTA_JSON_H

#include <stddef.h>

#include "vta_err.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

/*
 * Parse text[0..len) as exactly one JSON document: NULL with
 * "NAME:LINE: what" (VTA_EINPUT) when it is not valid JSON, starts with a
 * UTF-8 byte-order mark, has anything but white space after the document,
 * or an object repeats a key ("NAME:LINE: key 'a.b': given twice (first on
 * line N)").  Text quoted in messages is shown printable (other bytes as
 * \xNN).  text need not be NUL-terminated.
 */
struct cJSON *vta_json_parse_strict(const char *text, size_t len, const char *name,
                                    vta_err *err);

/* Where the first document of text[0..len) ends (after its trailing white
 * space), or 0 when it does not parse: how a reader tells JSON lines (one
 * document per line) from one document. */
size_t vta_json_first_end(const char *text, size_t len);

#ifdef __cplusplus
}
#endif

#endif
