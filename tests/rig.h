/*
 * rig.h - the test rig of tests/test_model.c (functional engine) and
 * tests/test_cycle.c (cycle engine, with a trace): device memory, a model,
 * an instruction buffer that tests emit encoded instructions into, one run
 * of everything emitted, and the instruction builders both use.  Each test
 * opens its rig its own way.
 */
#ifndef VTASIM_TESTS_RIG_H
#define VTASIM_TESTS_RIG_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "vta_isa.h"
#include "vta_mem.h"
#include "vta_model.h"

typedef struct rig {
  vta_config_t cfg;
  vta_mem_t *mem;
  vta_model_t *m;
  uint8_t *ins;
  uint32_t ins_phys, n, cap;
  char *tr;      /* the instruction trace, when the rig keeps one (trf) */
  size_t trlen;
  FILE *trf;
} rig_t;

static inline void rig_close(rig_t *r) {
  vta_model_free(r->m);
  vta_mem_free(r->mem);
  if (r->trf) fclose(r->trf);
  free(r->tr);
}

static inline void emit(rig_t *r, vta_insn_t in) {
  vta_err e;
  if (r->n >= r->cap) {
    CHECK_MSG(0, "instruction buffer full");
    return;
  }
  if (vta_insn_encode(&r->cfg, &in, r->ins + 16 * r->n, &e)) {
    CHECK_MSG(0, "encode: %s", e.msg);
    return;
  }
  r->n++;
}

/* Run every emitted instruction; the next emit starts a new stream. */
static inline int rig_run(rig_t *r, vta_err *e) {
  vta_err_clear(e);
  int rc = vta_model_run(r->m, r->ins_phys, r->n, e);
  r->n = 0;
  if (r->trf) fflush(r->trf);
  return rc;
}

/* ---- instruction builders ------------------------------------------------ */

enum { PP = 1, PN = 2, SP = 4, SN = 8 }; /* pop_prev pop_next push_prev push_next */

static inline vta_insn_t dep(vta_insn_t in, int f) {
  in.pop_prev = !!(f & PP);
  in.pop_next = !!(f & PN);
  in.push_prev = !!(f & SP);
  in.push_next = !!(f & SN);
  return in;
}

static inline vta_insn_t LD(uint32_t type, uint32_t sram, uint32_t dram_base, uint32_t y,
                            uint32_t x, uint32_t stride) {
  return (vta_insn_t){.opcode = VTA_OP_LOAD, .mem_type = type, .sram_base = sram,
                      .dram_base = dram_base, .y_size = y, .x_size = x, .x_stride = stride};
}

static inline vta_insn_t PAD(vta_insn_t in, uint32_t y0, uint32_t y1, uint32_t x0,
                             uint32_t x1) {
  in.y_pad_0 = y0, in.y_pad_1 = y1, in.x_pad_0 = x0, in.x_pad_1 = x1;
  return in;
}

static inline vta_insn_t ST(uint32_t sram, uint32_t dram_base, uint32_t y, uint32_t x,
                            uint32_t stride) {
  return (vta_insn_t){.opcode = VTA_OP_STORE, .mem_type = VTA_MEM_OUT, .sram_base = sram,
                      .dram_base = dram_base, .y_size = y, .x_size = x, .x_stride = stride};
}

static inline vta_insn_t FIN(void) { return (vta_insn_t){.opcode = VTA_OP_FINISH}; }
static inline vta_insn_t NOP_LOAD(void) { return LD(VTA_MEM_INP, 0, 0, 0, 0, 0); }
static inline vta_insn_t NOP_COMPUTE(void) { return LD(VTA_MEM_UOP, 0, 0, 0, 0, 0); }

#endif
