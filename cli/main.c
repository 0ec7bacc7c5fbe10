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

#include "vta_config.h"
#include "vta_io.h"
#include "vta_isa.h"
#include "vta_model.h"
#include "vta_program.h"
#include "vta_session.h"

#define VTASIM_VERSION "0.1.0"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD = 2 };

static const char *prog_name = "vtasim";

static int fail(const vta_err *e) {
  fprintf(stderr, "%s: error: %s\n", prog_name, e->msg);
  return EXIT_BAD;
}

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "%s %s: ", prog_name, cmd);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry '%s %s --help'.\n", prog_name, cmd);
  return EXIT_BAD;
}

/* Parse a non-negative integer option value; -1 if it is not one. */
static long long parse_count(const char *s) {
  char *end;
  if (!s || !*s || *s == '-') return -1;
  long long v = strtoll(s, &end, 0);
  return *end ? -1 : v;
}

static FILE *open_out(const char *path, const char *mode, vta_err *e) {
  if (!path || !strcmp(path, "-")) return stdout;
  FILE *f = fopen(path, mode);
  if (!f) vta_errf(e, VTA_EIO, "%s: cannot open for writing", path);
  return f;
}

static int close_out(FILE *f, const char *path, vta_err *e) {
  int bad = ferror(f);
  if (f == stdout) bad |= fflush(f) != 0;
  else bad |= fclose(f) != 0;
  return bad ? vta_errf(e, VTA_EIO, "%s: write error", path ? path : "stdout") : 0;
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
    else if (argv[i][0] == '-' && argv[i][1]) return usage_error("asm", "unknown option '%s'", argv[i]);
    else if (!in) in = argv[i];
    else return usage_error("asm", "unexpected argument '%s'", argv[i]);
  }
  if (!in) return usage_error("asm", "%s", "missing input FILE");
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
  FILE *f = open_out(out, "wb", &e);
  if (!f) { rc = fail(&e); goto done; }
  if (raw) {
    vta_segment_t *s = vta_program_find(&p, raw);
    if (!s) {
      vta_errf(&e, VTA_EINPUT, "%s: no segment named '%s'", in, raw);
      rc = fail(&e);
    } else if (fwrite(s->data, 1, s->size, f) != s->size) {
      vta_errf(&e, VTA_EIO, "%s: write error", out);
      rc = fail(&e);
    }
  } else if (vta_program_write_binary(&p, f, &e)) {
    rc = fail(&e);
  }
  if (close_out(f, out, &e) && rc == EXIT_OK) rc = fail(&e);
  if (rc != EXIT_OK && f != stdout) remove(out); /* no half-written output */
done:
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
    else if (argv[i][0] == '-' && argv[i][1]) return usage_error("dis", "unknown option '%s'", argv[i]);
    else if (!in) in = argv[i];
    else return usage_error("dis", "unexpected argument '%s'", argv[i]);
  }
  if (!in) return usage_error("dis", "%s", "missing input FILE");
  vta_err e = {0};
  int rc = EXIT_OK;
  if (raw) {
    vta_config_t cfg;
    vta_config_default(&cfg);
    if (cfgpath && vta_config_load_json(&cfg, cfgpath, &e)) return fail(&e);
    uint8_t *data;
    size_t len;
    if (vta_read_file(in, &data, &len, &e)) return fail(&e);
    FILE *f = open_out(out, "w", &e);
    if (!f) { free(data); return fail(&e); }
    int r = raw == 1 ? vta_disasm_insns(&cfg, data, len, f, in, &e)
                     : vta_disasm_uops(&cfg, data, len, f, in, &e);
    free(data);
    if (r) rc = fail(&e);
    if (close_out(f, out, &e) && rc == EXIT_OK) rc = fail(&e);
    return rc;
  }
  if (cfgpath) return usage_error("dis", "%s", "--config applies only to --raw-insn/--raw-uop "
                                  "(a bundle names its own configuration)");
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) return fail(&e);
  FILE *f = open_out(out, "w", &e);
  if (!f) rc = fail(&e);
  else {
    if (vta_program_write_text(&p, f, &e)) rc = fail(&e);
    if (close_out(f, out, &e) && rc == EXIT_OK) rc = fail(&e);
  }
  vta_program_free(&p);
  return rc;
}

/* ---- run ------------------------------------------------------------------ */

static const char run_help[] =
    "usage: vtasim run FILE [options]\n"
    "\n"
    "Run a program bundle (text or binary) on the model: map its segments into\n"
    "device memory, launch each of its .run lines, then check its expectations.\n"
    "Prints the VTA statistics as a table, or as JSON with --json.\n"
    "\n"
    "  --engine functional   the functional reference model (the only engine so far)\n"
    "  --json                machine-readable report on stdout (schema vtasim-run/1)\n"
    "  --quiet               no report; only errors and failed expectations\n"
    "  --dump SEG=PATH       after the run, write segment SEG's bytes to PATH\n"
    "                        (repeatable)\n"
    "  --cmd-queue N         command-queue depth per unit (default 512)\n"
    "  --token-queue N       dependency-token queue capacity (default 1024)\n"
    "  --max-insns N         stop with an error after N executed instructions\n"
    "\n"
    "Exit status: 0 all expectations hold, 1 an expectation failed,\n"
    "2 bad input or a fault in the program (deadlock, out-of-range access...).\n";

#define MAX_DUMPS 32

static cJSON *stats_json(const vta_stats_t *s) {
  cJSON *o = cJSON_CreateObject();
  for (int i = 0; i < VTA_NSTATS; i++) {
    uint64_t v = 0;
    vta_stats_get(s, vta_stats_names[i], &v, NULL);
    cJSON_AddNumberToObject(o, vta_stats_names[i], (double)v);
  }
  return o;
}

static void print_table(const char *file, const vta_program_t *p, const vta_model_t *m,
                        int failed) {
  char name[64];
  vta_config_name(&p->cfg, name, sizeof name);
  printf("vtasim run %s\n", file);
  printf("  config %s, engine functional, %d run%s, %d expectation%s\n\n", name, p->nruns,
         p->nruns == 1 ? "" : "s", p->nexpects, p->nexpects == 1 ? "" : "s");
  printf("  %-18s %16s\n", "statistic", "value");
  const vta_stats_t *s = vta_model_stats(m);
  for (int i = 0; i < VTA_NSTATS; i++) {
    uint64_t v = 0;
    vta_stats_get(s, vta_stats_names[i], &v, NULL);
    printf("  %-18s %16llu\n", vta_stats_names[i], (unsigned long long)v);
  }
  uint32_t t[4];
  vta_model_tokens(m, t);
  printf("\n  tokens left: l2g %u, g2l %u, g2s %u, s2g %u\n", t[0], t[1], t[2], t[3]);
  if (p->nexpects)
    printf("  expectations: %d passed, %d failed\n", p->nexpects - failed, failed);
}

static int cmd_run(int argc, char **argv) {
  const char *in = NULL, *engine = "functional";
  const char *dumps[MAX_DUMPS];
  int ndumps = 0, json = 0, quiet = 0;
  vta_model_params_t params;
  vta_model_params_default(&params);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(run_help, stdout); return EXIT_OK; }
    else if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (!strcmp(a, "--engine") && v) { engine = v; i++; }
    else if (!strcmp(a, "--dump") && v) {
      if (ndumps == MAX_DUMPS) return usage_error("run", "%s", "too many --dump options");
      if (!strchr(v, '=')) return usage_error("run", "--dump expects SEG=PATH, got '%s'", v);
      dumps[ndumps++] = v;
      i++;
    } else if ((!strcmp(a, "--cmd-queue") || !strcmp(a, "--token-queue") ||
                !strcmp(a, "--max-insns")) && v) {
      long long n = parse_count(v);
      if (n < 0 || n > 0xffffffffll || (n == 0 && strcmp(a, "--max-insns")))
        return usage_error("run", "expected a positive number, got '%s'", v);
      if (!strcmp(a, "--cmd-queue")) params.cmd_queue_depth = (uint32_t)n;
      else if (!strcmp(a, "--token-queue")) params.token_queue_depth = (uint32_t)n;
      else params.max_insns = (uint64_t)n;
      i++;
    } else if (a[0] == '-' && a[1]) return usage_error("run", "unknown option or missing value '%s'", a);
    else if (!in) in = a;
    else return usage_error("run", "unexpected argument '%s'", a);
  }
  if (!in) return usage_error("run", "%s", "missing input FILE");
  if (strcmp(engine, "functional"))
    return usage_error("run", "unknown engine '%s' (available: functional)", engine);

  vta_err e = {0};
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) return fail(&e);
  int rc = EXIT_OK, failed = 0, ran = 0;
  char *report = NULL;
  size_t report_len = 0;
  vta_session_t *s = vta_session_new(&p, &params, &e);
  if (!s) { rc = fail(&e); goto out; }
  if (vta_session_run(s, &e)) {
    rc = EXIT_BAD;
    if (!json) fail(&e);
  } else {
    ran = 1;
    FILE *rep = open_memstream(&report, &report_len);
    failed = vta_session_check(s, rep ? rep : stderr);
    if (rep) fclose(rep);
    if (failed) rc = EXIT_MISMATCH;
    if (!json && report && report_len) fputs(report, stderr);
    for (int i = 0; i < ndumps && rc != EXIT_BAD; i++) {
      char seg[VTA_NAME_LEN];
      const char *eq = strchr(dumps[i], '=');
      snprintf(seg, sizeof seg, "%.*s", (int)(eq - dumps[i]), dumps[i]);
      uint32_t size;
      uint8_t *bytes = vta_session_segment(s, seg, &size);
      FILE *f = bytes ? fopen(eq + 1, "wb") : NULL;
      if (!bytes) vta_errf(&e, VTA_EINPUT, "--dump: no segment named '%s' in %s", seg, in);
      else if (!f) vta_errf(&e, VTA_EIO, "--dump: %s: cannot open for writing", eq + 1);
      else if (fwrite(bytes, 1, size, f) != size) vta_errf(&e, VTA_EIO, "--dump: %s: write error", eq + 1);
      if (f && fclose(f) && !e.msg[0]) vta_errf(&e, VTA_EIO, "--dump: %s: write error", eq + 1);
      if (e.msg[0]) rc = fail(&e);
    }
  }
  if (json) {
    cJSON *o = cJSON_CreateObject();
    char cname[64];
    vta_config_name(&p.cfg, cname, sizeof cname);
    cJSON_AddStringToObject(o, "schema", "vtasim-run/1");
    cJSON_AddStringToObject(o, "vtasim", VTASIM_VERSION);
    cJSON_AddStringToObject(o, "program", in);
    cJSON_AddStringToObject(o, "config", cname);
    cJSON_AddStringToObject(o, "engine", engine);
    cJSON_AddStringToObject(o, "status", rc == EXIT_OK ? "ok" : rc == EXIT_MISMATCH ? "mismatch" : "error");
    if (rc == EXIT_BAD) cJSON_AddStringToObject(o, "error", e.msg);
    cJSON_AddNumberToObject(o, "exit_code", rc);
    vta_model_t *m = s ? vta_session_model(s) : NULL;
    if (m) {
      cJSON_AddItemToObject(o, "stats", stats_json(vta_model_stats(m)));
      uint32_t t[4];
      vta_model_tokens(m, t);
      cJSON *tok = cJSON_AddObjectToObject(o, "tokens");
      const char *qn[4] = {"l2g", "g2l", "g2s", "s2g"};
      for (int q = 0; q < 4; q++) cJSON_AddNumberToObject(tok, qn[q], t[q]);
    }
    cJSON *ex = cJSON_AddObjectToObject(o, "expectations");
    cJSON_AddNumberToObject(ex, "total", p.nexpects);
    cJSON_AddBoolToObject(ex, "checked", ran);
    cJSON_AddNumberToObject(ex, "failed", failed);
    cJSON *fl = cJSON_AddArrayToObject(ex, "failures");
    for (char *line = report, *nl; line && *line; line = nl + 1) {
      nl = strchr(line, '\n');
      if (!nl) { cJSON_AddItemToArray(fl, cJSON_CreateString(line)); break; }
      *nl = '\0';
      cJSON_AddItemToArray(fl, cJSON_CreateString(line));
    }
    char *txt = cJSON_Print(o);
    if (txt) puts(txt);
    free(txt);
    cJSON_Delete(o);
  } else if (!quiet && ran) {
    print_table(in, &p, vta_session_model(s), failed);
  }
  free(report);
  vta_session_free(s);
out:
  vta_program_free(&p);
  return rc;
}

/* ---- config ---------------------------------------------------------------- */

static const char config_help[] =
    "usage: vtasim config [--config vta_config.json] [--json]\n"
    "\n"
    "Print a hardware configuration (default 1x16_i8w8a32_15_15_18_17) with\n"
    "every derived constant and the instruction field layout.\n";

static int cmd_config(int argc, char **argv) {
  const char *path = NULL;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(config_help, stdout); return EXIT_OK; }
    else if (!strcmp(argv[i], "--config") && i + 1 < argc) path = argv[++i];
    else if (!strcmp(argv[i], "--json")) json = 1;
    else return usage_error("config", "unexpected argument '%s'", argv[i]);
  }
  vta_config_t c;
  vta_err e = {0};
  vta_config_default(&c);
  if (path && vta_config_load_json(&c, path, &e)) return fail(&e);
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
    "usage: vtasim COMMAND [options]      (vtasim COMMAND --help for details)\n"
    "\n"
    "commands:\n"
    "  asm     assemble a text program bundle into the binary bundle\n"
    "  dis     disassemble a bundle, or raw instruction/micro-op bytes, to text\n"
    "  run     run a bundle on the model, check its expectations, print statistics\n"
    "  config  print a hardware configuration and its instruction layout\n"
    "\n"
    "exit status: 0 ok, 1 an expectation failed, 2 bad input or error\n";

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(main_help, stderr);
    return EXIT_BAD;
  }
  const char *c = argv[1];
  if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
    fputs(main_help, stdout);
    return EXIT_OK;
  }
  if (!strcmp(c, "--version")) {
    puts("vtasim " VTASIM_VERSION);
    return EXIT_OK;
  }
  if (!strcmp(c, "asm")) return cmd_asm(argc - 1, argv + 1);
  if (!strcmp(c, "dis")) return cmd_dis(argc - 1, argv + 1);
  if (!strcmp(c, "run")) return cmd_run(argc - 1, argv + 1);
  if (!strcmp(c, "config")) return cmd_config(argc - 1, argv + 1);
  fprintf(stderr, "%s: unknown command '%s'\n\n", prog_name, c);
  fputs(main_help, stderr);
  return EXIT_BAD;
}
