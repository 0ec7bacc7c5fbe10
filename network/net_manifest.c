/*
 * net_manifest.c - the network manifest (docs/network.md): parsing with a
 * message naming the line and the field for every malformed item, and the
 * check of each layer line against its bundle, so that a manifest edited by
 * hand (or a bundle swapped for another) is refused before it runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_manifest.h"
#include "vta_cl.h"
#include "vta_io.h"

#define MAX_TOKENS 24

/* The fields of a layer line, in order (field 1 is the keyword). */
static const char *const layer_fields[] = {
    "layer", "NAME", "BUNDLE", "IN", "RES", "WEIGHTS", "BIAS", "C", "H", "W", "O",
    "KH", "KW", "PAD", "STRIDE", "SHIFT", "CLIP_LO", "CLIP_HI", "ROUND"};
#define LAYER_NFIELDS ((int)(sizeof layer_fields / sizeof layer_fields[0]))

typedef struct line_ctx {
  const char *path;
  int ln;
  vta_err *e;
} line_ctx_t;

/* A whole-token integer in [lo, hi]. */
static int parse_int(const line_ctx_t *c, const char *what, const char *tok, long lo, long hi,
                     int *out) {
  char *end;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (end == tok || *end || errno)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s: expected an integer, got '%s'", c->path, c->ln,
                    what, tok);
  if (v < lo || v > hi)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s %ld is out of range (%ld..%ld)", c->path, c->ln,
                    what, v, lo, hi);
  *out = (int)v;
  return 0;
}

/* The characters of names (and of a path's components). */
static int name_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '.' || ch == '_' || ch == '-';
}

/* A tensor or layer name: letters, digits, '.', '_', '-'; not empty. */
static int parse_name(const line_ctx_t *c, const char *what, const char *tok, char *out,
                      size_t len) {
  size_t n = strlen(tok);
  if (!n || n >= len)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s: a name of 1 to %zu characters expected",
                    c->path, c->ln, what, len - 1);
  for (size_t i = 0; i < n; i++) {
    if (!name_char(tok[i]))
      return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s '%s': only letters, digits, '.', '_' and '-' "
                      "are allowed in a name", c->path, c->ln, what, tok);
  }
  memcpy(out, tok, n + 1);
  return 0;
}

/* A file named relative to the manifest's directory, staying inside it: no
 * leading '/', no empty, '.' or '..' component (so "a//etc/passwd" and
 * "../x" are refused), no character outside a name's and '/'. */
static int parse_path(const line_ctx_t *c, const char *what, const char *tok, char *out,
                      size_t len) {
  size_t n = strlen(tok);
  if (!n || n >= len)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s: a path of 1 to %zu characters expected",
                    c->path, c->ln, what, len - 1);
  if (tok[0] == '/')
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s '%s': an absolute path; files are named "
                    "relative to the manifest's directory", c->path, c->ln, what, tok);
  const char *comp = tok;
  for (size_t i = 0; i <= n; i++) {
    char ch = tok[i];
    if (ch == '/' || ch == '\0') {
      size_t clen = (size_t)(tok + i - comp);
      if (!clen || (clen == 1 && comp[0] == '.') || (clen == 2 && !strncmp(comp, "..", 2)))
        return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s '%s': empty, '.' or '..' path component; "
                        "files must stay inside the manifest's directory", c->path, c->ln,
                        what, tok);
      comp = tok + i + 1;
    } else if (!name_char(ch)) {
      return vta_errf(c->e, VTA_EINPUT, "%s:%d: %s '%s': only letters, digits, '.', '_', '-' "
                      "and '/' are allowed in a path", c->path, c->ln, what, tok);
    }
  }
  memcpy(out, tok, n + 1);
  return 0;
}

static int arity(const line_ctx_t *c, char **tok, int ntok, int want, const char *form) {
  if (ntok > want)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: trailing token '%s' after field %d of '%s' "
                    "(expected '%s')", c->path, c->ln, tok[want], want, tok[0], form);
  if (ntok < want)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: field %d of '%s' is missing (expected '%s')",
                    c->path, c->ln, ntok + 1, tok[0], form);
  return 0;
}

static int check_new_layer(net_manifest_t *m, const line_ctx_t *c, net_layer_t *l);

static int parse_header(const line_ctx_t *c, char **tok, int ntok) {
  int v;
  if (strcmp(tok[0], NET_MAGIC))
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: expected the version line '%s %d' first, got '%s'",
                    c->path, c->ln, NET_MAGIC, NET_VERSION, tok[0]);
  if (arity(c, tok, ntok, 2, NET_MAGIC " VERSION") ||
      parse_int(c, "version", tok[1], 0, 1000000, &v))
    return -1;
  if (v != NET_VERSION)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: manifest version %d is not supported (this vtasim "
                    "reads version %d)", c->path, c->ln, v, NET_VERSION);
  return 0;
}

static int parse_network(net_manifest_t *m, const line_ctx_t *c, char **tok, int ntok) {
  const char *form = "network NAME config CONFIG [seed N]";
  if (m->network_line)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: a second 'network' line (the first is line %d)",
                    c->path, c->ln, m->network_line);
  if (ntok != 4 && arity(c, tok, ntok, 6, form)) return -1;
  if (strcmp(tok[2], "config"))
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: field 3 of 'network': expected 'config', got '%s'",
                    c->path, c->ln, tok[2]);
  if (ntok == 6 && strcmp(tok[4], "seed"))
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: field 5 of 'network': expected 'seed', got '%s'",
                    c->path, c->ln, tok[4]);
  int seed;
  if (parse_name(c, "network NAME", tok[1], m->network, sizeof m->network) ||
      parse_name(c, "network CONFIG", tok[3], m->config, sizeof m->config) ||
      (ntok == 6 && parse_int(c, "network seed", tok[5], 0, 2147483647, &seed)))
    return -1;
  m->network_line = c->ln;
  return 0;
}

/* KW FILE N C H W (the input and host_input lines) into *line, file, dims. */
static int parse_tensor_line(const line_ctx_t *c, char **tok, int ntok, const char *kw,
                             int *line, char *file, int *const dims[4]) {
  char form[64], what[64];
  if (*line)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: a second '%s' line (the first is line %d)",
                    c->path, c->ln, kw, *line);
  snprintf(form, sizeof form, "%s FILE N C H W", kw);
  snprintf(what, sizeof what, "%s FILE", kw);
  if (arity(c, tok, ntok, 6, form) || parse_path(c, what, tok[1], file, NET_PATH_LEN)) return -1;
  static const char *const dim[] = {"N", "C", "H", "W"};
  static const long hi[] = {256, 65536, 4096, 4096};
  for (int k = 0; k < 4; k++) {
    snprintf(what, sizeof what, "%s %s", kw, dim[k]);
    if (parse_int(c, what, tok[2 + k], 1, hi[k], dims[k])) return -1;
  }
  *line = c->ln;
  return 0;
}

static int parse_input(net_manifest_t *m, const line_ctx_t *c, char **tok, int ntok) {
  int *const dims[4] = {&m->n, &m->c, &m->h, &m->w};
  return parse_tensor_line(c, tok, ntok, "input", &m->input_line, m->input, dims);
}

static int parse_layer(net_manifest_t *m, const line_ctx_t *c, char **tok, int ntok) {
  if (m->nlayers == NET_MAX_LAYERS)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: more than %d layers", c->path, c->ln,
                    NET_MAX_LAYERS);
  if (ntok != LAYER_NFIELDS) {
    if (ntok > LAYER_NFIELDS)
      return vta_errf(c->e, VTA_EINPUT, "%s:%d: trailing token '%s' after field %d (ROUND) of "
                      "'layer'", c->path, c->ln, tok[LAYER_NFIELDS], LAYER_NFIELDS);
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: field %d of 'layer' (%s) is missing: expected "
                    "NAME BUNDLE IN RES WEIGHTS BIAS C H W O KH KW PAD STRIDE SHIFT CLIP_LO "
                    "CLIP_HI ROUND", c->path, c->ln, ntok + 1, layer_fields[ntok]);
  }
  net_layer_t *l = &m->layer[m->nlayers];
  memset(l, 0, sizeof *l);
  l->line = c->ln;
  struct { int *v; long lo, hi; } num[] = {
      {&l->c, 1, 65536}, {&l->h, 1, 4096}, {&l->w, 1, 4096}, {&l->o, 1, 65536},
      {&l->kh, 1, 64},   {&l->kw, 1, 64},  {&l->pad, 0, 63}, {&l->stride, 1, 64},
      {&l->shift, 0, 31}, {&l->clip_lo, -128, 127}, {&l->clip_hi, -128, 127},
      {&l->round, 0, 1}};
  if (parse_name(c, "layer NAME (field 2)", tok[1], l->name, sizeof l->name) ||
      parse_path(c, "layer BUNDLE (field 3)", tok[2], l->bundle, sizeof l->bundle) ||
      parse_name(c, "layer IN (field 4)", tok[3], l->in, sizeof l->in) ||
      (strcmp(tok[4], "-") && parse_name(c, "layer RES (field 5)", tok[4], l->res, sizeof l->res)) ||
      parse_path(c, "layer WEIGHTS (field 6)", tok[5], l->weights, sizeof l->weights) ||
      parse_path(c, "layer BIAS (field 7)", tok[6], l->bias, sizeof l->bias))
    return -1;
  if (!strcmp(tok[4], "-")) snprintf(l->res, sizeof l->res, "-");
  for (int k = 0; k < (int)(sizeof num / sizeof num[0]); k++) {
    char what[64];
    snprintf(what, sizeof what, "layer %s %s (field %d)", l->name, layer_fields[7 + k], 8 + k);
    if (parse_int(c, what, tok[7 + k], num[k].lo, num[k].hi, num[k].v)) return -1;
  }
  if (l->pad >= l->kh || l->pad >= l->kw)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: layer %s: PAD %d must be below the kernel (%dx%d)",
                    c->path, c->ln, l->name, l->pad, l->kh, l->kw);
  return check_new_layer(m, c, l);
}

/* add NAME BUNDLE A B C H W CLIP_LO CLIP_HI */
static const char *const add_fields[] = {"add", "NAME", "BUNDLE", "A", "B", "C", "H", "W",
                                         "CLIP_LO", "CLIP_HI"};
#define ADD_NFIELDS ((int)(sizeof add_fields / sizeof add_fields[0]))

static int check_new_layer(net_manifest_t *m, const line_ctx_t *c, net_layer_t *l) {
  if (!strcmp(l->name, "input"))
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: a layer cannot be named 'input' (the network "
                    "input's name)", c->path, c->ln);
  for (int i = 0; i < m->nlayers; i++)
    if (!strcmp(m->layer[i].name, l->name))
      return vta_errf(c->e, VTA_EINPUT, "%s:%d: layer %s is defined twice (first on line %d)",
                      c->path, c->ln, l->name, m->layer[i].line);
  if (l->clip_lo > l->clip_hi)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: layer %s: CLIP_LO %d is above CLIP_HI %d", c->path,
                    c->ln, l->name, l->clip_lo, l->clip_hi);
  m->nlayers++;
  return 0;
}

static int parse_add(net_manifest_t *m, const line_ctx_t *c, char **tok, int ntok) {
  if (m->nlayers == NET_MAX_LAYERS)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: more than %d layers", c->path, c->ln,
                    NET_MAX_LAYERS);
  if (ntok > ADD_NFIELDS)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: trailing token '%s' after field %d (CLIP_HI) of "
                    "'add'", c->path, c->ln, tok[ADD_NFIELDS], ADD_NFIELDS);
  if (ntok < ADD_NFIELDS)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: field %d of 'add' (%s) is missing: expected NAME "
                    "BUNDLE A B C H W CLIP_LO CLIP_HI", c->path, c->ln, ntok + 1, add_fields[ntok]);
  net_layer_t *l = &m->layer[m->nlayers];
  memset(l, 0, sizeof *l);
  l->line = c->ln;
  l->is_add = 1;
  snprintf(l->weights, sizeof l->weights, "-");
  snprintf(l->bias, sizeof l->bias, "-");
  if (parse_name(c, "add NAME (field 2)", tok[1], l->name, sizeof l->name) ||
      parse_path(c, "add BUNDLE (field 3)", tok[2], l->bundle, sizeof l->bundle) ||
      parse_name(c, "add A (field 4)", tok[3], l->in, sizeof l->in) ||
      parse_name(c, "add B (field 5)", tok[4], l->res, sizeof l->res))
    return -1;
  struct { int *v; long lo, hi; } num[] = {{&l->c, 1, 65536}, {&l->h, 1, 4096}, {&l->w, 1, 4096},
                                          {&l->clip_lo, -128, 127}, {&l->clip_hi, -128, 127}};
  for (int k = 0; k < 5; k++) {
    char what[64];
    snprintf(what, sizeof what, "add %s %s (field %d)", l->name, add_fields[5 + k], 6 + k);
    if (parse_int(c, what, tok[5 + k], num[k].lo, num[k].hi, num[k].v)) return -1;
  }
  l->o = l->c;
  l->kh = l->kw = l->stride = 1;
  return check_new_layer(m, c, l);
}

/* host NAME before|after OP FIELDS... (the operator's fields, in the order
 * of host_forms[OP]; docs/network.md, "Host operators") */
static const char *const host_forms[] = {
    "host NAME before|after conv2d C H W O K STRIDE PAD SHIFT CLIP_LO CLIP_HI ROUND WEIGHTS BIAS",
    "host NAME before|after max_pool2d C H W K STRIDE PAD",
    "host NAME before|after global_avg_pool2d C H W",
    "host NAME before|after dense C H W UNITS WEIGHTS BIAS"};
static int parse_host(net_manifest_t *m, const line_ctx_t *c, char **tok, int ntok) {
  if (m->nhost == (int)(sizeof m->host / sizeof m->host[0]))
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: more than %d host operators", c->path, c->ln,
                    (int)(sizeof m->host / sizeof m->host[0]));
  if (ntok < 4) return arity(c, tok, ntok, 4, "host NAME before|after OP ...");
  net_host_t *h = &m->host[m->nhost];
  memset(h, 0, sizeof *h);
  h->line = c->ln;
  if (strcmp(tok[2], "before") && strcmp(tok[2], "after"))
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: field 3 of 'host': expected 'before' or 'after', "
                    "got '%s'", c->path, c->ln, tok[2]);
  h->after = !strcmp(tok[2], "after");
  if (h->after) m->host_after = 1;
  else if (m->host_after)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: host %s runs before the VTA layers but follows an "
                    "operator after them", c->path, c->ln, tok[1]);
  if (parse_name(c, "host NAME (field 2)", tok[1], h->name, NET_NAME_LEN) ||
      parse_name(c, "host OP (field 4)", tok[3], h->op, NET_NAME_LEN))
    return -1;
  h->kind = vta_cl_host_kind(h->op);
  if (h->kind < 0)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: host OP (field 4) '%s': expected conv2d, "
                    "max_pool2d, global_avg_pool2d or dense", c->path, c->ln, h->op);
  const char *form = host_forms[h->kind];
  int want = 1;
  for (const char *f = form; (f = strchr(f, ' ')); f++) want++;
  if (arity(c, tok, ntok, want, form)) return -1;
  struct { const char *name; int *v; long lo, hi; } all[] = {
      {"C", &h->c, 1, 65536}, {"H", &h->h, 1, 4096}, {"W", &h->w, 1, 4096},
      {"O", &h->o, 1, 65536}, {"UNITS", &h->o, 1, 65536}, {"K", &h->k, 1, 64},
      {"STRIDE", &h->stride, 1, 64}, {"PAD", &h->pad, 0, 63}, {"SHIFT", &h->shift, 0, 31},
      {"CLIP_LO", &h->clip_lo, -128, 127}, {"CLIP_HI", &h->clip_hi, -128, 127},
      {"ROUND", &h->round, 0, 1}};
  /* the fields after OP, named by the form */
  const char *f = strstr(form, h->op) + strlen(h->op);
  for (int k = 4; k < want; k++) {
    char fname[16];
    f++;
    size_t n = strcspn(f, " ");
    snprintf(fname, sizeof fname, "%.*s", (int)n, f);
    f += n;
    char what[96];
    snprintf(what, sizeof what, "host %s %s (field %d)", h->name, fname, k + 1);
    if (!strcmp(fname, "WEIGHTS") || !strcmp(fname, "BIAS")) {
      char *dst = fname[0] == 'W' ? h->weights : h->bias;
      if (parse_path(c, what, tok[k], dst, NET_PATH_LEN)) return -1;
      continue;
    }
    for (size_t a = 0; a < sizeof all / sizeof all[0]; a++)
      if (!strcmp(all[a].name, fname) &&
          parse_int(c, what, tok[k], all[a].lo, all[a].hi, all[a].v))
        return -1;
  }
  if (h->k && h->pad >= h->k)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: host %s: PAD %d must be below the kernel (%d)",
                    c->path, c->ln, h->name, h->pad, h->k);
  if (h->clip_lo > h->clip_hi)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: host %s: CLIP_LO %d is above CLIP_HI %d", c->path,
                    c->ln, h->name, h->clip_lo, h->clip_hi);
  for (int i = 0; i < m->nhost; i++)
    if (!strcmp(m->host[i].name, h->name))
      return vta_errf(c->e, VTA_EINPUT, "%s:%d: host %s is defined twice (first on line %d)",
                      c->path, c->ln, h->name, m->host[i].line);
  if (m->nhost && m->host[m->nhost - 1].kind == VTA_CL_HOST_DENSE)
    return vta_errf(c->e, VTA_EINPUT, "%s:%d: host %s follows a dense layer, whose int32 "
                    "logits end the network", c->path, c->ln, h->name);
  m->nhost++;
  return 0;
}

/* host_input FILE N C H W: what the host operators before the VTA layers read */
static int parse_host_input(net_manifest_t *m, const line_ctx_t *c, char **tok, int ntok) {
  int *const dims[4] = {&m->host_shape[0], &m->host_shape[1], &m->host_shape[2],
                        &m->host_shape[3]};
  return parse_tensor_line(c, tok, ntok, "host_input", &m->host_input_line, m->host_input, dims);
}

int vtasim_manifest_parse(net_manifest_t *m, const char *path, const char *text, size_t len,
                          vta_err *e) {
  memset(m, 0, sizeof *m);
  snprintf(m->path, sizeof m->path, "%s", path);
  snprintf(m->dir, sizeof m->dir, "%s", path);
  char *slash = strrchr(m->dir, '/');
  if (slash) *slash = '\0';
  else snprintf(m->dir, sizeof m->dir, ".");
  line_ctx_t c = {path, 0, e};
  int magic = 0;
  size_t pos = 0;
  char line[2048];
  while (pos < len) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
    c.ln++;
    if (n >= sizeof line)
      return vta_errf(e, VTA_EINPUT, "%s:%d: line longer than %zu characters", path, c.ln,
                      sizeof line - 1);
    memcpy(line, text + pos, n);
    line[n] = '\0';
    pos += n + (nl ? 1 : 0);
    if (memchr(line, '\0', n))
      return vta_errf(e, VTA_EINPUT, "%s:%d: a NUL byte: not a text manifest", path, c.ln);
    if (n && line[n - 1] == '\r') line[n - 1] = '\0';
    char *tok[MAX_TOKENS + 1];
    int ntok = 0;
    for (char *t = strtok(line, " \t"); t; t = strtok(NULL, " \t")) {
      if (ntok == MAX_TOKENS) break;
      tok[ntok++] = t;
    }
    if (!ntok || tok[0][0] == '#') continue;
    int rc;
    if (!magic) {
      rc = parse_header(&c, tok, ntok);
      magic = 1;
    } else if (!strcmp(tok[0], "network")) {
      rc = parse_network(m, &c, tok, ntok);
    } else if (!strcmp(tok[0], "input")) {
      rc = parse_input(m, &c, tok, ntok);
    } else if (!strcmp(tok[0], "layer")) {
      rc = parse_layer(m, &c, tok, ntok);
    } else if (!strcmp(tok[0], "add")) {
      rc = parse_add(m, &c, tok, ntok);
    } else if (!strcmp(tok[0], "host")) {
      rc = parse_host(m, &c, tok, ntok);
    } else if (!strcmp(tok[0], "host_input")) {
      rc = parse_host_input(m, &c, tok, ntok);
    } else if (!strcmp(tok[0], NET_MAGIC)) {
      rc = vta_errf(e, VTA_EINPUT, "%s:%d: a second version line", path, c.ln);
    } else {
      char kw[40];
      snprintf(kw, sizeof kw, "%s", tok[0]);
      rc = vta_errf(e, VTA_EINPUT, "%s:%d: unknown keyword '%s' (expected network, input, "
                    "layer, add, host or host_input)", path, c.ln, kw);
    }
    if (rc) return -1;
  }
  if (!magic)
    return vta_errf(e, VTA_EINPUT, "%s: empty manifest (no '%s %d' version line)", path,
                    NET_MAGIC, NET_VERSION);
  if (!m->network_line)
    return vta_errf(e, VTA_EINPUT, "%s: no 'network NAME config CONFIG' line", path);
  if (!m->input_line) return vta_errf(e, VTA_EINPUT, "%s: no 'input' line", path);
  if (!m->nlayers) return vta_errf(e, VTA_EINPUT, "%s: no 'layer' or 'add' line", path);
  int before = m->nhost && !m->host[0].after;
  if (before != !!m->host_input_line)
    return vta_errf(e, VTA_EINPUT, "%s: %s", path, before
                    ? "host operators before the VTA layers but no 'host_input' line (what they "
                      "read)"
                    : "a 'host_input' line without host operators before the VTA layers");
  return 0;
}

int vtasim_manifest_load(net_manifest_t *m, const char *path, vta_err *e) {
  uint8_t *d;
  size_t len;
  if (vta_read_file(path, &d, &len, e)) return -1;
  int rc = vtasim_manifest_parse(m, path, (const char *)d, len, e);
  free(d);
  return rc;
}

static const char *meta_of(const vta_program_t *p, const char *key) {
  for (int k = 0; k < p->nmeta; k++)
    if (!strcmp(p->meta[k].key, key)) return p->meta[k].value;
  return NULL;
}

int vtasim_manifest_check_bundle(const net_manifest_t *m, const net_layer_t *l,
                                 const vta_program_t *p, vta_err *e) {
  char cname[64];
  vta_config_name(&p->cfg, cname, sizeof cname);
  if (strcmp(cname, m->config))
    return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: its bundle %s is built for configuration "
                    "%s, the manifest says %s", m->path, l->line, l->name, l->bundle, cname,
                    m->config);
  const char *shape = meta_of(p, "shape"), *epi = meta_of(p, "epilogue"), *op = meta_of(p, "op");
  if (!op || strcmp(op, l->is_add ? "add" : "conv2d"))
    return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: its bundle %s is %s%s, not %s", m->path,
                    l->line, l->name, l->bundle, op ? "an operator " : "no compiler-lite operator",
                    op ? op : "", l->is_add ? "an addition (add)" : "a conv2d");
  if (l->is_add) {
    int b, ch, h, w, lo, hi;
    if (!shape || !epi ||
        sscanf(shape, "batch=%d channels=%d height=%d width=%d", &b, &ch, &h, &w) != 4 ||
        sscanf(epi, "add clip=%d,%d", &lo, &hi) != 2)
      return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: its bundle %s lacks the addition's "
                      "'.meta shape' and '.meta epilogue'", m->path, l->line, l->name, l->bundle);
    struct { const char *field; int manifest, bundle; } f[] = {
        {"N (input line)", m->n, b}, {"C", l->c, ch}, {"H", l->h, h}, {"W", l->w, w},
        {"CLIP_LO", l->clip_lo, lo}, {"CLIP_HI", l->clip_hi, hi}};
    for (int k = 0; k < (int)(sizeof f / sizeof f[0]); k++)
      if (f[k].manifest != f[k].bundle)
        return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: field %s is %d, its bundle %s has %d",
                        m->path, l->line, l->name, f[k].field, f[k].manifest, l->bundle,
                        f[k].bundle);
    return 0;
  }
  if (!shape || !epi)
    return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: its bundle %s has no '.meta shape' and "
                    "'.meta epilogue' lines (not a compiler-lite conv2d)", m->path, l->line,
                    l->name, l->bundle);
  int b, c, h, w, o, kh, kw, ph, pw, sh, sw, shift, lo, hi, bias;
  if (sscanf(shape, "batch=%d in_channels=%d height=%d width=%d out_channels=%d kernel=%dx%d "
             "pad=%d,%d stride=%d,%d", &b, &c, &h, &w, &o, &kh, &kw, &ph, &pw, &sh, &sw) != 11 ||
      sscanf(epi, "shift=%d clip=%d,%d bias=%d", &shift, &lo, &hi, &bias) != 4)
    return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: its bundle %s is not a conv2d (shape "
                    "'%s')", m->path, l->line, l->name, l->bundle, shape);
  const int residual = strstr(epi, "residual=1") != NULL, round = strstr(epi, "round=1") != NULL;
  struct { const char *field; int manifest, bundle; } f[] = {
      {"N (input line)", m->n, b}, {"C", l->c, c}, {"H", l->h, h}, {"W", l->w, w},
      {"O", l->o, o}, {"KH", l->kh, kh}, {"KW", l->kw, kw}, {"PAD", l->pad, ph},
      {"PAD", l->pad, pw}, {"STRIDE", l->stride, sh}, {"STRIDE", l->stride, sw},
      {"SHIFT", l->shift, shift}, {"CLIP_LO", l->clip_lo, lo}, {"CLIP_HI", l->clip_hi, hi},
      {"RES (a residual addition)", strcmp(l->res, "-") != 0, residual},
      {"ROUND", l->round, round}};
  for (int k = 0; k < (int)(sizeof f / sizeof f[0]); k++)
    if (f[k].manifest != f[k].bundle)
      return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: field %s is %d, its bundle %s has %d "
                      "(%s; %s)", m->path, l->line, l->name, f[k].field, f[k].manifest,
                      l->bundle, f[k].bundle, shape, epi);
  return 0;
}
