/*
 * tvm_style_client.c - a host program written the way TVM's VTA runtime
 * drives the hardware, against the driver API only (vta/driver.h, and
 * vtasim's public header vtasim.h for the cycle counts and statistics, so
 * that it builds against an installed libvtasim.so with pkg-config as well
 * as against libvtasim.a): a command buffer of instructions
 * packed from hw_spec-style bitfield structs (tests/bitfield_layout.h),
 * micro-op kernels built once in DRAM and loaded once per command buffer
 * then reused by every GEMM/ALU of it, double-buffered input and weight
 * loads ordered by dependency-token pushes and pops, and two synchronizes
 * on one device.  Written for vtasim's tests; no TVM code.
 *
 * The workload: C = clip((A x W^T) >> SHIFT, -128, 127) with int8 A (M x K),
 * W (N x K), computed tile by tile (16 outputs at a time), the first half
 * of the output tiles in the first command buffer, the rest in the second.
 * The result is checked against a plain C reference written here.
 *
 *   tvm_style_client OUT.bin   writes C's bytes to OUT.bin and prints, per
 *                              synchronize, "sync I cycles N" (ECNT) and
 *                              the statistics, then "total cycles N"
 * Exit status: 0 the outputs equal the reference, 1 they differ, 2 the
 * driver refused (VTADeviceAlloc NULL, VTADeviceRun non-zero: its value is
 * printed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta/driver.h"
#include "vtasim.h"

/* The default configuration 1x16_i8w8a32: index widths U 13, I 11, W 10, A 11. */
#define BF_PREFIX hw_
#define BF_LOG_UOP 13
#define BF_LOG_INP 11
#define BF_LOG_WGT 10
#define BF_LOG_ACC 11
/* Only its structs are used here, not its pack/unpack helpers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "bitfield_layout.h"
#pragma GCC diagnostic pop

enum { BLOCK = 16, M = 8, KB = 4, NB = 4, SHIFT = 8 };
enum { OP_LOAD = 0, OP_STORE = 1, OP_GEMM = 2, OP_FINISH = 3, OP_ALU = 4 };
enum { MEM_UOP = 0, MEM_WGT = 1, MEM_INP = 2, MEM_OUT = 4 };
enum { ALU_MIN = 0, ALU_MAX = 1, ALU_SHR = 3 };

/* ---- the command buffer ------------------------------------------------------ */

/* The units in pipeline order: a token goes to the previous or next one. */
enum { STAGE_LOAD = 0, STAGE_COMPUTE = 1, STAGE_STORE = 2 };

typedef union {
  hw_GenericInsn g;
  hw_MemInsn m;
  hw_GemInsn x;
  hw_AluInsn a;
} insn_t;

typedef struct cmdbuf {
  insn_t *insns;  /* device memory, VTAMemAlloc'd once */
  int n, cap;
  int last[3];    /* index of the last instruction of each stage, -1 none */
  int pending_pop[3][3]; /* pops owed by stage `to` for tokens from `from` */
} cmdbuf_t;

static int stage_of(const insn_t *in) {
  if (in->g.opcode == OP_STORE) return STAGE_STORE;
  if (in->g.opcode == OP_LOAD && (in->m.memory_type == MEM_INP || in->m.memory_type == MEM_WGT))
    return STAGE_LOAD;
  return STAGE_COMPUTE; /* GEMM, ALU, FINISH, LOAD UOP/ACC */
}

static void cb_reset(cmdbuf_t *cb) {
  cb->n = 0;
  for (int s = 0; s < 3; s++) {
    cb->last[s] = -1;
    for (int t = 0; t < 3; t++) cb->pending_pop[s][t] = 0;
  }
}

/* Append an instruction: it takes the pops its stage owes (one per
 * direction, as one instruction can pop one token each way). */
static insn_t *cb_push(cmdbuf_t *cb, insn_t in) {
  if (cb->n == cb->cap) {
    fprintf(stderr, "command buffer full (%d instructions)\n", cb->cap);
    exit(2);
  }
  int s = stage_of(&in);
  if (s > 0 && cb->pending_pop[s - 1][s]) { in.g.pop_prev = 1; cb->pending_pop[s - 1][s]--; }
  if (s < 2 && cb->pending_pop[s + 1][s]) { in.g.pop_next = 1; cb->pending_pop[s + 1][s]--; }
  cb->insns[cb->n] = in;
  cb->last[s] = cb->n;
  return &cb->insns[cb->n++];
}

/* A sync NOP of a stage: a LOAD (load stage: INP; compute: UOP) or STORE
 * with x_size 0, carrying only dependency flags. */
static insn_t *cb_nop(cmdbuf_t *cb, int stage) {
  insn_t in;
  memset(&in, 0, sizeof in);
  in.m.opcode = stage == STAGE_STORE ? OP_STORE : OP_LOAD;
  in.m.memory_type = stage == STAGE_LOAD ? MEM_INP : MEM_UOP;
  return cb_push(cb, in);
}

/* from signals to: the last instruction of `from` pushes a token (a NOP
 * carries it when `from` has none yet, or its last already pushes). */
static void dep_push(cmdbuf_t *cb, int from, int to) {
  int i = cb->last[from], prev = to == from - 1;
  insn_t *in = i >= 0 ? &cb->insns[i] : NULL;
  if (!in || (prev ? in->g.push_prev : in->g.push_next)) in = cb_nop(cb, from);
  if (prev) in->g.push_prev = 1;
  else in->g.push_next = 1;
}

/* to waits for from: its next instruction pops the token. */
static void dep_pop(cmdbuf_t *cb, int from, int to) { cb->pending_pop[from][to]++; }

/* ---- micro-op kernels ---------------------------------------------------------- */

/* A kernel lives in DRAM from its creation; a command buffer loads it into
 * the uop scratchpad on its first use and reuses it after (the cache is
 * forgotten at each synchronize, as the scratchpad's contents are the
 * runtime's to manage). */
typedef struct kernel {
  hw_Uop *uops;   /* device memory */
  int n;
  int sram_base;  /* where it sits in the uop scratchpad */
  int loaded;     /* loaded by the current command buffer */
} kernel_t;

static void kernel_init(kernel_t *k, int n, int sram_base) {
  k->uops = VTAMemAlloc((size_t)n * sizeof(hw_Uop), VTA_CACHED);
  if (!k->uops) exit(2);
  memset(k->uops, 0, (size_t)n * sizeof(hw_Uop));
  k->n = n;
  k->sram_base = sram_base;
  k->loaded = 0;
}

static void kernel_use(cmdbuf_t *cb, kernel_t *k) {
  if (k->loaded) return;
  insn_t in;
  memset(&in, 0, sizeof in);
  in.m.opcode = OP_LOAD;
  in.m.memory_type = MEM_UOP;
  in.m.sram_base = (uint64_t)k->sram_base;
  in.m.dram_base = VTAMemGetPhyAddr(k->uops) / sizeof(hw_Uop);
  in.m.y_size = 1;
  in.m.x_size = (uint64_t)k->n;
  in.m.x_stride = (uint64_t)k->n;
  cb_push(cb, in);
  k->loaded = 1;
}

/* ---- the program ---------------------------------------------------------------- */

typedef struct tensors {
  int8_t *a;   /* [M][KB][BLOCK] */
  int8_t *w;   /* [NB][KB][BLOCK out][BLOCK in] */
  int8_t *c;   /* [M][NB][BLOCK] */
} tensors_t;

static kernel_t k_gemm[2], k_alu;

static void alu_imm(cmdbuf_t *cb, int op, int imm) {
  kernel_use(cb, &k_alu);
  insn_t in;
  memset(&in, 0, sizeof in);
  in.a.opcode = OP_ALU;
  in.a.uop_bgn = (uint64_t)k_alu.sram_base;
  in.a.uop_end = (uint64_t)(k_alu.sram_base + k_alu.n);
  in.a.iter_out = 1;
  in.a.iter_in = 1;
  in.a.alu_opcode = (uint64_t)op;
  in.a.use_imm = 1;
  in.a.imm = imm;
  cb_push(cb, in);
}

/* Output tiles [n0, n1) as one command buffer, then synchronize. */
static int run_tiles(VTADeviceHandle dev, cmdbuf_t *cb, const tensors_t *t, int n0, int n1) {
  cb_reset(cb);
  k_gemm[0].loaded = k_gemm[1].loaded = k_alu.loaded = 0;
  uint32_t a_elem = VTAMemGetPhyAddr(t->a) / BLOCK;
  uint32_t w_elem = VTAMemGetPhyAddr(t->w) / (BLOCK * BLOCK);
  uint32_t c_elem = VTAMemGetPhyAddr(t->c) / BLOCK;
  int j = 0; /* load pairs issued in this buffer: buffer j % 2 */
  for (int n = n0; n < n1; n++) {
    /* The accumulator is reset once the store of the previous tile read it. */
    if (n > n0) dep_pop(cb, STAGE_STORE, STAGE_COMPUTE);
    kernel_use(cb, &k_gemm[0]);
    insn_t r;
    memset(&r, 0, sizeof r);
    r.x.opcode = OP_GEMM;
    r.x.reset_reg = 1;
    r.x.uop_bgn = (uint64_t)k_gemm[0].sram_base;
    r.x.uop_end = (uint64_t)(k_gemm[0].sram_base + k_gemm[0].n);
    r.x.iter_out = 1;
    r.x.iter_in = 1;
    cb_push(cb, r);
    for (int k = 0; k < KB; k++, j++) {
      int b = j % 2;
      /* Double buffering: the load refills buffer b once the GEMM two
       * steps back has released it. */
      if (j >= 2) dep_pop(cb, STAGE_COMPUTE, STAGE_LOAD);
      insn_t la;
      memset(&la, 0, sizeof la);
      la.m.opcode = OP_LOAD;
      la.m.memory_type = MEM_INP;
      la.m.sram_base = (uint64_t)(b * M);
      la.m.dram_base = a_elem + (uint32_t)k;
      la.m.y_size = M;
      la.m.x_size = 1;
      la.m.x_stride = KB;
      cb_push(cb, la);
      insn_t lw;
      memset(&lw, 0, sizeof lw);
      lw.m.opcode = OP_LOAD;
      lw.m.memory_type = MEM_WGT;
      lw.m.sram_base = (uint64_t)b;
      lw.m.dram_base = w_elem + (uint32_t)(n * KB + k);
      lw.m.y_size = 1;
      lw.m.x_size = 1;
      lw.m.x_stride = 1;
      cb_push(cb, lw);
      dep_push(cb, STAGE_LOAD, STAGE_COMPUTE);
      dep_pop(cb, STAGE_LOAD, STAGE_COMPUTE);
      kernel_use(cb, &k_gemm[b]);
      insn_t g;
      memset(&g, 0, sizeof g);
      g.x.opcode = OP_GEMM;
      g.x.uop_bgn = (uint64_t)k_gemm[b].sram_base;
      g.x.uop_end = (uint64_t)(k_gemm[b].sram_base + k_gemm[b].n);
      g.x.iter_out = 1;
      g.x.iter_in = 1;
      cb_push(cb, g);
      dep_push(cb, STAGE_COMPUTE, STAGE_LOAD);
    }
    alu_imm(cb, ALU_SHR, SHIFT);
    alu_imm(cb, ALU_MAX, -128);
    alu_imm(cb, ALU_MIN, 127);
    dep_push(cb, STAGE_COMPUTE, STAGE_STORE);
    dep_pop(cb, STAGE_COMPUTE, STAGE_STORE);
    insn_t s;
    memset(&s, 0, sizeof s);
    s.m.opcode = OP_STORE;
    s.m.memory_type = MEM_OUT;
    s.m.sram_base = 0;
    s.m.dram_base = c_elem + (uint32_t)n;
    s.m.y_size = M;
    s.m.x_size = 1;
    s.m.x_stride = NB;
    cb_push(cb, s);
    dep_push(cb, STAGE_STORE, STAGE_COMPUTE);
  }
  /* Synchronize: take back every token still in flight so the device
   * ends the run with empty queues, then FINISH after the last store. */
  dep_pop(cb, STAGE_STORE, STAGE_COMPUTE);
  cb_nop(cb, STAGE_COMPUTE);
  for (int left = j < 2 ? j : 2; left > 0; left--) {
    dep_pop(cb, STAGE_COMPUTE, STAGE_LOAD);
    cb_nop(cb, STAGE_LOAD);
  }
  if (j) {
    dep_push(cb, STAGE_LOAD, STAGE_COMPUTE);
    dep_pop(cb, STAGE_LOAD, STAGE_COMPUTE);
    cb_nop(cb, STAGE_COMPUTE);
  }
  insn_t f;
  memset(&f, 0, sizeof f);
  f.g.opcode = OP_FINISH;
  cb_push(cb, f);
  VTAFlushCache(cb->insns, VTAMemGetPhyAddr(cb->insns), cb->n * (int)sizeof(insn_t));
  int rc = VTADeviceRun(dev, VTAMemGetPhyAddr(cb->insns), (uint32_t)cb->n, 10000000);
  VTAInvalidateCache(t->c, VTAMemGetPhyAddr(t->c), M * NB * BLOCK);
  return rc;
}

/* The statistic named `name` of stats (vtasim_stat_name's order). */
static uint64_t stat(const uint64_t *stats, const char *name) {
  for (int i = 0; i < VTASIM_NSTATS; i++)
    if (!strcmp(vtasim_stat_name(i), name)) return stats[i];
  return 0;
}

/* The run just made: its cycles (ECNT) and its own statistics, the
 * device's totals after it minus before (`before` is updated). */
static uint64_t print_run(VTADeviceHandle dev, int sync, uint32_t insns,
                          uint64_t before[VTASIM_NSTATS]) {
  uint64_t now[VTASIM_NSTATS], run[VTASIM_NSTATS], cycles = 0;
  if (vtasim_device_stats(dev, now)) return 0;
  for (int i = 0; i < VTASIM_NSTATS; i++) run[i] = now[i] - before[i], before[i] = now[i];
  if (vtasim_device_last_cycles(dev, &cycles) == 1)
    printf("sync %d cycles %llu\n", sync, (unsigned long long)cycles);
  else printf("sync %d cycles none\n", sync);
  printf("sync %d insns %u gemm %llu alu %llu out_bytes %llu\n", sync, insns,
         (unsigned long long)stat(run, "gemm_counter"), (unsigned long long)stat(run, "alu_counter"),
         (unsigned long long)stat(run, "out_store_nbytes"));
  return cycles;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tvm_style_client OUT.bin\n");
    return 2;
  }
  VTADeviceHandle dev = VTADeviceAlloc();
  if (!dev) {
    fprintf(stderr, "tvm_style_client: VTADeviceAlloc failed: %s\n", vtasim_device_last_error(NULL));
    return 2;
  }
  tensors_t t;
  t.a = VTAMemAlloc(M * KB * BLOCK, VTA_CACHED);
  t.w = VTAMemAlloc(NB * KB * BLOCK * BLOCK, VTA_CACHED);
  t.c = VTAMemAlloc(M * NB * BLOCK, VTA_CACHED);
  cmdbuf_t cb = {0};
  cb.cap = 256;
  cb.insns = VTAMemAlloc((size_t)cb.cap * sizeof(insn_t), VTA_CACHED);
  if (!t.a || !t.w || !t.c || !cb.insns) return 2;
  /* Deterministic data covering the int8 range (a small LCG). */
  uint32_t seed = 12345;
  for (int i = 0; i < M * KB * BLOCK; i++) t.a[i] = (int8_t)((seed = seed * 1103515245u + 12345u) >> 16);
  for (int i = 0; i < NB * KB * BLOCK * BLOCK; i++) t.w[i] = (int8_t)((seed = seed * 1103515245u + 12345u) >> 16);
  memset(t.c, 0x5a, M * NB * BLOCK);

  /* The kernels, built once: GEMM over the M rows of input buffer b with
   * weight row b into accumulator rows 0..M-1; the ALU over those rows. */
  for (int b = 0; b < 2; b++) {
    kernel_init(&k_gemm[b], M, b * M);
    for (int i = 0; i < M; i++) {
      k_gemm[b].uops[i].dst = (uint32_t)i;
      k_gemm[b].uops[i].src = (uint32_t)(b * M + i);
      k_gemm[b].uops[i].wgt = (uint32_t)b;
    }
  }
  kernel_init(&k_alu, M, 2 * M);
  for (int i = 0; i < M; i++) k_alu.uops[i].dst = k_alu.uops[i].src = (uint32_t)i;

  uint64_t before[VTASIM_NSTATS] = {0}, total = 0, c;
  int rc = run_tiles(dev, &cb, &t, 0, NB / 2);
  if (rc) {
    fprintf(stderr, "tvm_style_client: VTADeviceRun returned %d (sync 0)\n", rc);
    return 2;
  }
  total += print_run(dev, 0, (uint32_t)cb.n, before);
  rc = run_tiles(dev, &cb, &t, NB / 2, NB);
  if (rc) {
    fprintf(stderr, "tvm_style_client: VTADeviceRun returned %d (sync 1)\n", rc);
    return 2;
  }
  total += print_run(dev, 1, (uint32_t)cb.n, before);
  if (vtasim_device_last_cycles(dev, &c) == 1)
    printf("total cycles %llu\n", (unsigned long long)total);

  /* The reference: 32-bit dot products, arithmetic shift, clip. */
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < NB * BLOCK; n++) {
      int32_t acc = 0;
      for (int k = 0; k < KB * BLOCK; k++) {
        int wi = ((n / BLOCK) * KB + k / BLOCK) * BLOCK * BLOCK + (n % BLOCK) * BLOCK + k % BLOCK;
        acc += (int32_t)t.a[m * KB * BLOCK + k] * (int32_t)t.w[wi];
      }
      acc >>= SHIFT;
      if (acc < -128) acc = -128;
      if (acc > 127) acc = 127;
      int8_t got = t.c[m * NB * BLOCK + n];
      if (got != (int8_t)acc && bad++ < 5)
        fprintf(stderr, "C[%d][%d] = %d, expected %d\n", m, n, got, acc);
    }
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(t.c, 1, M * NB * BLOCK, f) != M * NB * BLOCK || fclose(f)) {
    fprintf(stderr, "tvm_style_client: %s: write error\n", argv[1]);
    return 2;
  }
  printf("outputs %s\n", bad ? "differ from the reference" : "equal the reference");
  VTAMemFree(t.a);
  VTAMemFree(t.w);
  VTAMemFree(t.c);
  VTAMemFree(cb.insns);
  for (int b = 0; b < 2; b++) VTAMemFree(k_gemm[b].uops);
  VTAMemFree(k_alu.uops);
  VTADeviceFree(dev);
  return bad ? 1 : 0;
}
