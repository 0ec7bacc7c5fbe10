/*
 * vta_json.c - the strict JSON reader of vta_json.h.  cJSON keeps no
 * positions, so the lines of keys come from one scan of the text: the keys
 * of a valid document appear in the text in the order a depth-first walk
 * of the parsed tree meets them, which maps the n-th key met to its line.
 */
#include "vta_json.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Up to 24 bytes at p (not past end) as printable text, others as \xNN. */
static const char *near_text(const char *p, const char *end, char *buf, size_t cap) {
  size_t o = 0;
  for (int i = 0; i < 24 && p + i < end && o + 5 < cap; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c == '\n') break;
    if (c >= 0x20 && c < 0x7f) buf[o++] = (char)c;
    else o += (size_t)snprintf(buf + o, cap - o, "\\x%02X", c);
  }
  buf[o] = '\0';
  return buf;
}

static int line_at(const char *text, const char *at) {
  int line = 1;
  for (const char *p = text; p < at; p++) line += *p == '\n';
  return line;
}

/* The line of every key of text[0..len), in text order (the text is valid
 * JSON: a key is a string followed by ':'). */
static int *key_lines(const char *text, size_t len, size_t *nkeys) {
  size_t n = 0, cap = 64;
  int *lines = malloc(cap * sizeof *lines), line = 1;
  for (size_t i = 0; lines && i < len; i++) {
    if (text[i] == '\n') line++;
    if (text[i] != '"') continue;
    int at = line;
    for (i++; i < len && text[i] != '"'; i++) {
      if (text[i] == '\\') i++;
      else if (text[i] == '\n') line++;
    }
    size_t j = i + 1;
    while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n')) j++;
    if (j >= len || text[j] != ':') continue;
    if (n == cap) {
      int *more = realloc(lines, 2 * cap * sizeof *lines);
      if (!more) {
        free(lines);
        return NULL;
      }
      lines = more;
      cap *= 2;
    }
    lines[n++] = at;
  }
  *nkeys = n;
  return lines;
}

typedef struct member {
  const char *key;
  size_t ord; /* the key's position in the text, over the whole document */
} member_t;

static int cmp_member(const void *a, const void *b) {
  const member_t *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : x->ord < y->ord ? -1 : x->ord > y->ord;
}

typedef struct walk {
  const int *lines;
  size_t nlines, next; /* the next key's position */
  const char *name;
  vta_err *err;
} walk_t;

static int walk(walk_t *w, const cJSON *node, char *path, size_t plen, size_t cap);

/* The members of one object: each value walked, then a repeated key
 * reported at its second occurrence (the earliest such in the text). */
static int walk_object(walk_t *w, const cJSON *obj, char *path, size_t plen, size_t cap) {
  size_t n = 0;
  for (const cJSON *c = obj->child; c; c = c->next) n++;
  member_t *m = n ? malloc(n * sizeof *m) : NULL;
  if (n && !m) return vta_errf(w->err, VTA_ENOMEM, "%s: out of memory", w->name);
  size_t i = 0;
  int rc = 0;
  for (const cJSON *c = obj->child; c && !rc; c = c->next, i++) {
    m[i] = (member_t){c->string ? c->string : "", w->next++};
    int k = snprintf(path + plen, cap - plen, "%s%s", plen ? "." : "", m[i].key);
    rc = walk(w, c, path, k < 0 || (size_t)k >= cap - plen ? cap - 1 : plen + (size_t)k, cap);
    path[plen] = '\0';
  }
  if (!rc && n > 1) {
    qsort(m, n, sizeof *m, cmp_member);
    size_t best = 0, first = 0;
    const char *key = NULL;
    for (size_t a = 0, b; a < n; a = b) {
      for (b = a + 1; b < n && !strcmp(m[a].key, m[b].key); b++) {}
      if (b > a + 1 && (!key || m[a + 1].ord < best)) {
        key = m[a].key;
        best = m[a + 1].ord;
        first = m[a].ord;
      }
    }
    if (key) {
      int l2 = best < w->nlines ? w->lines[best] : 1, l1 = first < w->nlines ? w->lines[first] : 1;
      rc = vta_errf(w->err, VTA_EINPUT, "%s:%d: key '%s%s%s': given twice (first on line %d)",
                    w->name, l2, path, plen ? "." : "", key, l1);
    }
  }
  free(m);
  return rc;
}

static int walk(walk_t *w, const cJSON *node, char *path, size_t plen, size_t cap) {
  if (cJSON_IsObject(node)) return walk_object(w, node, path, plen, cap);
  if (!cJSON_IsArray(node)) return 0;
  int i = 0;
  for (const cJSON *c = node->child; c; c = c->next, i++) {
    int k = snprintf(path + plen, cap - plen, "[%d]", i);
    if (walk(w, c, path, k < 0 || (size_t)k >= cap - plen ? cap - 1 : plen + (size_t)k, cap))
      return -1;
    path[plen] = '\0';
  }
  return 0;
}

size_t vta_json_first_end(const char *text, size_t len) {
  const char *end = NULL;
  cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (!j) return 0;
  cJSON_Delete(j);
  size_t off = (size_t)(end - text);
  while (off < len && (text[off] == ' ' || text[off] == '\t' || text[off] == '\r' || text[off] == '\n'))
    off++;
  return off;
}

cJSON *vta_json_parse_strict(const char *text, size_t len, const char *name, vta_err *err) {
  char nb[128];
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
    vta_errf(err, VTA_EINPUT, "%s:1: starts with a UTF-8 byte-order mark (bytes EF BB BF): save it "
             "as plain UTF-8 without one", name);
    return NULL;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (!root) {
    const char *at = cJSON_GetErrorPtr();
    if (!at || at < text || at > text + len) at = text;
    vta_errf(err, VTA_EINPUT, "%s:%d: not valid JSON (near '%s')", name, line_at(text, at),
             near_text(at, text + len, nb, sizeof nb));
    return NULL;
  }
  const char *p = end;
  while (p < text + len && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
  if (p < text + len) {
    vta_errf(err, VTA_EINPUT, "%s:%d: unexpected text after the JSON document (near '%s')", name,
             line_at(text, p), near_text(p, text + len, nb, sizeof nb));
    cJSON_Delete(root);
    return NULL;
  }
  size_t nlines = 0;
  int *lines = key_lines(text, (size_t)(end - text), &nlines);
  char path[256] = "";
  walk_t w = {lines, lines ? nlines : 0, 0, name, err};
  int rc = walk(&w, root, path, 0, sizeof path);
  free(lines);
  if (rc) {
    cJSON_Delete(root);
    return NULL;
  }
  return root;
}
