/*
 * vta_asm.c - the reader of the text form of a program bundle (the format is
 * docs/trace-format.md).
 *
 * Two passes.  The first walks the lines once: it settles the configuration,
 * defines every segment with its final size and address, encodes data and
 * micro-ops, and records runs and expectations.  The second assembles the
 * instruction lines, whose `@segment` symbols may name segments defined
 * further down.  Every error reads "FILE:LINE: what was expected".
 */
#include "vta_program.h"
#include "vta_program_int.h"
#include "vta_io.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
  vta_program_t *p;
  vta_err *err;
  const char *name; /* in messages */
  char *dir;        /* the bundle's directory, for relative paths; NULL: cwd */
  char *buf;        /* the text, split in place into comment-free lines */
  char **lines;
  int nlines;
  int ln;           /* index of the line being read */
  int version_line, config_line, set_line, frozen;
  int *to_end;      /* expectations whose region ends with their segment */
  int nto_end;
} parser_t;

/* A growing byte buffer; also holds the int line numbers of items. */
typedef struct {
  uint8_t *d;
  size_t n, cap;
} bytes_t;

static const char *const directive_names[] = {
    ".version", ".config", ".set", ".meta", ".data", ".uop", ".insn", ".run",
    ".expect", ".expect-counter", NULL};

/* ---- errors --------------------------------------------------------------- */

static int lineno(const parser_t *P) { return P->ln + 1; }

static int fail_at(parser_t *P, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_at(parser_t *P, int line, const char *fmt, ...) {
  char msg[VTA_ERR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return vta_errf(P->err, VTA_EINPUT, "%s:%d: %s", P->name, line, msg);
}

#define fail(P, ...) fail_at((P), lineno(P), __VA_ARGS__)

/* Put FILE:LINE in front of an error a callee reported, keeping its kind. */
static int relay(parser_t *P, int line) {
  return vta_err_prefix(P->err, "%s:%d: ", P->name, line);
}

static int oom(parser_t *P) { return vta_errf(P->err, VTA_ENOMEM, "%s: out of memory", P->name); }

/* Long tokens (a 100 000-digit hex run) are cut in messages, and say so. */
#define SHOW(w) 40, (w), (strlen(w) > 40 ? "..." : "")

static int missing_brace(parser_t *P, int open) {
  P->ln = P->nlines - 1;
  return fail_at(P, open, "missing '}' for the block opened here (reached the end of the file)");
}

/* ---- words and numbers ---------------------------------------------------- */

static char *word(char **s) {
  char *p = *s;
  while (isspace((unsigned char)*p)) p++;
  if (!*p) {
    *s = p;
    return NULL;
  }
  char *w = p;
  while (*p && !isspace((unsigned char)*p)) p++;
  if (*p) *p++ = '\0';
  *s = p;
  return w;
}

static const char *skip_space(const char *s) {
  while (isspace((unsigned char)*s)) s++;
  return s;
}

/* Nothing may follow the last expected word: extra words would be ignored. */
static int no_more(parser_t *P, char *s, const char *form) {
  char *w = word(&s);
  if (w) return fail(P, "unexpected '%.*s%s' at the end of the line (expected %s)", SHOW(w), form);
  return 0;
}

static int is_directive(const char *w) {
  for (int i = 0; directive_names[i]; i++)
    if (!strcmp(w, directive_names[i])) return 1;
  return 0;
}

/* Decimal or 0x hex, nothing else: strtoull alone would accept blanks and signs. */
static int parse_u64(const char *s, uint64_t *v) {
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
    if (!isxdigit((unsigned char)*s)) return -1;
  } else if (!isdigit((unsigned char)*s)) {
    return -1;
  }
  errno = 0;
  char *end;
  unsigned long long r = strtoull(s, &end, base);
  if (*end || errno) return -1;
  *v = r;
  return 0;
}

static int parse_i64(const char *s, int64_t *v) {
  int neg = *s == '-';
  uint64_t m;
  if (parse_u64(s + neg, &m) || m > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
    return -1;
  *v = neg ? (int64_t)(0 - m) : (int64_t)m;
  return 0;
}

static int parse_u32(parser_t *P, const char *w, const char *what, uint32_t *out) {
  uint64_t v;
  if (!w || parse_u64(w, &v))
    return fail(P, "expected %s (a decimal or 0x hex number), got '%.*s%s'", what,
                SHOW(w ? w : "end of line"));
  if (v > UINT32_MAX) return fail(P, "%s %s is out of range (at most 4294967295)", what, w);
  *out = (uint32_t)v;
  return 0;
}

/* ---- buffers and files ---------------------------------------------------- */

/* Room for k more bytes (capacity doubles: appending is amortised O(1)). */
static int reserve(parser_t *P, bytes_t *b, size_t k) {
  if (b->n + k > VTA_SEGMENT_MAX_BYTES)
    return fail(P, "more than 1 GiB in one block (the limit of a segment)");
  if (b->n + k > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + k) cap *= 2;
    uint8_t *d = realloc(b->d, cap);
    if (!d) return oom(P);
    b->d = d;
    b->cap = cap;
  }
  return 0;
}

static int push(parser_t *P, bytes_t *b, const void *src, size_t k) {
  if (reserve(P, b, k)) return -1;
  memcpy(b->d + b->n, src, k);
  b->n += k;
  return 0;
}

static char *resolve(const parser_t *P, const char *path) {
  if (path[0] == '/' || !P->dir) return strdup(path);
  size_t n = strlen(P->dir) + strlen(path) + 2;
  char *full = malloc(n);
  if (full) snprintf(full, n, "%s/%s", P->dir, path);
  return full;
}

/* A data file, relative to the bundle (vta_read_file enforces the size
 * limit of every input, below the 1 GiB of a segment). */
static int load_file(parser_t *P, const char *arg, bytes_t *b) {
  char *path = resolve(P, arg);
  if (!path) return oom(P);
  size_t n;
  int rc = vta_read_file(path, &b->d, &n, P->err);
  free(path);
  if (rc) return relay(P, lineno(P));
  b->n = b->cap = n;
  return 0;
}

/* `file PATH`: one path, so that a second word cannot be silently dropped. */
static int read_file_arg(parser_t *P, char *s, bytes_t *b, char **path) {
  *path = word(&s);
  if (!*path) return fail(P, "expected a path after 'file'");
  if (no_more(P, s, "'file PATH' (paths cannot contain blanks)")) return -1;
  return load_file(P, *path, b);
}

/* ---- byte blocks ---------------------------------------------------------- */

typedef struct {
  const char *tag;
  int bytes, is_signed;
} vtype_t;

static const vtype_t vtypes[] = {{"i8:", 1, 1},  {"u8:", 1, 0},  {"i16:", 2, 1},
                                 {"u16:", 2, 0}, {"i32:", 4, 1}, {"u32:", 4, 0}};

static const vtype_t *find_vtype(const char *w) {
  for (size_t i = 0; i < sizeof vtypes / sizeof vtypes[0]; i++)
    if (!strcmp(w, vtypes[i].tag)) return &vtypes[i];
  return NULL;
}

static int hexval(char c) {
  return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

static int put_hex(parser_t *P, const char *w, bytes_t *b) {
  size_t n = strlen(w);
  for (size_t i = 0; i < n; i++)
    if (!isxdigit((unsigned char)w[i]))
      return fail(P, "bad hex byte '%.*s%s': expected pairs of hex digits such as 0f or "
                  "00ff, or a type tag i8: i16: i32: u8: u16: u32:", SHOW(w));
  if (n % 2)
    return fail(P, "bad hex byte '%.*s%s': an odd number of hex digits (expected two per "
                "byte)", SHOW(w));
  for (size_t i = 0; i < n; i += 2) {
    uint8_t v = (uint8_t)(hexval(w[i]) << 4 | hexval(w[i + 1]));
    if (push(P, b, &v, 1)) return -1;
  }
  return 0;
}

static int put_typed(parser_t *P, const vtype_t *t, const char *w, bytes_t *b) {
  int bits = 8 * t->bytes;
  int64_t lo = t->is_signed ? -((int64_t)1 << (bits - 1)) : 0;
  int64_t hi = t->is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
  int64_t v;
  if (parse_i64(w, &v))
    return fail(P, "expected a %.*s value (decimal or 0x hex), got '%.*s%s'",
                (int)strlen(t->tag) - 1, t->tag, SHOW(w));
  if (v < lo || v > hi)
    return fail(P, "value %s is out of range for %.*s (%lld..%lld)", w,
                (int)strlen(t->tag) - 1, t->tag, (long long)lo, (long long)hi);
  uint8_t le[4];
  for (int i = 0; i < t->bytes; i++) le[i] = (uint8_t)((uint64_t)v >> (8 * i));
  return push(P, b, le, (size_t)t->bytes);
}

/* The class of a byte in a data block, one table lookup: a hex digit's
 * value (0..15), HX_BLANK for the blanks of isspace() in the C locale ('\n'
 * cannot occur: lines are split), HX_END for the NUL that ends the line,
 * HX_OTHER for anything else.  Blanks and the end both end a word. */
enum { HX_BLANK = 0x10, HX_END = 0x30, HX_OTHER = 0x40 };
#define H(c, v) [c] = v
static const uint8_t hexcls[256] = {
    [0] = HX_END,       [1 ... 8] = HX_OTHER,   H('\t', HX_BLANK),   H('\n', HX_BLANK),
    H('\v', HX_BLANK),  H('\f', HX_BLANK),      H('\r', HX_BLANK),   [14 ... 31] = HX_OTHER,
    H(' ', HX_BLANK),   [33 ... 47] = HX_OTHER, H('0', 0),  H('1', 1),  H('2', 2),  H('3', 3),
    H('4', 4),  H('5', 5),  H('6', 6),  H('7', 7),  H('8', 8),  H('9', 9),
    [58 ... 64] = HX_OTHER, H('A', 10), H('B', 11), H('C', 12), H('D', 13), H('E', 14),
    H('F', 15), [71 ... 96] = HX_OTHER, H('a', 10), H('b', 11), H('c', 12), H('d', 13),
    H('e', 14), H('f', 15), [103 ... 255] = HX_OTHER};
#undef H

/* The common case of a byte block, read in one sweep without splitting
 * words: untyped words of an even number of hex digits.  Stops at the
 * first word that is anything else (a '}', a tag, a malformed word) and
 * returns where it starts, for the general reader to judge with its
 * messages; NULL when out of memory. */
static char *hex_run(parser_t *P, char *s, bytes_t *b) {
  const unsigned char *p = (const unsigned char *)s;
  /* A line of n characters holds at most n / 2 bytes: room once per line.
   * Near the segment limit the general reader counts byte by byte. */
  size_t most = strlen(s) / 2;
  if (b->n + most > VTA_SEGMENT_MAX_BYTES) return s;
  if (reserve(P, b, most)) return NULL;
  uint8_t *d = b->d + b->n;
  for (;;) {
    while (hexcls[*p] == HX_BLANK) p++;
    /* (each byte read only when the one before is a digit: never past the NUL) */
    unsigned hi = hexcls[p[0]], lo = hi < 16 ? hexcls[p[1]] : HX_OTHER;
    if (lo < 16 && (hexcls[p[2]] & HX_BLANK)) { /* one byte: the usual word */
      *d++ = (uint8_t)(hi << 4 | lo);
      p += 2;
      continue;
    }
    const unsigned char *t = p;
    while (hexcls[*t] < 16) t++;
    size_t n = (size_t)(t - p);
    if (!n || n % 2 || !(hexcls[*t] & HX_BLANK)) break;
    for (; p < t; p += 2) *d++ = (uint8_t)(hexcls[p[0]] << 4 | hexcls[p[1]]);
  }
  b->n = (size_t)(d - b->d);
  return s + (p - (const unsigned char *)s);
}

/* One line of a byte block.  A type tag holds to the end of its line; '}'
 * may end the last line of bytes. */
static int bytes_line(parser_t *P, char *s, bytes_t *b, int open, int *done) {
  const vtype_t *type = NULL;
  for (char *w;;) {
    if (!type && !(s = hex_run(P, s, b))) return -1;
    if (!(w = word(&s))) break;
    if (!strcmp(w, "}")) {
      *done = 1;
      return no_more(P, s, "nothing after the '}' that closes a block");
    }
    if (is_directive(w))
      return fail(P, "expected bytes or '}', got the directive %s (missing '}' for the "
                  "block opened on line %d?)", w, open);
    const vtype_t *t = find_vtype(w);
    if (t)
      type = t;
    else if (type ? put_typed(P, type, w, b) : put_hex(P, w, b))
      return -1;
  }
  return 0;
}

/* A byte block; `s` is what follows '{' on the opening line. */
static int read_bytes_block(parser_t *P, char *s, bytes_t *b) {
  int open = lineno(P), done = 0;
  for (;;) {
    if (bytes_line(P, s, b, open, &done)) return -1;
    if (done) return 0;
    if (++P->ln >= P->nlines) return missing_brace(P, open);
    s = P->lines[P->ln];
  }
}

/* ---- item blocks (micro-ops, instructions) -------------------------------- */

typedef int (*item_fn)(parser_t *P, const char *text, bytes_t *data);

static int uop_item(parser_t *P, const char *text, bytes_t *data) {
  vta_uop_t u;
  uint8_t enc[VTA_UOP_BYTES];
  if (vta_uop_parse(text, &u, P->err) || vta_uop_encode(&P->p->cfg, &u, enc, P->err))
    return relay(P, lineno(P));
  return push(P, data, enc, sizeof enc);
}

/* Instructions are assembled in the second pass, once every symbol has an
 * address; here they only take their room. */
static int insn_item(parser_t *P, const char *text, bytes_t *data) {
  static const uint8_t room[VTA_INS_BYTES];
  (void)text;
  return push(P, data, room, sizeof room);
}

static int read_items(parser_t *P, item_fn fn, bytes_t *data, bytes_t *lines) {
  int open = lineno(P);
  for (;;) {
    if (++P->ln >= P->nlines) return missing_brace(P, open);
    const char *t = skip_space(P->lines[P->ln]);
    if (!*t) continue;
    if (!strcmp(t, "}")) return 0;
    if (t[0] == '}') return fail(P, "expected '}' alone on its line, got '%.*s%s'", SHOW(t));
    if (t[0] == '.')
      return fail(P, "expected an item or '}', got '%.*s%s' (missing '}' for the block "
                  "opened on line %d?)", SHOW(t), open);
    int line = lineno(P);
    if (fn(P, t, data) || push(P, lines, &line, sizeof line)) return -1;
  }
}

/* ---- segments ------------------------------------------------------------- */

static int parse_addr(parser_t *P, const char *w, uint32_t *addr) {
  uint64_t v;
  if (!strcmp(w, "auto")) {
    *addr = 0;
    return 0;
  }
  if (parse_u64(w, &v))
    return fail(P, "expected an address (a decimal or 0x hex number, or auto), got '%.*s%s'",
                SHOW(w));
  if (v == 0) return fail(P, "address 0 is not allowed: expected a non-zero address or auto");
  if (v > UINT32_MAX) return fail(P, "address %s is beyond the 32-bit address space", w);
  *addr = (uint32_t)v;
  return 0;
}

/* Define a segment that takes the block's bytes; line numbers of items too. */
static vta_segment_t *define(parser_t *P, const char *name, vta_seg_kind_t kind,
                             uint32_t addr, bytes_t *data, bytes_t *lines, int line) {
  vta_segment_t *s = vtap_new_segment(P->p, name, kind, addr, data->d, (uint32_t)data->n,
                                      P->err);
  data->d = NULL;
  if (!s) {
    if (lines) free(lines->d);
    relay(P, line);
    return NULL;
  }
  s->line = line;
  if (lines) s->lines = (int *)lines->d; /* malloc'd memory suits any type */
  return s;
}

static int read_zero(parser_t *P, char *s, bytes_t *b) {
  uint32_t size;
  if (parse_u32(P, word(&s), "a size in bytes after 'zero'", &size) ||
      no_more(P, s, "'zero SIZE'"))
    return -1;
  if (size > VTA_SEGMENT_MAX_BYTES)
    return fail(P, "size %u is more than the 1 GiB limit of a segment", size);
  b->d = calloc(size ? size : 1, 1);
  b->n = b->cap = size;
  return b->d ? 0 : oom(P);
}

static int do_data(parser_t *P, char *s) {
  int line = lineno(P);
  char *name = word(&s), *at = word(&s), *how = word(&s), *path = NULL;
  uint32_t addr;
  if (!how)
    return fail(P, "expected '.data NAME ADDR zero SIZE', '.data NAME ADDR file PATH' or "
                "'.data NAME ADDR {'");
  if (parse_addr(P, at, &addr)) return -1;
  bytes_t b = {0};
  int rc;
  if (!strcmp(how, "zero")) {
    rc = read_zero(P, s, &b);
  } else if (!strcmp(how, "file")) {
    rc = read_file_arg(P, s, &b, &path);
  } else if (!strcmp(how, "{")) {
    rc = read_bytes_block(P, s, &b);
  } else {
    rc = fail(P, "expected 'zero', 'file' or '{' after the address, got '%.*s%s'", SHOW(how));
  }
  if (rc) {
    free(b.d);
    return -1;
  }
  vta_segment_t *seg = define(P, name, VTA_SEG_DATA, addr, &b, NULL, line);
  if (!seg) return -1;
  if (path && !(seg->file = strdup(path))) return oom(P);
  return 0;
}

static int do_items(parser_t *P, char *s, vta_seg_kind_t kind) {
  int line = lineno(P);
  const char *d = kind == VTA_SEG_UOP ? ".uop" : ".insn";
  char *name = word(&s), *at = word(&s), *brace = word(&s);
  uint32_t addr;
  if (!brace || strcmp(brace, "{"))
    return fail(P, "expected '%s NAME ADDR {' with the items on the following lines", d);
  if (parse_addr(P, at, &addr) || no_more(P, s, "the items on the lines after '{'")) return -1;
  bytes_t data = {0}, lines = {0};
  if (read_items(P, kind == VTA_SEG_UOP ? uop_item : insn_item, &data, &lines)) {
    free(data.d);
    free(lines.d);
    return -1;
  }
  return define(P, name, kind, addr, &data, &lines, line) ? 0 : -1;
}

static int do_uop(parser_t *P, char *s) { return do_items(P, s, VTA_SEG_UOP); }
static int do_insn(parser_t *P, char *s) { return do_items(P, s, VTA_SEG_INSN); }

/* ---- header directives ---------------------------------------------------- */

static int do_version(parser_t *P, char *s) {
  if (P->version_line)
    return fail(P, "duplicate .version (the first is on line %d)", P->version_line);
  char *v = word(&s);
  uint64_t n;
  if (!v || parse_u64(v, &n)) return fail(P, "expected '.version 1'");
  if (n != VTA_TRACE_VERSION)
    return fail(P, "format version %s is not supported: this vtasim reads version %d%s", v,
                VTA_TRACE_VERSION, n > VTA_TRACE_VERSION ? " (a newer vtasim wrote it)" : "");
  P->version_line = lineno(P);
  return no_more(P, s, "'.version 1'");
}

static int do_config(parser_t *P, char *s) {
  if (P->config_line)
    return fail(P, "duplicate .config (the first is on line %d)", P->config_line);
  if (P->set_line || P->frozen)
    return fail(P, ".config must come before any .set and before the first segment, .run "
                "or .expect");
  char *arg = word(&s);
  if (!arg)
    return fail(P, "expected '.config default' or '.config PATH' (a vta_config.json)");
  if (no_more(P, s, "one argument (paths cannot contain blanks)")) return -1;
  P->config_line = lineno(P);
  vta_config_t c;
  vta_config_default(&c);
  if (strcmp(arg, "default")) {
    char *path = resolve(P, arg);
    if (!path) return oom(P);
    int rc = vta_config_load_json(&c, path, P->err);
    free(path);
    if (rc) return relay(P, lineno(P));
  }
  P->p->cfg = c;
  return 0;
}

static int set_word(parser_t *P, char *dst, size_t cap, const char *key, const char *val) {
  if (!vtap_valid_word(val) || strlen(val) >= cap)
    return fail(P, "%s: expected one word of at most %zu printable characters", key, cap - 1);
  snprintf(dst, cap, "%s", val);
  return 0;
}

static int do_set(parser_t *P, char *s) {
  if (P->frozen)
    return fail(P, ".set must come before the first segment, .run or .expect");
  char *key = word(&s), *val = word(&s);
  int64_t v;
  if (!val) return fail(P, "expected '.set KEY VALUE', e.g. '.set LOG_BLOCK 4'");
  if (no_more(P, s, "'.set KEY VALUE'")) return -1;
  P->set_line = lineno(P);
  vta_config_t *c = &P->p->cfg;
  if (!strcmp(key, "TARGET")) return set_word(P, c->target, sizeof c->target, key, val);
  if (!strcmp(key, "HW_VER")) return set_word(P, c->hw_ver, sizeof c->hw_ver, key, val);
  if (parse_i64(val, &v) || v < LONG_MIN || v > LONG_MAX)
    return fail(P, "%s: expected an integer, got '%.*s%s'", key, SHOW(val));
  return vta_config_set(c, key, (long)v, P->err) ? relay(P, lineno(P)) : 0;
}

/* The configuration is fixed from the first segment on: micro-ops are
 * encoded, and symbols scaled, with it. */
static int freeze(parser_t *P) {
  if (P->frozen) return 0;
  P->frozen = 1;
  if (!vta_config_derive(&P->p->cfg, P->err)) return 0;
  vta_err_prefix(P->err, "the configuration set up to here is invalid: ");
  return relay(P, P->set_line ? P->set_line : P->config_line ? P->config_line : 1);
}

static int do_meta(parser_t *P, char *s) {
  char *key = word(&s);
  if (!key) return fail(P, "expected '.meta KEY VALUE'");
  return vta_program_add_meta(P->p, key, skip_space(s), P->err) ? relay(P, lineno(P)) : 0;
}

/* ---- runs and expectations ------------------------------------------------ */

static int do_run(parser_t *P, char *s) {
  char *name = word(&s), *n = word(&s);
  uint32_t count = 0;
  if (!name) return fail(P, "expected '.run SEGMENT [COUNT]'");
  if (n && parse_u32(P, n, "an instruction count", &count)) return -1;
  if (n && count == 0)
    return fail(P, "expected a count of at least 1 (leave it out to run every instruction)");
  if (no_more(P, s, "'.run SEGMENT [COUNT]'")) return -1;
  if (vta_program_add_run(P->p, name, count, P->err)) return relay(P, lineno(P));
  P->p->runs[P->p->nruns - 1].line = lineno(P);
  return 0;
}

typedef struct {
  char seg[VTA_NAME_LEN];
  uint32_t off, end;
  int has_end;
} region_t;

/* SEGMENT, SEGMENT[OFF] or SEGMENT[OFF:END] */
static int parse_region(parser_t *P, const char *w, region_t *r) {
  const char *br = strchr(w, '[');
  size_t n = br ? (size_t)(br - w) : strlen(w);
  memset(r, 0, sizeof *r);
  if (n == 0 || n >= VTA_NAME_LEN) goto bad;
  memcpy(r->seg, w, n);
  if (!br) return 0;
  char inner[64];
  size_t k = strlen(br + 1);
  if (k < 2 || br[k] != ']' || k - 1 >= sizeof inner) goto bad;
  memcpy(inner, br + 1, k - 1);
  inner[k - 1] = '\0';
  char *colon = strchr(inner, ':');
  if (colon) *colon = '\0';
  uint64_t off, end = 0;
  if (parse_u64(inner, &off) || (colon && parse_u64(colon + 1, &end))) goto bad;
  if (off > UINT32_MAX || end > UINT32_MAX)
    return fail(P, "region '%s' lies beyond the 32-bit address space", w);
  if (colon && end <= off) return fail(P, "region '%s' is empty (END must exceed OFF)", w);
  r->off = (uint32_t)off;
  r->end = (uint32_t)end;
  r->has_end = colon != NULL;
  return 0;
bad:
  return fail(P, "bad region '%.*s%s': expected SEGMENT, SEGMENT[OFF] or SEGMENT[OFF:END]",
              SHOW(w));
}

static int expect_bytes(parser_t *P, const region_t *r, bytes_t *b, const char *path,
                        int line) {
  if (r->has_end && b->n != (size_t)(r->end - r->off))
    return fail_at(P, line, "region %s[%u:%u] is %u bytes, but %zu bytes are given", r->seg,
                   r->off, r->end, r->end - r->off, b->n);
  if (vta_program_add_expect_bytes(P->p, r->seg, r->off, b->d, (uint32_t)b->n, P->err))
    return relay(P, line);
  vta_expect_t *e = &P->p->expects[P->p->nexpects - 1];
  e->line = line;
  if (path && !(e->file = strdup(path))) return oom(P);
  return 0;
}

static int parse_sha(parser_t *P, const char *w, uint8_t out[32]) {
  if (!w || strlen(w) != 64)
    return fail(P, "expected a SHA-256 of 64 hex digits after 'sha256'");
  for (int i = 0; i < 64; i++)
    if (!isxdigit((unsigned char)w[i]))
      return fail(P, "bad SHA-256 '%s': expected 64 hex digits", w);
  for (int i = 0; i < 32; i++) out[i] = (uint8_t)(hexval(w[2 * i]) << 4 | hexval(w[2 * i + 1]));
  return 0;
}

/* Without END the region runs to the end of a segment that may be defined
 * further down, so the size is settled after the first pass. */
static int expect_sha(parser_t *P, const region_t *r, char *s, int line) {
  uint8_t sha[32];
  if (parse_sha(P, word(&s), sha) || no_more(P, s, "'sha256 HEX'")) return -1;
  uint32_t size = r->has_end ? r->end - r->off : 1;
  if (vta_program_add_expect_sha256(P->p, r->seg, r->off, size, sha, P->err))
    return relay(P, line);
  P->p->expects[P->p->nexpects - 1].line = line;
  if (r->has_end) return 0;
  int *t = realloc(P->to_end, (size_t)(P->nto_end + 1) * sizeof *t);
  if (!t) return oom(P);
  P->to_end = t;
  t[P->nto_end++] = P->p->nexpects - 1;
  return 0;
}

static int do_expect(parser_t *P, char *s) {
  int line = lineno(P);
  char *where = word(&s), *how = word(&s), *path = NULL;
  region_t r;
  if (!how)
    return fail(P, "expected '.expect SEGMENT[OFF] {', '.expect SEGMENT[OFF] file PATH' or "
                "'.expect SEGMENT[OFF:END] sha256 HEX'");
  if (parse_region(P, where, &r)) return -1;
  if (!strcmp(how, "sha256")) return expect_sha(P, &r, s, line);
  bytes_t b = {0};
  int rc;
  if (!strcmp(how, "{")) {
    rc = read_bytes_block(P, s, &b);
  } else if (!strcmp(how, "file")) {
    rc = read_file_arg(P, s, &b, &path);
  } else {
    rc = fail(P, "expected '{', 'file' or 'sha256' after the region, got '%.*s%s'", SHOW(how));
  }
  if (!rc) rc = expect_bytes(P, &r, &b, path, line);
  free(b.d);
  return rc;
}

static int do_expect_counter(parser_t *P, char *s) {
  char *name = word(&s), *v = word(&s);
  uint64_t value;
  if (!v || parse_u64(v, &value))
    return fail(P, "expected '.expect-counter NAME VALUE' with a non-negative VALUE");
  if (no_more(P, s, "'.expect-counter NAME VALUE'")) return -1;
  if (vta_program_add_expect_counter(P->p, name, value, P->err)) return relay(P, lineno(P));
  P->p->expects[P->p->nexpects - 1].line = lineno(P);
  return 0;
}

/* ---- the two passes ------------------------------------------------------- */

typedef int (*directive_fn)(parser_t *P, char *rest);

static const struct {
  const char *name;
  directive_fn fn;
  int freezes; /* needs the final configuration */
} directives[] = {
    {".version", do_version, 0}, {".config", do_config, 0},
    {".set", do_set, 0},         {".meta", do_meta, 0},
    {".data", do_data, 1},       {".uop", do_uop, 1},
    {".insn", do_insn, 1},       {".run", do_run, 1},
    {".expect", do_expect, 1},   {".expect-counter", do_expect_counter, 1},
};

static int directive(parser_t *P, char *s) {
  char *d = word(&s);
  if (!d) return 0;
  for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++) {
    if (strcmp(d, directives[i].name)) continue;
    if (!P->version_line && directives[i].fn != do_version)
      return fail(P, "expected '.version 1' as the first directive, got %s", d);
    if (directives[i].freezes && freeze(P)) return -1;
    return directives[i].fn(P, s);
  }
  if (d[0] == '.')
    return fail(P, "unknown directive '%.*s%s' (expected .version, .config, .set, .meta, "
                ".data, .uop, .insn, .run, .expect or .expect-counter)", SHOW(d));
  return fail(P, "expected a directive (a word starting with '.'), got '%.*s%s'", SHOW(d));
}

static int first_pass(parser_t *P) {
  for (P->ln = 0; P->ln < P->nlines; P->ln++)
    if (directive(P, P->lines[P->ln])) return -1;
  if (!P->version_line) return fail_at(P, 1, "expected '.version 1' (no directive found)");
  return freeze(P);
}

static int settle_regions(parser_t *P) {
  for (int i = 0; i < P->nto_end; i++) {
    vta_expect_t *e = &P->p->expects[P->to_end[i]];
    const vta_segment_t *s = vta_program_find(P->p, e->segment);
    if (!s)
      return fail_at(P, e->line, "expectation names segment '%s', which is not defined",
                     e->segment);
    if (e->offset >= s->size)
      return fail_at(P, e->line, "offset %u is at or beyond the end of segment '%s' (%u bytes)",
                     e->offset, s->name, s->size);
    e->size = s->size - e->offset;
  }
  return 0;
}

/* `@name[+K]` in dram_base: the segment's address in elements of the
 * instruction's memory type, as the TVM runtime computes dram_base. */
static int resolve_sym(void *ctx, const char *name, int64_t addend, int mem_type,
                       const char *field, uint64_t *value, vta_err *err) {
  parser_t *P = ctx;
  if (mem_type < 0 || strcmp(field, "dram_base"))
    return vta_errf(err, VTA_EINPUT, "field '%s': a segment symbol '@%s' may only stand in "
                    "dram_base of a LOAD or STORE", field, name);
  const vta_segment_t *s = vta_program_find(P->p, name);
  if (!s) return vta_errf(err, VTA_EINPUT, "dram_base: unknown segment '@%s'", name);
  uint32_t eb = vta_mem_elem_bytes(&P->p->cfg, (uint32_t)mem_type);
  if (eb == 0)
    return vta_errf(err, VTA_EINPUT, "dram_base: memory type %d has no element size", mem_type);
  if (s->addr % eb)
    return vta_errf(err, VTA_EINPUT, "dram_base=@%s: segment '%s' at 0x%08x is not aligned "
                    "to the %u-byte %s elements that dram_base counts", name, name, s->addr,
                    eb, vta_mem_name((uint32_t)mem_type));
  int64_t v = (int64_t)(s->addr / eb) + addend;
  if (v < 0 || v > (int64_t)UINT32_MAX)
    return vta_errf(err, VTA_EINPUT, "dram_base=@%s%+lld gives %lld, outside 0..4294967295",
                    name, (long long)addend, (long long)v);
  *value = (uint64_t)v;
  return 0;
}

static int assemble(parser_t *P) {
  for (int k = 0; k < P->p->nsegs; k++) {
    vta_segment_t *s = &P->p->segs[k];
    if (s->kind != VTA_SEG_INSN || !s->lines) continue;
    for (uint32_t i = 0; i < s->size / VTA_INS_BYTES; i++) {
      int line = s->lines[i];
      vta_insn_t in;
      if (vta_insn_parse(skip_space(P->lines[line - 1]), &in, resolve_sym, P, P->err) ||
          vta_insn_encode(&P->p->cfg, &in, s->data + (size_t)i * VTA_INS_BYTES, P->err))
        return relay(P, line);
    }
  }
  return 0;
}

/* ---- set-up --------------------------------------------------------------- */

/* Cut line [s, end) at its comment and trailing blanks (memchr: the
 * bundles are megabytes of short lines). */
static void cut_line(char *s, char *end) {
  char *hash = memchr(s, '#', (size_t)(end - s));
  if (hash) end = hash;
  while (end > s && isspace((unsigned char)end[-1])) end--;
  *end = '\0';
}

static int split_lines(parser_t *P, const char *text, size_t len) {
  if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
    return fail_at(P, 1, "the file starts with a UTF-8 byte-order mark (bytes EF BB BF), which "
                   "a bundle may not have: save it without one");
  const char *nul = memchr(text, '\0', len);
  if (nul) {
    int line = 1;
    for (const char *c = text; c < nul; c++) line += *c == '\n';
    return fail_at(P, line, "NUL byte in the text (expected a text bundle or the binary "
                   "container)");
  }
  size_t n = 1;
  for (const char *c = text, *e = text + len; (c = memchr(c, '\n', (size_t)(e - c))); c++) n++;
  if (n > INT_MAX / 2) return fail_at(P, 1, "more than %d lines", INT_MAX / 2);
  P->buf = malloc(len + 1);
  P->lines = malloc(n * sizeof *P->lines);
  if (!P->buf || !P->lines) return oom(P);
  memcpy(P->buf, text, len);
  P->buf[len] = '\0';
  char *s = P->buf, *e = P->buf + len;
  for (size_t i = 0; i < n; i++) {
    char *nl = memchr(s, '\n', (size_t)(e - s));
    char *end = nl ? nl : e;
    P->lines[i] = s;
    cut_line(s, end);
    s = nl ? nl + 1 : e;
  }
  P->nlines = (int)n;
  return 0;
}

static int start(parser_t *P, const char *text, size_t len) {
  const char *slash = strrchr(P->name, '/');
  P->p->source = strdup(P->name);
  if (!P->p->source) return oom(P);
  if (slash && !(P->dir = strndup(P->name, slash == P->name ? 1 : (size_t)(slash - P->name))))
    return oom(P);
  return split_lines(P, text, len);
}

int vta_program_parse(vta_program_t *p, const char *text, size_t len, const char *name,
                      vta_err *err) {
  vta_program_init(p);
  parser_t P = {.p = p, .err = err, .name = name ? name : "<text>"};
  int rc = start(&P, text, len) || first_pass(&P) || settle_regions(&P) || assemble(&P) ||
                   vta_program_validate(p, err)
               ? -1
               : 0;
  free(P.dir);
  free(P.buf);
  free(P.lines);
  free(P.to_end);
  if (rc) vta_program_free(p);
  return rc;
}
