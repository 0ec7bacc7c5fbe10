/*
 * vta_program.c - the in-memory program bundle: building it in code,
 * validating it, comparing two, and loading a file in either form.
 *
 * The text reader, the text writer and the binary container all add
 * segments and check programs through the functions here, so a rule such as
 * "segments must not overlap" is written once and worded the same whatever
 * form the program came from.
 */
#include "vta_program.h"
#include "vta_program_int.h"
#include "vta_io.h"

#include <ctype.h>
#include <nettle/sha2.h>
/* xxHash compiled in from Debian's header (libxxhash-dev): the hash is
 * inlined where it is used and programs need no extra library to link. */
#define XXH_INLINE_ALL
#include <xxhash.h>
#include <stdlib.h>
#include <string.h>

const uint8_t vtap_magic[8] = {'V', 'T', 'A', 'S', 'I', 'M', 'B', '\0'};

/* ---- names and small helpers ---------------------------------------------- */

int vtap_valid_name(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n >= VTA_NAME_LEN) return 0;
  if (!isalpha((unsigned char)s[0]) && s[0] != '_') return 0;
  for (size_t i = 1; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.') return 0;
  return 1;
}

int vtap_valid_meta_key(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n >= VTA_NAME_LEN) return 0;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i])) return 0;
  return 1;
}

/* Printable here means "survives a trip through one line of text": no
 * control character (tab excepted), no comment sign.  Bytes >= 0x80 pass so
 * that UTF-8 is kept. */
static int printable(unsigned char c) { return c == '\t' || (c >= 0x20 && c != 0x7f); }

int vtap_valid_meta_value(const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n; i++)
    if (!printable((unsigned char)s[i]) || s[i] == '#') return 0;
  /* the reader trims the value, so blanks at either end would not come back */
  return n == 0 || (!isspace((unsigned char)s[0]) && !isspace((unsigned char)s[n - 1]));
}

int vtap_valid_word(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!printable((unsigned char)*s) || isspace((unsigned char)*s) || *s == '#') return 0;
  return 1;
}

const char *vtap_kind_name(vta_seg_kind_t kind) {
  switch (kind) {
  case VTA_SEG_DATA: return "data";
  case VTA_SEG_UOP: return "uop";
  case VTA_SEG_INSN: return "insn";
  }
  return "?";
}

uint32_t vtap_item_bytes(vta_seg_kind_t kind) {
  return kind == VTA_SEG_INSN ? VTA_INS_BYTES : kind == VTA_SEG_UOP ? VTA_UOP_BYTES : 1;
}

void vtap_hex(const uint8_t *data, size_t n, char *out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = digits[data[i] >> 4];
    out[2 * i + 1] = digits[data[i] & 15];
  }
  out[2 * n] = '\0';
}

int vtap_where(const vta_program_t *p, int line, vta_err *err) {
  if (!p->source) return -1;
  if (line > 0) return vta_err_prefix(err, "%s:%d: ", p->source, line);
  return vta_err_prefix(err, "%s: ", p->source);
}

static int oom(vta_err *err) { return vta_errf(err, VTA_ENOMEM, "out of memory"); }

/* Room for one more element; arrays grow by one, their counts stay small. */
static void *grow(void *arr, int n, size_t elem) { return realloc(arr, (size_t)(n + 1) * elem); }

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* ---- life cycle ----------------------------------------------------------- */

void vta_program_init(vta_program_t *p) {
  memset(p, 0, sizeof *p);
  vta_config_default(&p->cfg);
}

void vta_program_free(vta_program_t *p) {
  if (!p) return;
  for (int i = 0; i < p->nsegs; i++) {
    free(p->segs[i].data);
    free(p->segs[i].file);
    free(p->segs[i].lines);
  }
  for (int i = 0; i < p->nexpects; i++) {
    free(p->expects[i].bytes);
    free(p->expects[i].file);
  }
  for (int i = 0; i < p->nmeta; i++) free(p->meta[i].value);
  free(p->segs);
  free(p->runs);
  free(p->expects);
  free(p->meta);
  free(p->source);
  vta_program_init(p); /* freeing twice is harmless */
}

vta_segment_t *vta_program_find(const vta_program_t *p, const char *name) {
  for (int i = 0; i < p->nsegs; i++)
    if (!strcmp(p->segs[i].name, name)) return &p->segs[i];
  return NULL;
}

void vta_program_fault_where(const vta_program_t *p, int run, vta_err *err) {
  if (!err || !p->source || run < 0 || run >= p->nruns) return;
  const vta_run_t *r = &p->runs[run];
  const vta_segment_t *g = vta_program_find(p, r->segment);
  if (g && g->lines && err->insn >= 0 && (uint64_t)err->insn < g->size / VTA_INS_BYTES &&
      g->lines[err->insn])
    vta_err_prefix(err, "%s:%d: ", p->source, g->lines[err->insn]);
  else if (r->line)
    vta_err_prefix(err, "%s:%d: ", p->source, r->line);
}

/* ---- segments ------------------------------------------------------------- */

static int bad_name(vta_err *err, const char *what, const char *name) {
  return vta_errf(err, VTA_EINPUT,
                  "bad %s name '%.80s': expected a letter or '_' then letters, digits, "
                  "'_' or '.', at most %d characters",
                  what, name, VTA_NAME_LEN - 1);
}

int vtap_check_shape(const char *name, vta_seg_kind_t kind, uint32_t addr, uint32_t size,
                     vta_err *err) {
  if (!vtap_valid_name(name)) return bad_name(err, "segment", name);
  if (kind != VTA_SEG_DATA && kind != VTA_SEG_UOP && kind != VTA_SEG_INSN)
    return vta_errf(err, VTA_EINPUT, "segment '%s' has unknown kind %d (expected data 0, "
                    "uop 1 or insn 2)", name, (int)kind);
  uint32_t item = vtap_item_bytes(kind);
  if (size == 0)
    return vta_errf(err, VTA_EINPUT, "segment '%s' is empty (expected at least one %s)",
                    name, kind == VTA_SEG_DATA ? "byte" : kind == VTA_SEG_UOP ? "micro-op"
                                                                             : "instruction");
  if (size > VTA_SEGMENT_MAX_BYTES)
    return vta_errf(err, VTA_EINPUT, "segment '%s' is %u bytes, more than the 1 GiB limit "
                    "of a segment", name, size);
  if (size % item)
    return vta_errf(err, VTA_EINPUT, "%s segment '%s' is %u bytes, not a multiple of %u "
                    "(the size of one %s)", vtap_kind_name(kind), name, size, item,
                    kind == VTA_SEG_UOP ? "micro-op" : "instruction");
  if (addr == 0)
    return vta_errf(err, VTA_EINPUT, "segment '%s' at address 0: addresses must be non-zero",
                    name);
  if (addr % item)
    return vta_errf(err, VTA_EINPUT, "%s segment '%s' at 0x%08x is not %u-byte aligned",
                    vtap_kind_name(kind), name, addr, item);
  if ((uint64_t)addr + size > 0x100000000ull)
    return vta_errf(err, VTA_EINPUT, "segment '%s' [0x%08x, 0x%09llx) does not fit in the "
                    "32-bit address space", name, addr,
                    (unsigned long long)addr + size);
  return 0;
}

static void on_line(char *buf, size_t len, int line) {
  if (line > 0) snprintf(buf, len, " (defined on line %d)", line);
  else buf[0] = '\0';
}

int vtap_check_clash(const vta_program_t *p, const char *name, uint32_t addr,
                     uint32_t size, vta_err *err) {
  char where[48];
  for (int i = 0; i < p->nsegs; i++) {
    const vta_segment_t *s = &p->segs[i];
    on_line(where, sizeof where, s->line);
    if (!strcmp(s->name, name))
      return vta_errf(err, VTA_EINPUT, "duplicate segment name '%s'%s", name, where);
    uint64_t a0 = addr, a1 = a0 + size, b0 = s->addr, b1 = b0 + s->size;
    if (a0 < b1 && b0 < a1)
      return vta_errf(err, VTA_EINPUT, "segment '%s' [0x%08llx, 0x%08llx) overlaps segment "
                      "'%s' [0x%08llx, 0x%08llx)%s", name, (unsigned long long)a0,
                      (unsigned long long)a1, s->name, (unsigned long long)b0,
                      (unsigned long long)b1, where);
  }
  return 0;
}

int vtap_auto_addr(const vta_program_t *p, uint32_t *addr, vta_err *err) {
  uint64_t next = VTAP_AUTO_BASE;
  for (int i = 0; i < p->nsegs; i++) {
    uint64_t end = (uint64_t)p->segs[i].addr + p->segs[i].size;
    end = (end + VTAP_PAGE - 1) / VTAP_PAGE * VTAP_PAGE;
    if (end > next) next = end;
  }
  if (next >= 0x100000000ull)
    return vta_errf(err, VTA_EINPUT, "no address left for 'auto': the segments so far "
                    "reach the end of the 32-bit address space");
  *addr = (uint32_t)next;
  return 0;
}

vta_segment_t *vtap_new_segment(vta_program_t *p, const char *name, vta_seg_kind_t kind,
                                uint32_t addr, uint8_t *data, uint32_t size, vta_err *err) {
  if ((addr == 0 && vtap_auto_addr(p, &addr, err)) ||
      vtap_check_shape(name, kind, addr, size, err) ||
      vtap_check_clash(p, name, addr, size, err)) {
    free(data);
    return NULL;
  }
  vta_segment_t *segs = grow(p->segs, p->nsegs, sizeof *segs);
  if (!segs) {
    free(data);
    oom(err);
    return NULL;
  }
  p->segs = segs;
  vta_segment_t *s = &segs[p->nsegs++];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  s->kind = kind;
  s->addr = addr;
  s->size = size;
  s->data = data;
  return s;
}

vta_segment_t *vta_program_add_segment(vta_program_t *p, const char *name,
                                       vta_seg_kind_t kind, uint32_t addr,
                                       const void *data, uint32_t size, vta_err *err) {
  /* shape first, so that an absurd size is refused before it is allocated */
  if (vtap_check_shape(name, kind, addr ? addr : VTAP_AUTO_BASE, size, err)) return NULL;
  uint8_t *copy = data ? malloc(size) : calloc(size, 1);
  if (!copy) {
    oom(err);
    return NULL;
  }
  if (data) memcpy(copy, data, size);
  return vtap_new_segment(p, name, kind, addr, copy, size, err);
}

/* ---- runs, expectations, meta --------------------------------------------- */

int vta_program_add_run(vta_program_t *p, const char *segment, uint32_t count,
                        vta_err *err) {
  if (!vtap_valid_name(segment)) return bad_name(err, "segment", segment);
  vta_run_t *runs = grow(p->runs, p->nruns, sizeof *runs);
  if (!runs) return oom(err);
  p->runs = runs;
  vta_run_t *r = &runs[p->nruns++];
  memset(r, 0, sizeof *r);
  snprintf(r->segment, sizeof r->segment, "%s", segment);
  r->count = count;
  return 0;
}

static vta_expect_t *new_expect(vta_program_t *p, vta_expect_kind_t kind, vta_err *err) {
  vta_expect_t *ex = grow(p->expects, p->nexpects, sizeof *ex);
  if (!ex) {
    oom(err);
    return NULL;
  }
  p->expects = ex;
  vta_expect_t *e = &ex[p->nexpects++];
  memset(e, 0, sizeof *e);
  e->kind = kind;
  return e;
}

static int check_region(const char *segment, uint32_t offset, uint32_t size, vta_err *err) {
  if (!vtap_valid_name(segment)) return bad_name(err, "segment", segment);
  if (size == 0)
    return vta_errf(err, VTA_EINPUT, "expectation on '%s' covers no bytes", segment);
  if (size > VTA_SEGMENT_MAX_BYTES || (uint64_t)offset + size > 0x100000000ull)
    return vta_errf(err, VTA_EINPUT, "expectation on '%s' [%u, %llu) is larger than any "
                    "segment can be", segment, offset, (unsigned long long)offset + size);
  return 0;
}

int vta_program_add_expect_bytes(vta_program_t *p, const char *segment, uint32_t offset,
                                 const void *bytes, uint32_t size, vta_err *err) {
  if (check_region(segment, offset, size, err)) return -1;
  uint8_t *copy = malloc(size);
  if (!copy) return oom(err);
  memcpy(copy, bytes, size);
  vta_expect_t *e = new_expect(p, VTA_EXPECT_BYTES, err);
  if (!e) {
    free(copy);
    return -1;
  }
  snprintf(e->segment, sizeof e->segment, "%s", segment);
  e->offset = offset;
  e->size = size;
  e->bytes = copy;
  return 0;
}

int vta_program_add_expect_sha256(vta_program_t *p, const char *segment, uint32_t offset,
                                  uint32_t size, const uint8_t sha256[32], vta_err *err) {
  if (check_region(segment, offset, size, err)) return -1;
  vta_expect_t *e = new_expect(p, VTA_EXPECT_SHA256, err);
  if (!e) return -1;
  snprintf(e->segment, sizeof e->segment, "%s", segment);
  e->offset = offset;
  e->size = size;
  memcpy(e->sha256, sha256, 32);
  return 0;
}

int vta_program_add_expect_counter(vta_program_t *p, const char *counter, uint64_t value,
                                   vta_err *err) {
  if (!vtap_valid_name(counter)) return bad_name(err, "counter", counter);
  vta_expect_t *e = new_expect(p, VTA_EXPECT_COUNTER, err);
  if (!e) return -1;
  snprintf(e->counter, sizeof e->counter, "%s", counter);
  e->value = value;
  return 0;
}

int vta_program_add_meta(vta_program_t *p, const char *key, const char *value,
                         vta_err *err) {
  if (!vtap_valid_meta_key(key))
    return vta_errf(err, VTA_EINPUT, "bad meta key '%.80s': expected letters, digits, "
                    "'_', '.' or '-', at most %d characters", key, VTA_NAME_LEN - 1);
  if (!vtap_valid_meta_value(value))
    return vta_errf(err, VTA_EINPUT, "bad value for meta key '%s': expected one line of "
                    "printable text without '#' and without blanks at either end", key);
  char *v = dup_str(value);
  if (!v) return oom(err);
  vta_meta_t *m = grow(p->meta, p->nmeta, sizeof *m);
  if (!m) {
    free(v);
    return oom(err);
  }
  p->meta = m;
  snprintf(m[p->nmeta].key, sizeof m[p->nmeta].key, "%s", key);
  m[p->nmeta++].value = v;
  return 0;
}

/* ---- validation ----------------------------------------------------------- */

/* Name fields of a program built in code need not be NUL-terminated; such a
 * name matches nothing instead of being read past its end. */
static int terminated(const char name[VTA_NAME_LEN]) {
  return memchr(name, 0, VTA_NAME_LEN) != NULL;
}

static const vta_segment_t *find_named(const vta_program_t *p, const char name[VTA_NAME_LEN]) {
  return terminated(name) ? vta_program_find(p, name) : NULL;
}

static int check_config(const vta_program_t *p, vta_err *err) {
  vta_config_t c = p->cfg;
  if (vta_config_derive(&c, err)) return vta_err_prefix(err, "configuration: ");
  const vta_config_t *o = &p->cfg;
  /* the model reads the derived constants straight from p->cfg */
  if (c.inp_elem_bytes != o->inp_elem_bytes || c.wgt_elem_bytes != o->wgt_elem_bytes ||
      c.acc_elem_bytes != o->acc_elem_bytes || c.out_elem_bytes != o->out_elem_bytes ||
      c.log_uop_depth != o->log_uop_depth || c.log_inp_depth != o->log_inp_depth ||
      c.log_wgt_depth != o->log_wgt_depth || c.log_acc_depth != o->log_acc_depth ||
      c.uop_src_bits != o->uop_src_bits)
    return vta_errf(err, VTA_EINPUT, "configuration: the derived constants are stale "
                    "(call vta_config_derive after changing a parameter)");
  if (!memchr(o->target, 0, sizeof o->target) || !vtap_valid_word(o->target) ||
      !memchr(o->hw_ver, 0, sizeof o->hw_ver) || !vtap_valid_word(o->hw_ver))
    return vta_errf(err, VTA_EINPUT, "configuration: TARGET and HW_VER must each be one "
                    "word of printable characters without '#'");
  return 0;
}

static int check_meta(const vta_program_t *p, vta_err *err) {
  for (int i = 0; i < p->nmeta; i++) {
    const vta_meta_t *m = &p->meta[i];
    if (!terminated(m->key) || !vtap_valid_meta_key(m->key) || !m->value ||
        !vtap_valid_meta_value(m->value)) {
      vta_errf(err, VTA_EINPUT, "meta line %d: expected a key of letters, digits, '_', '.' "
               "or '-' and one line of printable text without '#'", i + 1);
      return vtap_where(p, 0, err);
    }
  }
  return 0;
}

static int by_addr(const void *a, const void *b) {
  const vta_segment_t *x = *(const vta_segment_t *const *)a, *y = *(const vta_segment_t *const *)b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int by_name(const void *a, const void *b) {
  const vta_segment_t *x = *(const vta_segment_t *const *)a, *y = *(const vta_segment_t *const *)b;
  return strcmp(x->name, y->name);
}

/* Duplicates and overlaps: sorted neighbours, so large generated programs
 * stay fast. */
static int check_clashes(const vta_program_t *p, vta_err *err) {
  if (p->nsegs < 2) return 0;
  const vta_segment_t **v = malloc((size_t)p->nsegs * sizeof *v);
  if (!v) return oom(err);
  for (int i = 0; i < p->nsegs; i++) v[i] = &p->segs[i];
  int rc = 0;
  qsort(v, (size_t)p->nsegs, sizeof *v, by_name);
  for (int i = 1; i < p->nsegs && !rc; i++)
    if (!strcmp(v[i - 1]->name, v[i]->name)) {
      vta_errf(err, VTA_EINPUT, "duplicate segment name '%s'", v[i]->name);
      rc = vtap_where(p, v[i]->line, err);
    }
  qsort(v, (size_t)p->nsegs, sizeof *v, by_addr);
  for (int i = 1; i < p->nsegs && !rc; i++) {
    const vta_segment_t *a = v[i - 1], *b = v[i];
    if ((uint64_t)a->addr + a->size > b->addr) {
      vta_errf(err, VTA_EINPUT, "segment '%s' [0x%08x, 0x%08llx) overlaps segment '%s' "
               "[0x%08x, 0x%08llx)", b->name, b->addr, (unsigned long long)b->addr + b->size,
               a->name, a->addr, (unsigned long long)a->addr + a->size);
      rc = vtap_where(p, b->line, err);
    }
  }
  free(v);
  return rc;
}

static int item_line(const vta_segment_t *s, uint32_t i) {
  return s->lines ? s->lines[i] : s->line;
}

static int check_items(const vta_program_t *p, const vta_segment_t *s, vta_err *err) {
  uint32_t item = vtap_item_bytes(s->kind);
  for (uint32_t i = 0; s->kind != VTA_SEG_DATA && i < s->size / item; i++) {
    int rc;
    if (s->kind == VTA_SEG_INSN) {
      vta_insn_t in;
      rc = vta_insn_decode(&p->cfg, s->data + (size_t)i * item, &in, err);
    } else {
      vta_uop_t u;
      rc = vta_uop_decode(&p->cfg, s->data + (size_t)i * item, &u, err);
    }
    if (rc) {
      vta_err_prefix(err, "segment '%s' %s %u (byte offset 0x%x): ", s->name,
                     s->kind == VTA_SEG_INSN ? "instruction" : "micro-op", i, i * item);
      return vtap_where(p, item_line(s, i), err);
    }
  }
  return 0;
}

static int check_segments(const vta_program_t *p, vta_err *err) {
  for (int i = 0; i < p->nsegs; i++) {
    const vta_segment_t *s = &p->segs[i];
    if (!terminated(s->name)) {
      vta_errf(err, VTA_EINPUT, "segment %d has an unterminated name", i);
      return vtap_where(p, s->line, err);
    }
    if (vtap_check_shape(s->name, s->kind, s->addr, s->size, err))
      return vtap_where(p, s->line, err);
    if (!s->data) {
      vta_errf(err, VTA_EINPUT, "segment '%s' has no data", s->name);
      return vtap_where(p, s->line, err);
    }
  }
  if (check_clashes(p, err)) return -1;
  for (int i = 0; i < p->nsegs; i++)
    if (check_items(p, &p->segs[i], err)) return -1;
  return 0;
}

static int check_runs(const vta_program_t *p, vta_err *err) {
  for (int i = 0; i < p->nruns; i++) {
    const vta_run_t *r = &p->runs[i];
    const vta_segment_t *s = find_named(p, r->segment);
    if (!s)
      vta_errf(err, VTA_EINPUT, "run %d names segment '%.*s', which is not defined", i + 1,
               VTA_NAME_LEN - 1, r->segment);
    else if (s->kind != VTA_SEG_INSN)
      vta_errf(err, VTA_EINPUT, "run %d names '%s', a %s segment (expected an insn segment)",
               i + 1, s->name, vtap_kind_name(s->kind));
    else if (r->count > s->size / VTA_INS_BYTES)
      vta_errf(err, VTA_EINPUT, "run %d of %u instructions, but segment '%s' holds only %u",
               i + 1, r->count, s->name, s->size / VTA_INS_BYTES);
    else
      continue;
    return vtap_where(p, r->line, err);
  }
  return 0;
}

static int check_expect(const vta_program_t *p, const vta_expect_t *e, vta_err *err) {
  if (e->kind == VTA_EXPECT_COUNTER) {
    if (!terminated(e->counter) || !vtap_valid_name(e->counter))
      return bad_name(err, "counter", terminated(e->counter) ? e->counter : "?");
    return 0;
  }
  if (e->kind != VTA_EXPECT_BYTES && e->kind != VTA_EXPECT_SHA256)
    return vta_errf(err, VTA_EINPUT, "expectation of unknown kind %d", (int)e->kind);
  const vta_segment_t *s = find_named(p, e->segment);
  if (!s)
    return vta_errf(err, VTA_EINPUT, "expectation names segment '%.*s', which is not defined",
                    VTA_NAME_LEN - 1, e->segment);
  if (e->size == 0)
    return vta_errf(err, VTA_EINPUT, "expectation on '%s' covers no bytes", s->name);
  if ((uint64_t)e->offset + e->size > s->size)
    return vta_errf(err, VTA_EINPUT, "expectation region [%u, %llu) of '%s' goes beyond the "
                    "end of the segment (%u bytes)", e->offset,
                    (unsigned long long)e->offset + e->size, s->name, s->size);
  if (e->kind == VTA_EXPECT_BYTES && !e->bytes)
    return vta_errf(err, VTA_EINPUT, "byte expectation on '%s' has no bytes", s->name);
  return 0;
}

int vta_program_validate(const vta_program_t *p, vta_err *err) {
  if (check_config(p, err)) return vtap_where(p, 0, err);
  if (check_meta(p, err) || check_segments(p, err) || check_runs(p, err)) return -1;
  for (int i = 0; i < p->nexpects; i++)
    if (check_expect(p, &p->expects[i], err)) return vtap_where(p, p->expects[i].line, err);
  return 0;
}

/* ---- comparison ----------------------------------------------------------- */

#define DIFFER(...) (why ? (void)snprintf(why, len, __VA_ARGS__) : (void)0, 0)

static int same_config(const vta_config_t *a, const vta_config_t *b, char *why, size_t len) {
  if (!vta_config_equal(a, b)) return DIFFER("the configurations differ");
  if (strcmp(a->target, b->target) || strcmp(a->hw_ver, b->hw_ver))
    return DIFFER("TARGET or HW_VER differ");
  return 1;
}

static int same_segment(const vta_segment_t *a, const vta_segment_t *b, char *why, size_t len) {
  if (strcmp(a->name, b->name) || a->kind != b->kind || a->addr != b->addr ||
      a->size != b->size)
    return DIFFER("segment '%s' (%s at 0x%08x, %u bytes) vs '%s' (%s at 0x%08x, %u bytes)",
                  a->name, vtap_kind_name(a->kind), a->addr, a->size, b->name,
                  vtap_kind_name(b->kind), b->addr, b->size);
  for (uint32_t i = 0; i < a->size; i++)
    if (a->data[i] != b->data[i])
      return DIFFER("segment '%s' differs at byte %u: 0x%02x vs 0x%02x", a->name, i,
                    a->data[i], b->data[i]);
  return 1;
}

static int same_expect(const vta_expect_t *a, const vta_expect_t *b, int i, char *why,
                       size_t len) {
  int same = a->kind == b->kind;
  if (same && a->kind == VTA_EXPECT_COUNTER)
    same = !strcmp(a->counter, b->counter) && a->value == b->value;
  else if (same)
    same = !strcmp(a->segment, b->segment) && a->offset == b->offset && a->size == b->size &&
           (a->kind == VTA_EXPECT_BYTES ? !memcmp(a->bytes, b->bytes, a->size)
                                        : !memcmp(a->sha256, b->sha256, 32));
  return same ? 1 : DIFFER("expectation %d differs", i + 1);
}

int vta_program_equal(const vta_program_t *a, const vta_program_t *b, char *why, size_t len) {
  if (!same_config(&a->cfg, &b->cfg, why, len)) return 0;
  if (a->nmeta != b->nmeta) return DIFFER("%d vs %d meta lines", a->nmeta, b->nmeta);
  for (int i = 0; i < a->nmeta; i++)
    if (strcmp(a->meta[i].key, b->meta[i].key) || strcmp(a->meta[i].value, b->meta[i].value))
      return DIFFER("meta line %d differs", i + 1);
  if (a->nsegs != b->nsegs) return DIFFER("%d vs %d segments", a->nsegs, b->nsegs);
  for (int i = 0; i < a->nsegs; i++)
    if (!same_segment(&a->segs[i], &b->segs[i], why, len)) return 0;
  if (a->nruns != b->nruns) return DIFFER("%d vs %d runs", a->nruns, b->nruns);
  for (int i = 0; i < a->nruns; i++)
    if (strcmp(a->runs[i].segment, b->runs[i].segment) || a->runs[i].count != b->runs[i].count)
      return DIFFER("run %d differs", i + 1);
  if (a->nexpects != b->nexpects)
    return DIFFER("%d vs %d expectations", a->nexpects, b->nexpects);
  for (int i = 0; i < a->nexpects; i++)
    if (!same_expect(&a->expects[i], &b->expects[i], i, why, len)) return 0;
  return 1;
}

/* ---- files and hashing ---------------------------------------------------- */

int vta_program_is_binary(const uint8_t *data, size_t len) {
  return len >= sizeof vtap_magic && !memcmp(data, vtap_magic, sizeof vtap_magic);
}

int vta_program_load(vta_program_t *p, const char *path, vta_err *err) {
  vta_program_init(p);
  /* Mapped, not read: the binary reader checks and decodes the bytes where
   * they lie, and copies each segment once, into the program. */
  vta_file_t f;
  if (vta_file_map(path, &f, err)) return -1;
  const uint8_t *data = f.data;
  size_t len = f.len;
  /* A NUL byte in the header's 16 bytes is no text: a binary container
   * whose magic is damaged, reported as such rather than as bad text. */
  int binary = vta_program_is_binary(data, len) || memchr(data, 0, len < 16 ? len : 16);
  int rc;
  if (binary) {
    rc = vta_program_read_binary(p, data, len, path, err);
  } else { /* the text reader wants its NUL terminator */
    char *text = malloc(len + 1);
    if (!text) {
      vta_file_unmap(&f);
      return vta_errf(err, VTA_ENOMEM, "%s: out of memory reading the file", path);
    }
    if (len) memcpy(text, data, len);
    text[len] = '\0';
    rc = vta_program_parse(p, text, len, path, err);
    free(text);
  }
  vta_file_unmap(&f);
  return rc;
}

void vta_sha256(const void *data, size_t len, uint8_t out[32]) {
  struct sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, len, (const uint8_t *)data);
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
}

void vta_xxh128(const void *data, size_t len, uint8_t out[16]) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits(data, len));
  memcpy(out, c.digest, 16);
}
