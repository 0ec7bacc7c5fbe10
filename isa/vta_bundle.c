/*
 * vta_bundle.c - the binary container of a program bundle (layout in
 * docs/trace-format.md, "Binary container"): a magic, a version and
 * little-endian type-length-value records, closed by an END record that
 * carries a checksum of everything before it: XXH3-128 from version 2 on
 * (it runs at memory speed, so a large bundle loads about as fast as its
 * bytes can be copied), SHA-256 in version 1, which is still read.
 *
 * The reader trusts nothing: a first walk checks that the records tile the
 * file exactly and that the checksum holds, before any size read from the
 * file is used to allocate; a second walk decodes each record through a
 * cursor that cannot leave its record.  Errors name the file, the byte
 * offset and what was expected there.
 */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "vta_program.h"
#include "vta_program_int.h"
#include "vta_io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { REC_END = 0, REC_CONFIG = 1, REC_META = 2, REC_SEGMENT = 3, REC_RUN = 4,
       REC_EXPECT = 5, REC_TYPES };

static const char *const rec_names[REC_TYPES] = {"END", "CONFIG", "META", "SEGMENT", "RUN",
                                                 "EXPECT"};

#define HEADER_BYTES 12 /* magic, version */
#define REC_HEAD 8      /* type, length */
#define SEG_ZERO 1u     /* SEGMENT flag: all bytes zero, none stored */

/* ---- writing -------------------------------------------------------------- */

typedef struct {
  uint8_t *d;
  size_t n, cap;
  int oom;
} out_t;

static void put(out_t *o, const void *src, size_t k) {
  if (o->oom) return;
  if (o->n + k > o->cap) {
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < o->n + k) cap *= 2;
    uint8_t *d = realloc(o->d, cap);
    if (!d) {
      o->oom = 1;
      return;
    }
    o->d = d;
    o->cap = cap;
  }
  memcpy(o->d + o->n, src, k);
  o->n += k;
}

static void put_le(out_t *o, uint64_t v, int bytes) {
  uint8_t b[8];
  for (int i = 0; i < bytes; i++) b[i] = (uint8_t)(v >> (8 * i));
  put(o, b, (size_t)bytes);
}

static void put_u32(out_t *o, uint32_t v) { put_le(o, v, 4); }

static void put_str16(out_t *o, const char *s) {
  size_t n = strlen(s);
  put_le(o, n, 2);
  put(o, s, n);
}

/* Opens a record; rec_close patches in the payload length. */
static size_t rec_open(out_t *o, uint32_t type) {
  size_t at = o->n;
  put_u32(o, type);
  put_u32(o, 0);
  return at;
}

static void rec_close(out_t *o, size_t at) {
  if (o->oom) return;
  uint32_t len = (uint32_t)(o->n - at - REC_HEAD);
  for (int i = 0; i < 4; i++) o->d[at + 4 + i] = (uint8_t)(len >> (8 * i));
}

static void put_config(out_t *o, const vta_config_t *c) {
  size_t at = rec_open(o, REC_CONFIG);
  for (int i = 0; vta_config_keys[i]; i++) {
    long v = 0;
    vta_config_get(c, vta_config_keys[i], &v, NULL);
    put_u32(o, (uint32_t)v);
  }
  put_str16(o, c->target);
  put_str16(o, c->hw_ver);
  rec_close(o, at);
}

static void put_segment(out_t *o, const vta_segment_t *s) {
  int zero = 1;
  for (uint32_t i = 0; i < s->size && zero; i++) zero = s->data[i] == 0;
  size_t at = rec_open(o, REC_SEGMENT);
  put_u32(o, (uint32_t)s->kind);
  put_u32(o, s->addr);
  put_u32(o, s->size);
  put_u32(o, zero ? SEG_ZERO : 0);
  put_str16(o, s->name);
  if (!zero) put(o, s->data, s->size);
  rec_close(o, at);
}

static void put_expect(out_t *o, const vta_expect_t *e) {
  size_t at = rec_open(o, REC_EXPECT);
  put_u32(o, (uint32_t)e->kind);
  if (e->kind == VTA_EXPECT_COUNTER) {
    put_str16(o, e->counter);
    put_le(o, e->value, 8);
  } else {
    put_str16(o, e->segment);
    put_u32(o, e->offset);
    put_u32(o, e->size);
    if (e->kind == VTA_EXPECT_BYTES) put(o, e->bytes, e->size);
    else put(o, e->sha256, 32);
  }
  rec_close(o, at);
}

static void put_program(out_t *o, const vta_program_t *p) {
  put(o, vtap_magic, sizeof vtap_magic);
  put_u32(o, VTA_BUNDLE_VERSION);
  put_config(o, &p->cfg);
  for (int i = 0; i < p->nmeta; i++) {
    size_t at = rec_open(o, REC_META);
    put_str16(o, p->meta[i].key);
    put_le(o, strlen(p->meta[i].value), 4);
    put(o, p->meta[i].value, strlen(p->meta[i].value));
    rec_close(o, at);
  }
  for (int i = 0; i < p->nsegs; i++) put_segment(o, &p->segs[i]);
  for (int i = 0; i < p->nruns; i++) {
    size_t at = rec_open(o, REC_RUN);
    put_u32(o, p->runs[i].count);
    put_str16(o, p->runs[i].segment);
    rec_close(o, at);
  }
  for (int i = 0; i < p->nexpects; i++) put_expect(o, &p->expects[i]);
  uint8_t sum[16];
  if (!o->oom) vta_xxh128(o->d, o->n, sum);
  size_t at = rec_open(o, REC_END);
  put(o, sum, sizeof sum);
  rec_close(o, at);
}

int vta_program_to_binary(const vta_program_t *p, uint8_t **data, size_t *len, vta_err *err) {
  *data = NULL;
  *len = 0;
  if (vta_program_validate(p, err)) return -1;
  out_t o = {0};
  put_program(&o, p);
  if (o.oom) {
    free(o.d);
    return vta_errf(err, VTA_ENOMEM, "out of memory writing the binary container");
  }
  *data = o.d;
  *len = o.n;
  return 0;
}

int vta_program_write_binary(const vta_program_t *p, FILE *f, vta_err *err) {
  uint8_t *d;
  size_t n;
  if (vta_program_to_binary(p, &d, &n, err)) return -1;
  size_t put_n = fwrite(d, 1, n, f);
  free(d);
  if (put_n != n || fflush(f))
    return vta_errf(err, VTA_EIO, "cannot write the binary container: %s", strerror(errno));
  return 0;
}

/* ---- a bundle file: text or binary, through the output policy of vta_io.h -- */

/* A bundle no reader would accept is not written: what gen, asm, dis and
 * the network generator write obeys the size limit of every input (VTA_FILE_MAX_BYTES), the one
 * vtasim run applies. */
static int too_big(const char *path, uint64_t n, const char *form, vta_err *e) {
  return vta_errf(e, VTA_EINPUT, "%s: the %s bundle would be %llu bytes, more than the "
                  VTA_FILE_MAX_TEXT " limit of every input file (vtasim run could not read "
                  "it): choose a smaller workload", path && strcmp(path, "-") ? path : "stdout",
                  form, (unsigned long long)n);
}

int vta_program_save(const vta_program_t *p, const char *path, int binary, vta_err *e) {
  uint8_t *bin;
  size_t n;
  if (vta_program_to_binary(p, &bin, &n, e)) return -1;
  /* the text form holds the same bytes, in hexadecimal: larger still */
  if (n > VTA_FILE_MAX_BYTES) {
    free(bin);
    return too_big(path, n, binary ? "binary" : "text", e);
  }
  vta_out_t o;
  if (vta_out_open(&o, path, "", binary, e)) {
    free(bin);
    return -1;
  }
  int bad = 0;
  if (binary) fwrite(bin, 1, n, o.f); /* a short write leaves ferror set */
  else bad = vta_program_write_text(p, o.f, e);
  free(bin);
  if (bad) {
    vta_out_close(&o, 0, NULL);
    return vta_err_prefix(e, "%s: ", path && strcmp(path, "-") ? path : "stdout");
  }
  off_t at = o.tmp ? ftello(o.f) : -1; /* a regular file's size so far */
  if (at > (off_t)VTA_FILE_MAX_BYTES) {
    vta_out_close(&o, 0, NULL);
    return too_big(path, (uint64_t)at, "text", e);
  }
  return vta_out_close(&o, 1, e);
}

/* ---- reading: the record walk --------------------------------------------- */

typedef struct {
  const uint8_t *d;
  size_t len;
  const char *name;
  vta_err *err;
  uint32_t version; /* the header's, once check_header accepted it */
} in_t;

static int bad(const in_t *in, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(const in_t *in, size_t off, const char *fmt, ...) {
  char msg[VTA_ERR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  vta_errf(in->err, VTA_EINPUT, "%s: byte offset %zu: %s", in->name, off, msg);
  return -1; /* visibly constant, so the compiler sees every failure path */
}

static uint64_t le(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static int check_header(in_t *in) {
  size_t n = in->len < sizeof vtap_magic ? in->len : sizeof vtap_magic;
  if (n && memcmp(in->d, vtap_magic, n))
    return bad(in, 0, "expected the magic \"VTASIMB\\0\" of a vtasim binary container");
  if (n < sizeof vtap_magic)
    return bad(in, in->len, "truncated: expected the 8-byte magic \"VTASIMB\\0\"");
  if (in->len < HEADER_BYTES)
    return bad(in, in->len, "truncated: expected the 4-byte format version at offset 8");
  uint32_t v = (uint32_t)le(in->d + 8, 4);
  if (v == 0 || v > VTA_BUNDLE_VERSION)
    return bad(in, 8, "format version %u is not supported: this vtasim reads versions 1 to "
               "%d%s", v, VTA_BUNDLE_VERSION,
               v > VTA_BUNDLE_VERSION ? " (a newer vtasim wrote it)" : "");
  in->version = v;
  return 0;
}

/* One record header at `at`: a known type whose payload lies inside the file. */
static int check_record(const in_t *in, size_t at, uint32_t *type, uint32_t *len) {
  size_t left = in->len - at;
  if (left == 0) return bad(in, at, "truncated: expected another record or the END record");
  if (left < REC_HEAD)
    return bad(in, at, "truncated: expected an 8-byte record header (type, length), "
               "found %zu bytes", left);
  *type = (uint32_t)le(in->d + at, 4);
  *len = (uint32_t)le(in->d + at + 4, 4);
  if (*type >= REC_TYPES)
    return bad(in, at, "unknown record type %u (expected 0..%d)", *type, REC_TYPES - 1);
  if (*len > left - REC_HEAD)
    return bad(in, at + 4, "truncated: the %s record declares %u payload bytes but only %zu "
               "remain", rec_names[*type], *len, left - REC_HEAD);
  return 0;
}

/* The END record: the checksum of the file's bytes before it, of the kind
 * the header's version names. */
static int check_end(const in_t *in, size_t at, uint32_t len) {
  const char *kind = in->version == 1 ? "SHA-256" : "XXH3-128";
  uint32_t want = in->version == 1 ? 32 : 16;
  if (len != want)
    return bad(in, at + 4, "the END record of a version %u container must hold a %u-byte "
               "%s, not %u bytes", in->version, want, kind, len);
  if (at + REC_HEAD + want != in->len)
    return bad(in, at + REC_HEAD + want, "%zu unexpected bytes after the END record",
               in->len - at - REC_HEAD - want);
  uint8_t sum[32];
  if (in->version == 1) vta_sha256(in->d, at, sum);
  else vta_xxh128(in->d, at, sum);
  if (memcmp(sum, in->d + at + REC_HEAD, want))
    return bad(in, at + REC_HEAD, "checksum mismatch: the %s in the END record does "
               "not match the bytes before it (the file is corrupted)", kind);
  return 0;
}

/* First walk: the records tile the file, CONFIG comes first, END last and
 * the checksum holds.  Nothing is allocated from file contents before this. */
static int walk(in_t *in) {
  if (check_header(in)) return -1;
  size_t at = HEADER_BYTES;
  for (int i = 0;; i++) {
    uint32_t type = 0, len = 0;
    if (check_record(in, at, &type, &len)) return -1;
    if ((i == 0) != (type == REC_CONFIG))
      return bad(in, at, i == 0 ? "expected the CONFIG record first, found %s"
                                : "a second %s record (only one is allowed)", rec_names[type]);
    if (type == REC_END) return check_end(in, at, len);
    at += REC_HEAD + len;
  }
}

/* ---- reading: record contents --------------------------------------------- */

typedef struct {
  const in_t *in;
  const char *rec; /* record name, in messages */
  size_t pos, end; /* absolute offsets; the cursor never passes end */
} cur_t;

static int short_rec(cur_t *c, const char *field, size_t need) {
  return bad(c->in, c->pos, "the %s record ends before its %s (expected %zu bytes, %zu left)",
             c->rec, field, need, c->end - c->pos);
}

static int take(cur_t *c, const char *field, size_t n, const uint8_t **out) {
  *out = NULL;
  if (c->end - c->pos < n) return short_rec(c, field, n);
  *out = c->in->d + c->pos;
  c->pos += n;
  return 0;
}

static int get_u32(cur_t *c, const char *field, uint32_t *v) {
  const uint8_t *p;
  if (take(c, field, 4, &p)) return -1;
  *v = (uint32_t)le(p, 4);
  return 0;
}

static int get_u64(cur_t *c, const char *field, uint64_t *v) {
  const uint8_t *p;
  if (take(c, field, 8, &p)) return -1;
  *v = le(p, 8);
  return 0;
}

/* A u16-length string into a NUL-terminated buffer of `cap` bytes. */
static int get_str16(cur_t *c, const char *field, char *out, size_t cap) {
  const uint8_t *p;
  size_t at = c->pos;
  if (take(c, field, 2, &p)) return -1;
  size_t n = (size_t)le(p, 2);
  if (n >= cap) return bad(c->in, at, "%s is %zu bytes, at most %zu allowed", field, n, cap - 1);
  if (take(c, field, n, &p)) return -1;
  if (memchr(p, 0, n)) return bad(c->in, at + 2, "%s contains a NUL byte", field);
  memcpy(out, p, n);
  out[n] = '\0';
  return 0;
}

static int done(cur_t *c) {
  if (c->pos == c->end) return 0;
  return bad(c->in, c->pos, "%zu unexpected bytes at the end of the %s record",
             c->end - c->pos, c->rec);
}

/* Errors from the program model get the record's offset in front. */
static int at_rec(const cur_t *c, size_t at) {
  return vta_err_prefix(c->in->err, "%s: byte offset %zu: ", c->in->name, at);
}

static int read_config(cur_t *c, vta_program_t *p) {
  size_t at = c->pos;
  vta_config_t cfg;
  vta_config_default(&cfg);
  for (int i = 0; vta_config_keys[i]; i++) {
    uint32_t v;
    size_t field = c->pos;
    if (get_u32(c, vta_config_keys[i], &v)) return -1;
    if (v > 64) return bad(c->in, field, "%s = %u: expected a small non-negative integer",
                           vta_config_keys[i], v);
    if (vta_config_set(&cfg, vta_config_keys[i], (long)v, c->in->err)) return at_rec(c, field);
  }
  if (get_str16(c, "TARGET", cfg.target, sizeof cfg.target) ||
      get_str16(c, "HW_VER", cfg.hw_ver, sizeof cfg.hw_ver) || done(c))
    return -1;
  if (!vtap_valid_word(cfg.target) || !vtap_valid_word(cfg.hw_ver))
    return bad(c->in, at, "TARGET and HW_VER must each be one printable word");
  if (vta_config_derive(&cfg, c->in->err)) return at_rec(c, at);
  p->cfg = cfg;
  return 0;
}

static int read_meta(cur_t *c, vta_program_t *p) {
  size_t at = c->pos;
  char key[VTA_NAME_LEN];
  uint32_t n;
  const uint8_t *v;
  if (get_str16(c, "meta key", key, sizeof key) || get_u32(c, "meta value length", &n) ||
      take(c, "meta value", n, &v) || done(c))
    return -1;
  char *value = malloc((size_t)n + 1);
  if (!value) return vta_errf(c->in->err, VTA_ENOMEM, "out of memory");
  memcpy(value, v, n);
  value[n] = '\0';
  int rc = 0;
  if (memchr(v, 0, n)) rc = bad(c->in, at, "meta value contains a NUL byte");
  else if (vta_program_add_meta(p, key, value, c->in->err)) rc = at_rec(c, at);
  free(value);
  return rc;
}

/* The buffer a stored segment is copied into.  A large one asks for huge
 * pages where the kernel offers them on request (Linux's transparent huge
 * pages in "madvise" mode): the copy is the loader's main cost, and most of
 * a copy into new 4 KiB pages is the kernel faulting and zeroing them one
 * by one (about 3x slower than the copy itself on a 17 MB bundle).  Only the
 * 2 MiB-aligned interior is advised; a refusal changes nothing. */
#define HUGE_PAGE (2u << 20)
static uint8_t *segment_buffer(uint32_t size) {
  uint8_t *d = malloc(size ? size : 1);
#ifdef MADV_HUGEPAGE
  if (d && size >= 2 * HUGE_PAGE) {
    uintptr_t lo = ((uintptr_t)d + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)d + size) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
  }
#endif
  return d;
}

static int read_segment(cur_t *c, vta_program_t *p) {
  size_t at = c->pos;
  uint32_t kind, addr, size, flags;
  char name[VTA_NAME_LEN];
  if (get_u32(c, "segment kind", &kind) || get_u32(c, "segment address", &addr) ||
      get_u32(c, "segment size", &size) || get_u32(c, "segment flags", &flags) ||
      get_str16(c, "segment name", name, sizeof name))
    return -1;
  if (flags & ~SEG_ZERO) return bad(c->in, at + 12, "unknown segment flags 0x%x", flags);
  if (kind > VTA_SEG_INSN)
    return bad(c->in, at, "unknown segment kind %u (expected data 0, uop 1 or insn 2)", kind);
  /* placement is checked before the size is trusted for an allocation */
  if (vtap_check_shape(name, (vta_seg_kind_t)kind, addr, size, c->in->err) ||
      vtap_check_clash(p, name, addr, size, c->in->err))
    return at_rec(c, at);
  const uint8_t *src = NULL;
  if (!(flags & SEG_ZERO) && take(c, "segment bytes", size, &src)) return -1;
  if (done(c)) return -1;
  uint8_t *data = src ? segment_buffer(size) : calloc(size, 1);
  if (!data) return vta_errf(c->in->err, VTA_ENOMEM, "out of memory");
  if (src) memcpy(data, src, size);
  return vtap_new_segment(p, name, (vta_seg_kind_t)kind, addr, data, size, c->in->err)
             ? 0 : at_rec(c, at);
}

static int read_run(cur_t *c, vta_program_t *p) {
  size_t at = c->pos;
  uint32_t count;
  char seg[VTA_NAME_LEN];
  if (get_u32(c, "run count", &count) || get_str16(c, "run segment", seg, sizeof seg) ||
      done(c))
    return -1;
  return vta_program_add_run(p, seg, count, c->in->err) ? at_rec(c, at) : 0;
}

static int read_expect(cur_t *c, vta_program_t *p) {
  size_t at = c->pos;
  uint32_t kind, off, size;
  char name[VTA_NAME_LEN];
  const uint8_t *b;
  if (get_u32(c, "expectation kind", &kind)) return -1;
  if (kind == VTA_EXPECT_COUNTER) {
    uint64_t v;
    if (get_str16(c, "counter name", name, sizeof name) || get_u64(c, "counter value", &v) ||
        done(c))
      return -1;
    return vta_program_add_expect_counter(p, name, v, c->in->err) ? at_rec(c, at) : 0;
  }
  if (kind != VTA_EXPECT_BYTES && kind != VTA_EXPECT_SHA256)
    return bad(c->in, at, "unknown expectation kind %u (expected bytes 0, sha256 1 or "
               "counter 2)", kind);
  if (get_str16(c, "expectation segment", name, sizeof name) ||
      get_u32(c, "expectation offset", &off) || get_u32(c, "expectation size", &size))
    return -1;
  int rc;
  if (kind == VTA_EXPECT_SHA256) {
    if (take(c, "SHA-256", 32, &b) || done(c)) return -1;
    rc = vta_program_add_expect_sha256(p, name, off, size, b, c->in->err);
  } else {
    if (take(c, "expected bytes", size, &b) || done(c)) return -1;
    rc = vta_program_add_expect_bytes(p, name, off, b, size, c->in->err);
  }
  return rc ? at_rec(c, at) : 0;
}

typedef int (*rec_fn)(cur_t *c, vta_program_t *p);

static int read_records(const in_t *in, vta_program_t *p) {
  static const rec_fn fns[REC_TYPES] = {NULL, read_config, read_meta, read_segment, read_run,
                                        read_expect};
  size_t at = HEADER_BYTES;
  for (;;) {
    uint32_t type = (uint32_t)le(in->d + at, 4), len = (uint32_t)le(in->d + at + 4, 4);
    if (type == REC_END) return 0;
    cur_t c = {in, rec_names[type], at + REC_HEAD, at + REC_HEAD + len};
    if (fns[type](&c, p)) return -1;
    at = c.end;
  }
}

int vta_program_read_binary(vta_program_t *p, const uint8_t *data, size_t len,
                            const char *name, vta_err *err) {
  vta_program_init(p);
  in_t in = {data, len, name ? name : "<binary>", err, 0};
  if (!(p->source = strdup(in.name))) return vta_errf(err, VTA_ENOMEM, "out of memory");
  if (walk(&in) || read_records(&in, p) || vta_program_validate(p, err)) {
    vta_program_free(p);
    return -1;
  }
  return 0;
}
