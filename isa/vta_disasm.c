/*
 * vta_disasm.c - programs and raw memory back to text: the canonical text
 * form of a bundle (vta_program_write_text) and the disassembly of raw
 * instruction and micro-op streams.
 *
 * The canonical form is what the reader in vta_asm.c reads back into the
 * same program, and it depends only on the program: explicit addresses,
 * every instruction field named, data as hex.  That is what makes
 * text -> binary -> text reproduce the text byte for byte.
 */
#include "vta_program.h"
#include "vta_program_int.h"

#include <errno.h>
#include <string.h>

#define LINE_MAX_LEN 512 /* longer than any formatted instruction */

/* ---- items with aligned index comments ------------------------------------ */

typedef int (*item_fmt)(const vta_config_t *cfg, const uint8_t *item, char *buf,
                        size_t len, vta_err *err);

static int fmt_insn(const vta_config_t *cfg, const uint8_t *item, char *buf, size_t len,
                    vta_err *err) {
  vta_insn_t in;
  if (vta_insn_decode(cfg, item, &in, err)) return -1;
  if ((size_t)vta_insn_format(&in, buf, len) >= len)
    return vta_errf(err, VTA_EINPUT, "instruction text longer than %zu characters", len - 1);
  return 0;
}

static int fmt_uop(const vta_config_t *cfg, const uint8_t *item, char *buf, size_t len,
                   vta_err *err) {
  vta_uop_t u = {0, 0, 0}; /* set by the decode on success (GCC with LTO cannot tell) */
  if (vta_uop_decode(cfg, item, &u, err)) return -1;
  if ((size_t)vta_uop_format(&u, buf, len) >= len)
    return vta_errf(err, VTA_EINPUT, "micro-op text longer than %zu characters", len - 1);
  return 0;
}

/* Everything is decoded before anything is written, so a bad item leaves no
 * half listing behind; the first walk also finds the comment column. */
static int emit_items(const vta_config_t *cfg, const uint8_t *data, size_t n, size_t item,
                      item_fmt fmt, const char *indent, const char *what, const char *name,
                      FILE *f, vta_err *err) {
  char buf[LINE_MAX_LEN];
  size_t width = 0;
  for (size_t i = 0; i < n; i++) {
    if (fmt(cfg, data + i * item, buf, sizeof buf, err))
      return vta_err_prefix(err, "%s: %s %zu at byte offset 0x%zx: ", name, what, i, i * item);
    size_t w = strlen(buf);
    if (w > width) width = w;
  }
  for (size_t i = 0; i < n; i++) {
    fmt(cfg, data + i * item, buf, sizeof buf, NULL);
    fprintf(f, "%s%-*s  # %zu\n", indent, (int)width, buf, i);
  }
  return 0;
}

static int whole_items(size_t len, size_t item, const char *what, const char *name,
                       vta_err *err) {
  if (len % item == 0) return 0;
  return vta_errf(err, VTA_EINPUT, "%s: %zu bytes is not a whole number of %zu-byte %ss "
                  "(%zu trailing byte%s)", name, len, item, what, len % item,
                  len % item == 1 ? "" : "s");
}

int vta_disasm_insns(const vta_config_t *cfg, const uint8_t *data, size_t len, FILE *f,
                     const char *name, vta_err *err) {
  if (!name) name = "<instructions>";
  if (whole_items(len, VTA_INS_BYTES, "instruction", name, err)) return -1;
  return emit_items(cfg, data, len / VTA_INS_BYTES, VTA_INS_BYTES, fmt_insn, "",
                    "instruction", name, f, err);
}

int vta_disasm_uops(const vta_config_t *cfg, const uint8_t *data, size_t len, FILE *f,
                    const char *name, vta_err *err) {
  if (!name) name = "<micro-ops>";
  if (whole_items(len, VTA_UOP_BYTES, "micro-op", name, err)) return -1;
  return emit_items(cfg, data, len / VTA_UOP_BYTES, VTA_UOP_BYTES, fmt_uop, "", "micro-op",
                    name, f, err);
}

/* ---- the canonical text form ---------------------------------------------- */

static void write_hex_lines(FILE *f, const uint8_t *d, uint32_t n) {
  for (uint32_t i = 0; i < n; i += 16) {
    fputs(" ", f);
    for (uint32_t k = i; k < n && k < i + 16; k++) fprintf(f, " %02x", d[k]);
    fputc('\n', f);
  }
}

static void write_config(const vta_config_t *c, FILE *f) {
  vta_config_t def;
  vta_config_default(&def);
  fputs(".config default\n", f);
  if (strcmp(c->target, def.target)) fprintf(f, ".set TARGET %s\n", c->target);
  if (strcmp(c->hw_ver, def.hw_ver)) fprintf(f, ".set HW_VER %s\n", c->hw_ver);
  for (int i = 0; vta_config_keys[i]; i++) {
    long v = 0, d = 0;
    vta_config_get(c, vta_config_keys[i], &v, NULL);
    vta_config_get(&def, vta_config_keys[i], &d, NULL);
    if (v != d) fprintf(f, ".set %s %ld\n", vta_config_keys[i], v);
  }
}

static int all_zero(const uint8_t *d, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (d[i]) return 0;
  return 1;
}

static int write_segment(const vta_program_t *p, const vta_segment_t *s, FILE *f,
                         vta_err *err) {
  static const char *const directive[] = {".data", ".uop", ".insn"};
  fprintf(f, "\n%s %s 0x%08x", directive[s->kind], s->name, s->addr);
  if (s->kind == VTA_SEG_DATA && all_zero(s->data, s->size)) {
    fprintf(f, " zero %u\n", s->size);
    return 0;
  }
  fputs(" {\n", f);
  int rc = 0;
  if (s->kind == VTA_SEG_DATA)
    write_hex_lines(f, s->data, s->size);
  else if (s->kind == VTA_SEG_UOP)
    rc = emit_items(&p->cfg, s->data, s->size / VTA_UOP_BYTES, VTA_UOP_BYTES, fmt_uop, "  ",
                    "micro-op", s->name, f, err);
  else
    rc = emit_items(&p->cfg, s->data, s->size / VTA_INS_BYTES, VTA_INS_BYTES, fmt_insn, "  ",
                    "instruction", s->name, f, err);
  fputs("}\n", f);
  return rc;
}

static void write_expect(const vta_program_t *p, const vta_expect_t *e, FILE *f) {
  if (e->kind == VTA_EXPECT_COUNTER) {
    fprintf(f, ".expect-counter %s %llu\n", e->counter, (unsigned long long)e->value);
    return;
  }
  if (e->kind == VTA_EXPECT_BYTES) {
    if (e->offset) fprintf(f, ".expect %s[%u] {\n", e->segment, e->offset);
    else fprintf(f, ".expect %s {\n", e->segment);
    write_hex_lines(f, e->bytes, e->size);
    fputs("}\n", f);
    return;
  }
  char hex[65];
  vtap_hex(e->sha256, 32, hex);
  const vta_segment_t *s = vta_program_find(p, e->segment);
  if (e->offset == 0 && s && e->size == s->size)
    fprintf(f, ".expect %s sha256 %s\n", e->segment, hex);
  else
    fprintf(f, ".expect %s[%u:%llu] sha256 %s\n", e->segment, e->offset,
            (unsigned long long)e->offset + e->size, hex);
}

int vta_program_write_text(const vta_program_t *p, FILE *f, vta_err *err) {
  /* only what the reader accepts may be written */
  if (vta_program_validate(p, err)) return -1;
  fprintf(f, ".version %d\n", VTA_TRACE_VERSION);
  write_config(&p->cfg, f);
  for (int i = 0; i < p->nmeta; i++)
    fprintf(f, ".meta %s%s%s\n", p->meta[i].key, *p->meta[i].value ? " " : "",
            p->meta[i].value);
  for (int i = 0; i < p->nsegs; i++)
    if (write_segment(p, &p->segs[i], f, err)) return -1;
  if (p->nruns) fputc('\n', f);
  for (int i = 0; i < p->nruns; i++) {
    if (p->runs[i].count) fprintf(f, ".run %s %u\n", p->runs[i].segment, p->runs[i].count);
    else fprintf(f, ".run %s\n", p->runs[i].segment);
  }
  if (p->nexpects) fputc('\n', f);
  for (int i = 0; i < p->nexpects; i++) write_expect(p, &p->expects[i], f);
  if (fflush(f) || ferror(f))
    return vta_errf(err, VTA_EIO, "cannot write the program text: %s", strerror(errno));
  return 0;
}
