/*
 * lint.c - `vtasim lint BUNDLE`: report every place where the program's
 * result would depend on which VTA implementation runs it (isa/vta_lint.h,
 * docs/lint.md).  Exit status 0 clean, 1 findings, 2 bad input.
 */
#include "lint.h"

#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "vta_lint.h"

static const char lint_help[] =
    "usage: vtasim lint FILE [--json] [--quiet]\n"
    "\n"
    "Check a program bundle for behaviour that differs between VTA\n"
    "implementations: VTA's HLS design (the FPGA bitstreams and its vta()\n"
    "C-simulation entry point), its Chisel design, and vtasim.  Every finding\n"
    "names the run, the instruction, its source line and what each\n"
    "implementation does; docs/lint.md lists the behaviours and their sources.\n"
    "\n"
    "  --json    machine-readable report (schema vtasim-lint/1)\n"
    "  --quiet   only the exit status and the summary line\n"
    "\n"
    "Exit status: 0 clean, 1 findings, 2 bad input.\n";

int vtasim_cmd_lint(int argc, char **argv) {
  const char *in = NULL;
  int json = 0, quiet = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(lint_help, stdout);
      return 0;
    } else if (!strcmp(argv[i], "--json")) json = 1;
    else if (!strcmp(argv[i], "--quiet")) quiet = 1;
    else if (argv[i][0] == '-' && argv[i][1]) return vtasim_usage("lint", "unknown option '%s'", argv[i]);
    else if (!in) in = argv[i];
    else return vtasim_usage("lint", "unexpected argument '%s'", argv[i]);
  }
  if (!in) return vtasim_usage("lint", "%s", "missing input FILE");
  vta_err e = {0};
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) {
    fprintf(stderr, "vtasim: error: %s\n", e.msg);
    return 2;
  }
  vta_lint_t l;
  int rc = vta_lint_program(&p, &l, &e);
  vta_program_free(&p);
  if (rc) {
    fprintf(stderr, "vtasim: error: %s\n", e.msg);
    return 2;
  }
  if (json) vta_lint_print_json(&l, in, stdout);
  else if (!quiet) vta_lint_print(&l, in, stdout);
  else if (l.n) printf("%s: %d finding%s\n", in, l.n, l.n == 1 ? "" : "s");
  rc = l.n ? 1 : 0;
  vta_lint_free(&l);
  return rc;
}

int vtasim_lint_gate(const vta_program_t *p, const char *file) {
  vta_err e = {0};
  vta_lint_t l;
  if (vta_lint_program(p, &l, &e)) {
    fprintf(stderr, "vtasim: error: %s\n", e.msg);
    return 2;
  }
  if (l.n) vta_lint_print(&l, file, stderr);
  int rc = l.n ? 1 : 0;
  vta_lint_free(&l);
  return rc;
}
