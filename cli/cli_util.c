/*
 * cli_util.c - see cli_util.h.
 */
#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>

int vtasim_usage(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "vtasim %s: ", cmd);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'vtasim %s --help'.\n", cmd);
  return 2;
}

long long vtasim_parse_count(const char *s) {
  char *end;
  if (!s || !*s || *s == '-') return -1;
  long long v = strtoll(s, &end, 0);
  return *end ? -1 : v;
}
