/*
 * cli_util.c - see cli_util.h.
 */
#include "cli_util.h"

#include <errno.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_io.h"
#include "vta_program.h"

#include "vta_params.h"
#include "vta_stats.h"

int vtasim_usage(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "vtasim %s: ", cmd);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'vtasim %s --help'.\n", cmd);
  return 2;
}

long long vtasim_parse_count(const char *s) {
  char *end;
  if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return -1;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  return *end ? -1 : errno == ERANGE ? -2 : v; /* 2^64+5 is no count, not "huge" */
}

int vtasim_finish(int rc) {
  vta_err e;
  if (vta_stdout_check(&e) == 0) return rc;
  fprintf(stderr, "vtasim: error: %s\n", e.msg);
  return 2;
}

double vtasim_ratio(double a, double b) { return b > 0 ? a / b : 0; }

void vtasim_param_help(char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < vta_nparams && n < len; i++) {
    const vta_param_info_t *pi = &vta_params[i];
    char left[64];
    snprintf(left, sizeof left, "%s N", pi->option);
    n += (size_t)snprintf(buf + n, len - n, "  %-22s%s [%u]\n", left, pi->name, pi->def);
  }
}

