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

/* A bundle no reader would accept is not written: what gen, asm and dis
 * write obeys the size limit of every input (VTA_FILE_MAX_BYTES), the one
 * vtasim run applies. */
static int too_big(const char *path, uint64_t n, const char *form, vta_err *e) {
  return vta_errf(e, VTA_EINPUT, "%s: the %s bundle would be %llu bytes, more than the "
                  VTA_FILE_MAX_TEXT " limit of every input file (vtasim run could not read "
                  "it): choose a smaller workload", path && strcmp(path, "-") ? path : "stdout",
                  form, (unsigned long long)n);
}

int vtasim_write_program(const vta_program_t *p, const char *path, int binary, vta_err *e) {
  uint8_t *bin;
  size_t n;
  if (vta_program_to_binary(p, &bin, &n, e)) return -1;
  /* the text form holds the same bytes, in hexadecimal: larger still */
  if (n > VTA_FILE_MAX_BYTES) {
    free(bin);
    return too_big(path, n, binary ? "binary" : "text", e);
  }
  vta_out_t o;
  if (vta_out_open(&o, path, "", binary, e)) {
    free(bin);
    return -1;
  }
  int bad = 0;
  if (binary) fwrite(bin, 1, n, o.f); /* a short write leaves ferror set */
  else bad = vta_program_write_text(p, o.f, e);
  free(bin);
  if (bad) {
    vta_out_close(&o, 0, NULL);
    return vta_err_prefix(e, "%s: ", path && strcmp(path, "-") ? path : "stdout");
  }
  off_t at = o.tmp ? ftello(o.f) : -1; /* a regular file's size so far */
  if (at > (off_t)VTA_FILE_MAX_BYTES) {
    vta_out_close(&o, 0, NULL);
    return too_big(path, (uint64_t)at, "text", e);
  }
  return vta_out_close(&o, 1, e);
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

