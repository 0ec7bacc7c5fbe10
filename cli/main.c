/*
 * main.c - the vtasim command line: a thin layer over libvtasim.
 *
 * Every subcommand parses its options, calls the libraries the tests call,
 * and maps outcomes to stable exit codes: 0 ok, 1 an expectation failed,
 * 2 bad input or any other error.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__ /* (defined by the headers above) */
#include <malloc.h>
#endif

#include "vta_config.h"
#include "vta_io.h"
#include "vta_isa.h"
#include "vta_params.h"
#include "vta_stats.h"
#include "vta_program.h"
#include "vta_diag.h"
#include "vta_races.h"
#include "vta_report.h"
#include "vta_session.h"
#include "cli_util.h"
#include "gen.h"
#include "cosim_cmd.h"
#include "run_cmd.h"
#include "net.h"
#include "report.h"
#include "verilog.h"
#include "lint.h"
#include "sweep.h"
#include "timeline.h"
#include "watch.h"
#include "vta_profile.h"
#include "vta_engines.h"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD = 2 };

static const char *prog_name = "vtasim";

static int fail(const vta_err *e) {
  fprintf(stderr, "%s: error: %s\n", prog_name, e->msg);
  return EXIT_BAD;
}


/* ---- asm ------------------------------------------------------------------ */

static const char asm_help[] =
    "usage: vtasim asm FILE.vta [-o OUT.vtb] [--raw SEGMENT]\n"
    "\n"
    "Assemble a text program bundle (docs/trace-format.md) into the binary\n"
    "bundle, which holds the instructions and micro-ops exactly as VTA reads\n"
    "them from DRAM (16-byte instructions, 4-byte micro-ops).\n"
    "\n"
    "  -o FILE        output file (default: FILE with .vtb, '-' for stdout)\n"
    "  --raw SEGMENT  write only the bytes of one segment (e.g. the instruction\n"
    "                 stream) instead of the whole bundle\n";

static int cmd_asm(int argc, char **argv) {
  const char *in = NULL, *out = NULL, *raw = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(asm_help, stdout); return EXIT_OK; }
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--raw") && i + 1 < argc) raw = argv[++i];
    else if (argv[i][0] == '-' && argv[i][1]) return vtasim_usage("asm", "unknown option '%s'", argv[i]);
    else if (!in) in = argv[i];
    else return vtasim_usage("asm", "unexpected argument '%s'", argv[i]);
  }
  if (!in) return vtasim_usage("asm", "%s", "missing input FILE");
  vta_err e = {0};
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) return fail(&e);
  char defout[4096];
  if (!out) {
    const char *dot = strrchr(in, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - in) : strlen(in);
    snprintf(defout, sizeof defout, "%.*s.%s", (int)stem, in, raw ? "bin" : "vtb");
    out = defout;
  }
  int rc = EXIT_OK;
  if (raw) {
    vta_segment_t *seg = vta_program_find(&p, raw);
    if (!seg) {
      vta_errf(&e, VTA_EINPUT, "%s: no segment named '%s'", in, raw);
      rc = fail(&e);
    } else if (vta_out_write(out, "", seg->data, seg->size, &e)) {
      rc = fail(&e);
    }
  } else if (vta_program_save(&p, out, 1, &e)) {
    rc = fail(&e);
  }
  vta_program_free(&p);
  return rc;
}

/* ---- dis ------------------------------------------------------------------ */

static const char dis_help[] =
    "usage: vtasim dis FILE [-o OUT.vta]\n"
    "       vtasim dis --raw-insn FILE.bin [--config vta_config.json]\n"
    "       vtasim dis --raw-uop FILE.bin [--config vta_config.json]\n"
    "\n"
    "Disassemble a bundle (binary or text) into the canonical text form, in\n"
    "which every instruction field is named; assembling that text gives back\n"
    "the same binary.  With --raw-insn / --raw-uop, disassemble a raw stream\n"
    "of 16-byte instructions or 4-byte micro-ops for a configuration (default\n"
    "1x16_i8w8a32_15_15_18_17).\n";

static int cmd_dis(int argc, char **argv) {
  const char *in = NULL, *out = NULL, *cfgpath = NULL;
  int raw = 0; /* 1 insn, 2 uop */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(dis_help, stdout); return EXIT_OK; }
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--config") && i + 1 < argc) cfgpath = argv[++i];
    else if (!strcmp(argv[i], "--raw-insn")) raw = 1;
    else if (!strcmp(argv[i], "--raw-uop")) raw = 2;
    else if (argv[i][0] == '-' && argv[i][1]) return vtasim_usage("dis", "unknown option '%s'", argv[i]);
    else if (!in) in = argv[i];
    else return vtasim_usage("dis", "unexpected argument '%s'", argv[i]);
  }
  if (!in) return vtasim_usage("dis", "%s", "missing input FILE");
  vta_err e = {0};
  int rc = EXIT_OK;
  if (raw) {
    vta_config_t cfg;
    vta_config_default(&cfg);
    if (cfgpath && vta_config_load_json(&cfg, cfgpath, &e)) return fail(&e);
    uint8_t *data;
    size_t len;
    if (vta_read_file(in, &data, &len, &e)) return fail(&e);
    vta_out_t o;
    if (vta_out_open(&o, out, "", 0, &e)) { free(data); return fail(&e); }
    int r = raw == 1 ? vta_disasm_insns(&cfg, data, len, o.f, in, &e)
                     : vta_disasm_uops(&cfg, data, len, o.f, in, &e);
    free(data);
    if (vta_out_close(&o, !r, &e) || r) rc = fail(&e);
    return rc;
  }
  if (cfgpath) return vtasim_usage("dis", "%s", "--config applies only to --raw-insn/--raw-uop "
                                  "(a bundle names its own configuration)");
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) return fail(&e);
  if (vta_program_save(&p, out, 0, &e)) rc = fail(&e);
  vta_program_free(&p);
  return rc;
}

/* ---- config ---------------------------------------------------------------- */

static const char config_help[] =
    "usage: vtasim config [--config vta_config.json] [--json]\n"
    "       vtasim config --verilog [--config vta_config.json] [timing options]\n"
    "\n"
    "Print a hardware configuration (default 1x16_i8w8a32_15_15_18_17) with\n"
    "every derived constant and the instruction field layout.  With --verilog,\n"
    "print the RTL's parameter header (rtl/ includes it as vta_params.vh): the\n"
    "configuration, the field layouts, the timing parameters (the options of\n"
    "`vtasim run`, e.g. --max-burst 16) and the register map.\n";

static int cmd_config(int argc, char **argv) {
  const char *path = NULL;
  int json = 0, verilog = 0;
  vta_params_t params;
  vta_params_default(&params);
  vta_err e = {0};
  char cmdline[1024] = "vtasim config"; /* quoted by the generated header */
  for (int i = 1; i < argc; i++) {
    size_t n = strlen(cmdline);
    snprintf(cmdline + n, sizeof cmdline - n, " %s", argv[i]);
  }
  for (int i = 1; i < argc; i++) {
    const vta_param_info_t *pi = argv[i][0] == '-' ? vta_param_find(argv[i]) : NULL;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(config_help, stdout); return EXIT_OK; }
    else if (!strcmp(argv[i], "--config") && i + 1 < argc) path = argv[++i];
    else if (!strcmp(argv[i], "--json")) json = 1;
    else if (!strcmp(argv[i], "--verilog")) verilog = 1;
    else if (pi && i + 1 < argc) { /* a timing option, as `vtasim run` takes it */
      long long v = vtasim_parse_count(argv[++i]);
      if (v < 0) return vtasim_usage("config", "expected a number, got '%s'", argv[i]);
      if (vta_params_set(&params, pi->name, (uint64_t)v, &e)) return vtasim_usage("config", "%s", e.msg);
    } else return vtasim_usage("config", "unexpected argument '%s'", argv[i]);
  }
  vta_config_t c;
  vta_config_default(&c);
  if (path && vta_config_load_json(&c, path, &e)) return fail(&e);
  if (verilog) return vtasim_config_verilog(stdout, &c, &params, cmdline, &e) ? fail(&e) : EXIT_OK;
  char name[64];
  vta_config_name(&c, name, sizeof name);
  struct { const char *k; long v; } d[] = {
      {"INP_ELEM_BYTES", c.inp_elem_bytes}, {"WGT_ELEM_BYTES", c.wgt_elem_bytes},
      {"ACC_ELEM_BYTES", c.acc_elem_bytes}, {"OUT_ELEM_BYTES", c.out_elem_bytes},
      {"UOP_BUFF_DEPTH", c.uop_depth},      {"INP_BUFF_DEPTH", c.inp_depth},
      {"WGT_BUFF_DEPTH", c.wgt_depth},      {"ACC_BUFF_DEPTH", c.acc_depth},
      {"OUT_BUFF_DEPTH", c.out_depth},      {"BATCH", c.batch},
      {"BLOCK_IN", c.block_in},             {"BLOCK_OUT", c.block_out}};
  const int nd = (int)(sizeof d / sizeof d[0]);
  if (json) {
    cJSON *o = cJSON_CreateObject(), *u = cJSON_AddObjectToObject(o, "parameters"),
          *dv = cJSON_AddObjectToObject(o, "derived"), *lay = cJSON_AddObjectToObject(o, "layout");
    cJSON_AddStringToObject(o, "name", name);
    for (int i = 0; vta_config_keys[i]; i++) {
      long v = 0;
      vta_config_get(&c, vta_config_keys[i], &v, NULL);
      cJSON_AddNumberToObject(u, vta_config_keys[i], v);
    }
    for (int i = 0; i < nd; i++) cJSON_AddNumberToObject(dv, d[i].k, d[i].v);
    for (uint32_t op = 0; op < 5; op++) {
      vta_layout_t l;
      if (op == VTA_OP_STORE || vta_insn_layout(&c, op, &l, NULL)) continue;
      cJSON *fo = cJSON_AddObjectToObject(lay, op == VTA_OP_LOAD ? "LOAD/STORE" : vta_opcode_name(op));
      for (int i = 0; i < l.nfields; i++) {
        cJSON *b = cJSON_CreateIntArray((const int[]){l.f[i].lsb, l.f[i].width}, 2);
        cJSON_AddItemToObject(fo, l.f[i].name, b);
      }
    }
    char *t = cJSON_Print(o);
    if (t) puts(t);
    free(t);
    cJSON_Delete(o);
    return EXIT_OK;
  }
  printf("configuration %s\n", name);
  for (int i = 0; vta_config_keys[i]; i++) {
    long v = 0;
    vta_config_get(&c, vta_config_keys[i], &v, NULL);
    printf("  %-18s %ld\n", vta_config_keys[i], v);
  }
  for (int i = 0; i < nd; i++) printf("  %-18s %ld\n", d[i].k, d[i].v);
  for (uint32_t op = 0; op < 5; op++) {
    vta_layout_t l;
    if (op == VTA_OP_STORE || vta_insn_layout(&c, op, &l, NULL)) continue;
    printf("\n  %s fields (bits hi:lo)\n", op == VTA_OP_LOAD ? "LOAD/STORE" : vta_opcode_name(op));
    for (int i = 0; i < l.nfields; i++)
      printf("    %-16s %3d:%-3d\n", l.f[i].name, l.f[i].lsb + l.f[i].width - 1, l.f[i].lsb);
  }
  return EXIT_OK;
}

/* ---- top level ---------------------------------------------------------------- */

static const char main_help[] =
    "vtasim " VTASIM_VERSION " - a simulator of VTA, the deep-learning accelerator of Apache TVM\n"
    "\n"
    "usage: vtasim COMMAND [options]      (vtasim COMMAND --help, or vtasim help COMMAND,\n"
    "                                      for details)\n"
    "\n"
    "commands:\n"
    "  asm     assemble a text program bundle into the binary bundle\n"
    "  dis     disassemble a bundle, or raw instruction/micro-op bytes, to text\n"
    "  run     run a bundle on the cycle-accurate model (or the functional one),\n"
    "          check its expectations, print statistics and cycle counts\n"
    "  cosim   run a bundle on the model and a second implementation (the RTL) in\n"
    "          lockstep, report the first cycle where they differ\n"
    "  config  print a hardware configuration and its instruction layout\n"
    "  lint    report what in a bundle would behave differently on VTA's HLS\n"
    "          or Chisel designs (docs/lint.md)\n"
    "  gen     generate a GEMM or conv2d workload bundle the way TVM's VTA stack does,\n"
    "          or ResNet-18's layers as a network (gen resnet18)\n"
    "  report  an HTML report (roofline, stalls, baseline comparison) from run --json\n"
    "  timeline  an interactive HTML timeline that opens offline, from run --timeline\n"
    "          or straight from a run\n"
    "  sweep   sweep configurations, timing and workloads: cycles, verdicts, Pareto\n"
    "          fronts, RTL-confirmed points, locally or as a Slurm job array\n"
    "\n"
    "exit status: 0 ok, 1 an expectation failed, 2 bad input or error\n";

int main(int argc, char **argv) {
#ifdef __GLIBC__
  /* A command allocates and frees the same large buffers again and again
   * (a network's bundles, sessions and scratchpads, one layer after
   * another): keep them in the heap for reuse rather than mapping and
   * returning them to the kernel each time, which costs a page fault and
   * a cleared page for every 4 KiB touched. */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
  if (argc < 2) {
    fputs(main_help, stderr);
    return EXIT_BAD;
  }
  const char *c = argv[1];
  char *help_args[3];
  if (!strcmp(c, "help") && argc == 3) { /* vtasim help CMD: CMD's own help */
    help_args[0] = argv[0];
    help_args[1] = argv[2];
    help_args[2] = "--help";
    argv = help_args;
    argc = 3;
    c = argv[1];
    if (!strcmp(c, "help")) argc = 2; /* vtasim help help: the overview */
  }
  if (argc > 3 && !strcmp(c, "help")) {
    fprintf(stderr, "%s: usage: vtasim help [COMMAND]\n", prog_name);
    return EXIT_BAD;
  }
  if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
    fputs(main_help, stdout);
    return EXIT_OK;
  }
  if (!strcmp(c, "--version")) {
    puts("vtasim " VTASIM_VERSION);
    return EXIT_OK;
  }
  if (!strcmp(c, "asm")) return vtasim_finish(cmd_asm(argc - 1, argv + 1));
  if (!strcmp(c, "dis")) return vtasim_finish(cmd_dis(argc - 1, argv + 1));
  if (!strcmp(c, "run")) return vtasim_finish(vtasim_cmd_run(argc - 1, argv + 1));
  if (!strcmp(c, "gen")) return vtasim_finish(vtasim_cmd_gen(argc - 1, argv + 1));
  if (!strcmp(c, "lint")) return vtasim_finish(vtasim_cmd_lint(argc - 1, argv + 1));
  if (!strcmp(c, "cosim")) return vtasim_finish(vtasim_cmd_cosim(argc - 1, argv + 1));
  if (!strcmp(c, "config")) return vtasim_finish(cmd_config(argc - 1, argv + 1));
  if (!strcmp(c, "report")) return vtasim_finish(vtasim_cmd_report(argc - 1, argv + 1));
  if (!strcmp(c, "timeline")) return vtasim_finish(vtasim_cmd_timeline(argc - 1, argv + 1));
  if (!strcmp(c, "sweep")) return vtasim_finish(vtasim_cmd_sweep(argc - 1, argv + 1));
  fprintf(stderr, "%s: unknown command '%s'\n\n", prog_name, c);
  fputs(main_help, stderr);
  return EXIT_BAD;
}
