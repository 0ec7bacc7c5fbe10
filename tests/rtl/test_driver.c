/*
 * test_driver.c - vtasim's extensions of the driver API (driver/
 * vtasim_driver.h) on every engine: one small GEMM program run through
 * VTADeviceRun on model, functional, rtl and cosim gives the same outputs
 * (against a value computed here), the same per-run counters, and cycles
 * equal to the ECNT register; the counters of a run are its own while the
 * snapshot accumulates; a faulting run returns 2 and the device (RTL
 * included) takes the next run; a model and an RTL device work side by side
 * on the shared memory; each device writes the VTASIM_REPORT it was
 * allocated with; a capture of a run started with tokens held says so;
 * devices sharing a VTASIM_TIMELINE name get a file each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model_peek.h"
#include "vta_program.h"
#include "vta_vcr.h"
#include "vtasim_driver.h"

static const char *const engines[] = {"model", "functional", "rtl", "cosim"};

typedef struct prog {
  uint8_t *ins, *inp, *wgt, *uop, *out;
  int n; /* instructions of the good run; FIN-only run at index n, deadlock at n+1 */
} prog_t;

static vta_insn_t mem(uint32_t op, uint32_t type, uint32_t dram, int flags) {
  vta_insn_t in = {.opcode = op, .mem_type = type, .dram_base = dram, .y_size = 1, .x_size = 1,
                   .x_stride = 1};
  in.pop_prev = flags & 1, in.pop_next = (flags >> 1) & 1;
  in.push_prev = (flags >> 2) & 1, in.push_next = (flags >> 3) & 1;
  return in;
}
enum { PP = 1, PN = 2, SP = 4, SN = 8 };

/* out = inp x (3 I): load inp and wgt, push to compute; reset, GEMM; store. */
static void build(prog_t *p) {
  vta_config_t c;
  vta_config_default(&c);
  p->ins = VTAMemAlloc(16 * 16, 0), p->inp = VTAMemAlloc(16, 0), p->wgt = VTAMemAlloc(256, 0);
  p->uop = VTAMemAlloc(4, 0), p->out = VTAMemAlloc(16, 0);
  for (int k = 0; k < 16; k++) p->inp[k] = (uint8_t)(k - 8);
  for (int o = 0; o < 16; o++) p->wgt[o * 16 + o] = 3;
  vta_uop_t u = {0, 0, 0};
  vta_err e;
  CHECK_EQ(vta_uop_encode(&c, &u, p->uop, &e), 0);
  vta_insn_t gemm = {.opcode = VTA_OP_GEMM, .uop_end = 1, .iter_out = 1, .iter_in = 1};
  vta_insn_t reset = gemm;
  reset.reset_reg = 1;
  gemm.pop_prev = 1, gemm.push_next = 1;
  vta_insn_t fin = {.opcode = VTA_OP_FINISH};
  vta_insn_t fin_pn = fin;
  fin_pn.pop_next = 1;
  vta_insn_t stuck = fin;
  stuck.pop_prev = 1; /* waits for a load token nobody pushes: deadlock */
  vta_insn_t prog[] = {
      mem(VTA_OP_LOAD, VTA_MEM_INP, VTAMemGetPhyAddr(p->inp) / 16, 0),
      mem(VTA_OP_LOAD, VTA_MEM_WGT, VTAMemGetPhyAddr(p->wgt) / 256, SN),
      mem(VTA_OP_LOAD, VTA_MEM_UOP, VTAMemGetPhyAddr(p->uop) / 4, 0),
      reset,
      gemm,
      mem(VTA_OP_STORE, VTA_MEM_OUT, VTAMemGetPhyAddr(p->out) / 16, PP | SP),
      fin_pn,
      fin,
      stuck,
  };
  p->n = 7;
  for (int i = 0; i < 9; i++) CHECK_EQ(vta_insn_encode(&c, &prog[i], p->ins + 16 * i, &e), 0);
}

static void release(prog_t *p) {
  VTAMemFree(p->ins), VTAMemFree(p->inp), VTAMemFree(p->wgt), VTAMemFree(p->uop);
  VTAMemFree(p->out);
}

static VTADeviceHandle alloc_on(const char *engine) {
  setenv("VTASIM_ENGINE", engine, 1);
  VTADeviceHandle d = VTADeviceAlloc();
  CHECK_MSG(d != NULL, "VTADeviceAlloc on %s: %s", engine, vtasim_device_error(NULL));
  return d;
}

static void test_every_engine(void) {
  prog_t p;
  build(&p);
  uint64_t cycles[4] = {0};
  for (int k = 0; k < 4; k++) {
    VTADeviceHandle d = alloc_on(engines[k]);
    if (!d) continue;
    CHECK(!strcmp(vtasim_device_engine_name(d), engines[k]));
    CHECK((device_model(d) != NULL) == (k < 2));
    vtasim_run_info_t info;
    CHECK_EQ(vtasim_device_last_run(d, &info), -1);
    memset(p.out, 0, 16);
    for (int run = 0; run < 2; run++) {
      CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(p.ins), (uint32_t)p.n, 0), 0);
      for (int i = 0; i < 16; i++) CHECK_EQ((int8_t)p.out[i], 3 * (i - 8));
      CHECK_EQ(vtasim_device_last_run(d, &info), 0);
      CHECK_EQ(info.run, run);
      CHECK_EQ(info.status, 0);
      CHECK_EQ(info.insn_count, p.n);
      CHECK_EQ(info.stats.gemm_counter, 1); /* this run's, not the total */
      CHECK_EQ(info.stats.out_store_nbytes, 16);
      CHECK_EQ(info.has_cycles, k != 1);
      uint32_t ecnt = 0, gemm = 0;
      CHECK_EQ(vtasim_device_reg_read(d, VTA_VCR_ECNT, &ecnt), 0);
      CHECK_EQ(vtasim_device_reg_read(d, VTA_VCR_GEMM_COUNTER, &gemm), 0);
      CHECK_EQ(gemm, run + 1); /* the register accumulates */
      if (info.has_cycles) {
        CHECK(info.cycles > 0);
        CHECK_EQ(info.cycles, ecnt);
        CHECK_EQ(vtasim_device_cycles(d), info.cycles);
        CHECK_EQ(info.counters.runs, 1);
        CHECK_EQ(info.counters.cycles, info.cycles);
        CHECK_EQ(info.counters.gemm_uops, 2); /* reset + GEMM */
        if (run == 0) cycles[k] = info.cycles;
        else CHECK_EQ(info.cycles, cycles[k]);
      }
    }
    vta_engine_snapshot_t s;
    CHECK_EQ(vtasim_device_snapshot(d, &s), 0);
    CHECK_EQ(s.stats.gemm_counter, 2);
    if (s.has_cycles) CHECK_EQ(s.cycles.cycles, 2 * cycles[k]);
    vtasim_device_clear_stats(d);
    CHECK_EQ(vtasim_device_snapshot(d, &s), 0);
    CHECK_EQ(s.stats.gemm_counter, 0);
    VTADeviceFree(d);
  }
  CHECK_EQ(cycles[2], cycles[0]); /* rtl = model */
  CHECK_EQ(cycles[3], cycles[0]); /* cosim = model */
  release(&p);
}

/* A deadlock returns 2 with the message; the next run works (the RTL
 * refuses a launch over a run in progress: the driver resets it). */
static void test_fault_then_run(void) {
  prog_t p;
  build(&p);
  for (int k = 0; k < 4; k++) {
    VTADeviceHandle d = alloc_on(engines[k]);
    if (!d) continue;
    CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(p.ins) + 16 * 8, 1, 0), 2);
    CHECK_CONTAINS(vtasim_device_error(d), "deadlock");
    vtasim_run_info_t info;
    CHECK_EQ(vtasim_device_last_run(d, &info), 0);
    CHECK_EQ(info.status, 2);
    memset(p.out, 0, 16);
    CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(p.ins), (uint32_t)p.n, 0), 0);
    CHECK_EQ((int8_t)p.out[15], 21);
    CHECK(!strcmp(vtasim_device_error(d), ""));
    VTADeviceFree(d);
  }
  /* A handle that is no device. */
  CHECK_EQ(VTADeviceRun(NULL, 0, 1, 0), 2);
  CHECK_EQ(vtasim_device_cycles(NULL), 0);
  release(&p);
}

/* The directory DIR (a mkdtemp template) made, and PATH (N bytes) set to
 * DIR/NAME. */
static void temp_path(char *dir, char *path, size_t n, const char *name) {
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, n, "%s/%s", dir, name);
}

/* A model and an RTL device alive together on the shared memory, runs
 * interleaved; each device records into the report it was allocated with:
 * JSON Lines for a .jsonl name, else a JSON array valid after every run. */
static void test_two_devices_two_reports(void) {
  prog_t p;
  build(&p);
  char dir[] = "/tmp/vtasim_drv_XXXXXX", ra[64], rb[64];
  temp_path(dir, ra, sizeof ra, "a.jsonl");
  snprintf(rb, sizeof rb, "%s/b.json", dir);
  setenv("VTASIM_REPORT", ra, 1);
  VTADeviceHandle m = alloc_on("model");
  setenv("VTASIM_REPORT", rb, 1);
  VTADeviceHandle r = alloc_on("rtl");
  unsetenv("VTASIM_REPORT");
  if (m && r) {
    for (int i = 0; i < 3; i++) {
      CHECK_EQ(VTADeviceRun(i % 2 ? r : m, VTAMemGetPhyAddr(p.ins), (uint32_t)p.n, 0), 0);
      CHECK_EQ(VTADeviceRun(i % 2 ? m : r, VTAMemGetPhyAddr(p.ins), (uint32_t)p.n, 0), 0);
    }
    CHECK_EQ(vtasim_device_cycles(m), vtasim_device_cycles(r));
    FILE *in = fopen(ra, "r");
    char line[8192];
    int n = 0;
    while (in && fgets(line, sizeof line, in)) {
      n++;
      CHECK_CONTAINS(line, "\"engine\":\"model\"");
      CHECK_CONTAINS(line, "\"schema\":\"vtasim-driver-run/1\"");
      CHECK(line[strlen(line) - 1] == '\n');
    }
    CHECK_EQ(n, 3);
    if (in) fclose(in);
    /* The array: "[", each record on a line ending ',' but the last, "]". */
    in = fopen(rb, "r");
    const char *want[] = {"[\n", "{", "{", "{", "]\n"};
    for (n = 0; in && fgets(line, sizeof line, in); n++) {
      CHECK(n < 5);
      if (n >= 5) break;
      CHECK(!strncmp(line, want[n], strlen(want[n])));
      if (n >= 1 && n <= 3) {
        CHECK_CONTAINS(line, "\"engine\":\"rtl\"");
        CHECK_CONTAINS(line, n < 3 ? "},\n" : "}\n");
      }
    }
    CHECK_EQ(n, 5);
    if (in) fclose(in);
  }
  VTADeviceFree(m);
  VTADeviceFree(r);
  remove(ra), remove(rb), rmdir(dir);
  release(&p);
}

/* Run 0 leaves a g2l token (a compute NOP pushes it before FINISH); the
 * capture of run 1 records the tokens it started with. */
static void test_capture_tokens_in(void) {
  vta_config_t c;
  vta_config_default(&c);
  vta_err e;
  uint8_t *ins = VTAMemAlloc(64, 0);
  vta_insn_t nop = {.opcode = VTA_OP_LOAD, .mem_type = VTA_MEM_UOP, .push_prev = 1};
  vta_insn_t fin = {.opcode = VTA_OP_FINISH};
  CHECK_EQ(vta_insn_encode(&c, &nop, ins, &e), 0);
  CHECK_EQ(vta_insn_encode(&c, &fin, ins + 16, &e), 0);
  char dir[] = "/tmp/vtasim_cap_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  setenv("VTASIM_CAPTURE", dir, 1);
  VTADeviceHandle d = alloc_on("model");
  if (d) {
    CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(ins), 2, 0), 0);
    CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(ins) + 16, 1, 0), 0);
    vtasim_run_info_t info;
    CHECK_EQ(vtasim_device_last_run(d, &info), 0);
    CHECK_EQ(info.tokens_in[VTA_Q_G2L], 1);
    char path[512], text[65536];
    snprintf(path, sizeof path, "%s/dev%d-run0001.vta", dir, info.device);
    FILE *in = fopen(path, "r");
    size_t n = in ? fread(text, 1, sizeof text - 1, in) : 0;
    text[n] = '\0';
    if (in) fclose(in);
    CHECK_CONTAINS(text, ".meta tokens-in l2g=0 g2l=1 g2s=0 s2g=0");
    CHECK_CONTAINS(text, ".meta run 1");
    /* The replay of run 0 is a program bundle like any other. */
    snprintf(path, sizeof path, "%s/dev%d-run0000.vta", dir, info.device);
    vta_program_t prog;
    CHECK_EQ(vta_program_load(&prog, path, &e), 0);
    CHECK_EQ(prog.nruns, 1);
    CHECK_EQ(prog.nsegs, 1); /* the instructions only: nothing else touched */
    vta_program_free(&prog);
    remove(path);
    snprintf(path, sizeof path, "%s/dev%d-run0001.vta", dir, info.device);
    remove(path);
  }
  unsetenv("VTASIM_CAPTURE");
  VTADeviceFree(d);
  rmdir(dir);
  VTAMemFree(ins);
}

/* Two devices naming one VTASIM_TIMELINE: the first gets the path, the
 * second the path with ".dev<N>" before its extension; both complete. */
static void test_timeline_per_device(void) {
  prog_t p;
  build(&p);
  char dir[] = "/tmp/vtasim_tl_XXXXXX", path[128], second[160];
  temp_path(dir, path, sizeof path, "t.json");
  setenv("VTASIM_TIMELINE", path, 1);
  VTADeviceHandle a = alloc_on("model"), b = alloc_on("rtl");
  unsetenv("VTASIM_TIMELINE");
  if (a && b) {
    CHECK_EQ(VTADeviceRun(a, VTAMemGetPhyAddr(p.ins), (uint32_t)p.n, 0), 0);
    CHECK_EQ(VTADeviceRun(b, VTAMemGetPhyAddr(p.ins), (uint32_t)p.n, 0), 0);
    vtasim_run_info_t info;
    CHECK_EQ(vtasim_device_last_run(b, &info), 0);
    snprintf(second, sizeof second, "%s/t.dev%d.json", dir, info.device);
  }
  VTADeviceFree(a);
  VTADeviceFree(b);
  const char *files[2] = {path, second};
  for (int f = 0; f < 2 && a && b; f++) {
    FILE *in = fopen(files[f], "r");
    CHECK_MSG(in != NULL, "%s missing", files[f]);
    char text[1 << 16];
    size_t n = in ? fread(text, 1, sizeof text - 1, in) : 0;
    text[n] = '\0';
    if (in) fclose(in);
    CHECK_CONTAINS(text, "\"traceEvents\":[");
    CHECK_CONTAINS(text, "\"name\":\"GEMM\"");
    CHECK(n > 3 && !strcmp(text + n - 3, "]}\n")); /* closed at VTADeviceFree */
    remove(files[f]);
  }
  rmdir(dir);
  release(&p);
}

int main(void) {
  unsetenv("VTASIM_CONFIG");
  unsetenv("VTASIM_INJECT");
  unsetenv("VTASIM_REPORT");
  unsetenv("VTASIM_TRACE");
  unsetenv("VTASIM_CAPTURE");
  unsetenv("VTASIM_TIMELINE");
  RUN(test_every_engine);
  RUN(test_fault_then_run);
  RUN(test_two_devices_two_reports);
  RUN(test_capture_tokens_in);
  RUN(test_timeline_per_device);
  return TEST_SUMMARY();
}
