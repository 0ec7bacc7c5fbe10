/*
 * capture.c - VTASIM_CAPTURE (capture.h): a VTADeviceRun as a replayable
 * program bundle.  Before the run the allocations its instructions touch
 * are copied into a vta_program_t as segments at their physical addresses;
 * after it, the outputs become expectations and the text form is written
 * with the bundle writer of isa/vta_program.h.
 */
#include "capture.h"
#include "vta_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* How a run uses an allocation. */
enum { USE_DATA = 1, USE_UOP = 2, USE_WRITE = 4 };

typedef struct range {
  uint64_t lo, hi; /* DRAM bytes [lo, hi) */
  int use;
} range_t;

typedef struct piece {
  char name[VTA_NAME_LEN];
  int written; /* part of an allocation a STORE writes: an output */
} piece_t;

struct vtasim_capture {
  vta_program_t prog;
  piece_t *pieces; /* one per segment of prog, same order */
};

/* The DRAM bytes a LOAD or STORE moves: rows y < y_size of x_size elements,
 * x_stride elements apart, from element dram_base (docs/isa.md 2.3).  Padding and
 * sync NOPs (x_size 0) touch no DRAM. */
static int insn_range(const vta_config_t *cfg, const vta_insn_t *in, range_t *r) {
  if (in->opcode != VTA_OP_LOAD && in->opcode != VTA_OP_STORE) return 0;
  if (in->x_size == 0 || in->y_size == 0) return 0;
  uint64_t elem = vta_mem_elem_bytes(cfg, in->opcode == VTA_OP_STORE ? VTA_MEM_OUT : in->mem_type);
  if (!elem) return 0; /* a memory type the engines refuse: the run faults there */
  uint64_t first = in->dram_base;
  uint64_t last = first + (uint64_t)(in->y_size - 1) * in->x_stride + in->x_size;
  r->lo = first * elem;
  r->hi = last * elem;
  r->use = in->opcode == VTA_OP_STORE ? USE_WRITE
           : in->mem_type == VTA_MEM_UOP ? USE_UOP : USE_DATA;
  return 1;
}

/* A piece of an allocation as a segment: UOP when the run reads it only as
 * micro-ops and every word decodes (so that `vtasim dis` shows them), else
 * DATA. */
static int add_piece(vtasim_capture_t *c, const vta_config_t *cfg, const vta_mem_t *mem,
                     uint64_t lo, uint64_t hi, int use, vta_seg_kind_t kind, vta_err *err) {
  if (hi <= lo) return 0;
  const uint8_t *bytes = vta_mem_host(mem, lo, hi - lo);
  if (!bytes) return vta_errf(err, VTA_ERANGE, "capture: 0x%llx..0x%llx is not device memory",
                              (unsigned long long)lo, (unsigned long long)hi);
  if (kind == VTA_SEG_DATA && use == USE_UOP && (hi - lo) % 4 == 0) {
    kind = VTA_SEG_UOP;
    for (uint64_t i = 0; i < hi - lo && kind == VTA_SEG_UOP; i += 4) {
      vta_uop_t u;
      vta_err ignored;
      if (vta_uop_decode(cfg, bytes + i, &u, &ignored)) kind = VTA_SEG_DATA;
    }
  }
  piece_t *np = realloc(c->pieces, (size_t)(c->prog.nsegs + 1) * sizeof *np);
  if (!np) return vta_errf(err, VTA_EIO, "capture: out of memory");
  c->pieces = np;
  piece_t *pc = &c->pieces[c->prog.nsegs];
  if (kind == VTA_SEG_INSN) snprintf(pc->name, sizeof pc->name, "insn");
  else snprintf(pc->name, sizeof pc->name, "m%08llx", (unsigned long long)lo);
  pc->written = (use & USE_WRITE) != 0;
  return vta_program_add_segment(&c->prog, pc->name, kind, (uint32_t)lo, bytes,
                                 (uint32_t)(hi - lo), err) ? 0 : -1;
}

vtasim_capture_t *vtasim_capture_begin(const vta_config_t *cfg, const vta_mem_t *mem,
                                       uint32_t insn_phys, uint32_t count, vta_err *err) {
  uint64_t ilo = insn_phys, ihi = ilo + (uint64_t)count * 16;
  const uint8_t *insns = count ? vta_mem_host(mem, ilo, ihi - ilo) : NULL;
  if (!insns) {
    vta_errf(err, VTA_ERANGE, "capture: %u instructions at 0x%x are not device memory",
             count, insn_phys);
    return NULL;
  }
  range_t *ranges = calloc(count, sizeof *ranges);
  vtasim_capture_t *c = calloc(1, sizeof *c);
  if (!ranges || !c) {
    free(ranges);
    free(c);
    vta_errf(err, VTA_EIO, "capture: out of memory");
    return NULL;
  }
  vta_program_init(&c->prog);
  c->prog.cfg = *cfg;
  size_t nr = 0;
  for (uint32_t i = 0; i < count; i++) {
    vta_insn_t in;
    if (vta_insn_decode(cfg, insns + 16 * (size_t)i, &in, err)) {
      char msg[VTA_ERR_LEN];
      snprintf(msg, sizeof msg, "%s", err->msg);
      vta_errf(err, VTA_EINPUT, "capture: instruction %u at 0x%llx: %s", i,
               (unsigned long long)(ilo + 16 * (uint64_t)i), msg);
      goto fail;
    }
    nr += (size_t)insn_range(cfg, &in, &ranges[nr]);
  }
  /* Every allocation, in physical order, with the uses that overlap it. */
  uint32_t phys;
  uint64_t span;
  for (size_t b = 0; vta_mem_block(mem, b, &phys, &span) == 0; b++) {
    uint64_t lo = phys, hi = lo + span;
    int use = 0;
    for (size_t k = 0; k < nr; k++)
      if (ranges[k].lo < hi && ranges[k].hi > lo) use |= ranges[k].use;
    int has_insns = ilo >= lo && ihi <= hi;
    if (!use && !has_insns) continue;
    if (!has_insns) {
      if (add_piece(c, cfg, mem, lo, hi, use, VTA_SEG_DATA, err)) goto fail;
      continue;
    }
    /* The instruction stream is its own segment; the rest of its allocation
     * is captured only when the run also uses it as data. */
    if ((use && add_piece(c, cfg, mem, lo, ilo, use, VTA_SEG_DATA, err)) ||
        add_piece(c, cfg, mem, ilo, ihi, 0, VTA_SEG_INSN, err) ||
        (use && add_piece(c, cfg, mem, ihi, hi, use, VTA_SEG_DATA, err)))
      goto fail;
  }
  if (vta_program_add_run(&c->prog, "insn", 0, err)) goto fail;
  free(ranges);
  return c;
fail:
  free(ranges);
  vtasim_capture_free(c);
  return NULL;
}

void vtasim_capture_free(vtasim_capture_t *c) {
  if (!c) return;
  vta_program_free(&c->prog);
  free(c->pieces);
  free(c);
}

/* A meta value: one printable line without '#', trimmed (the format's rule). */
static int add_meta(vta_program_t *p, const char *key, const char *value, vta_err *err) {
  char v[512];
  size_t n = 0;
  for (const char *s = value; *s && *s != '\n' && n + 1 < sizeof v; s++)
    v[n++] = (*s == '#' || (unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) ? ' ' : *s;
  while (n && v[n - 1] == ' ') n--;
  v[n] = '\0';
  const char *t = v;
  while (*t == ' ') t++;
  return vta_program_add_meta(p, key, *t ? t : "-", err);
}

/* Outputs as inline bytes up to this size, larger ones as a SHA-256. */
#define CAPTURE_INLINE_BYTES 4096u

int vtasim_capture_end(vtasim_capture_t *c, const vta_mem_t *mem, const vtasim_run_info_t *info,
                       const char *engine, const char *error, const char *dir,
                       char *path, size_t path_len, vta_err *err) {
  vta_program_t *p = &c->prog;
  char v[160];
  const uint32_t *t = info->tokens_in;
  if (add_meta(p, "captured-by", "vtasim driver (VTASIM_CAPTURE)", err) ||
      add_meta(p, "engine", engine, err)) return -1;
  snprintf(v, sizeof v, "%d", info->device);
  if (add_meta(p, "device", v, err)) return -1;
  snprintf(v, sizeof v, "%llu", (unsigned long long)info->run);
  if (add_meta(p, "run", v, err)) return -1;
  snprintf(v, sizeof v, "l2g=%u g2l=%u g2s=%u s2g=%u", t[0], t[1], t[2], t[3]);
  if (add_meta(p, "tokens-in", v, err)) return -1;
  if (info->has_cycles && !info->status) {
    snprintf(v, sizeof v, "%llu", (unsigned long long)info->cycles);
    if (add_meta(p, "cycles", v, err)) return -1;
  }
  if (info->status) {
    if (add_meta(p, "error", error && *error ? error : "run failed", err)) return -1;
  } else {
    for (int s = 0; s < p->nsegs; s++) {
      const vta_segment_t *seg = &p->segs[s];
      if (!c->pieces[s].written) continue;
      const uint8_t *now = vta_mem_host(mem, seg->addr, seg->size);
      if (!now) return vta_errf(err, VTA_ERANGE, "capture: segment %s was released", seg->name);
      if (seg->size <= CAPTURE_INLINE_BYTES) {
        if (vta_program_add_expect_bytes(p, seg->name, 0, now, seg->size, err)) return -1;
      } else {
        uint8_t sum[32];
        vta_sha256(now, seg->size, sum);
        if (vta_program_add_expect_sha256(p, seg->name, 0, seg->size, sum, err)) return -1;
      }
    }
    for (int i = 0; i < VTA_NSTATS; i++) {
      uint64_t n = 0;
      vta_stats_get(&info->stats, vta_stat_names[i], &n, NULL);
      if (vta_program_add_expect_counter(p, vta_stat_names[i], n, err)) return -1;
    }
  }
  if (vta_program_validate(p, err)) return -1;
  if (mkdir(dir, 0777) && errno != EEXIST)
    return vta_errf(err, VTA_EIO, "VTASIM_CAPTURE: %s: cannot create the directory: %s", dir,
                    strerror(errno));
  snprintf(path, path_len, "%s/dev%d-run%04llu.vta", dir, info->device,
           (unsigned long long)info->run);
  /* Through the output policy (vta_io.h): renamed only when complete, so
   * a reader never sees half a bundle, and never over an input. */
  vta_out_t o;
  if (vta_out_open(&o, path, "VTASIM_CAPTURE", 0, err)) return -1;
  int rc = vta_program_write_text(p, o.f, err);
  if (vta_out_close(&o, !rc, rc ? NULL : err)) rc = -1;
  return rc;
}
