/*
 * lint.h - `vtasim lint` (cli/lint.c) and the lint gate of `vtasim run --lint`.
 */
#ifndef VTASIM_LINT_CMD_H
#define VTASIM_LINT_CMD_H

#include "vta_program.h"

/* argv[0] is "lint"; returns the exit code: 0 clean, 1 findings, 2 bad input. */
int vtasim_cmd_lint(int argc, char **argv);

/* Lint a loaded program; findings are printed to stderr.  Returns 0 clean,
 * 1 findings, 2 error (printed). */
int vtasim_lint_gate(const vta_program_t *p, const char *file);

#endif
