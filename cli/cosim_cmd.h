/*
 * cosim_cmd.h - `vtasim cosim` (and `vtasim run --engine cosim`): lockstep
 * co-simulation on the command line.  argv[0] is the command's name;
 * returns the process exit code (0 the sides agree, 1 they diverge or an
 * expectation failed, 2 bad input or any other error).
 */
#ifndef VTASIM_COSIM_CMD_H
#define VTASIM_COSIM_CMD_H

int vtasim_cmd_cosim(int argc, char **argv);
/* `vtasim run ARGS` names --engine cosim: 1 if so. */
int vtasim_run_is_cosim(int argc, char **argv);
/* `vtasim run ... --engine cosim ...`: the same as `vtasim cosim`. */
int vtasim_cmd_run_cosim(int argc, char **argv);

#endif
