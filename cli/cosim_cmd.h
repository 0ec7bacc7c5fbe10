/*
 * cosim_cmd.h - `vtasim cosim`: lockstep co-simulation of the model and a
 * second implementation on the command line, with digests, a recheck event
 * by event and a waveform window (`vtasim run --engine cosim` runs the
 * "cosim" engine like any other engine).  argv[0] is the command's name;
 * returns the process exit code (0 the sides agree, 1 they diverge or an
 * expectation failed, 2 bad input or any other error).
 */
#ifndef VTASIM_COSIM_CMD_H
#define VTASIM_COSIM_CMD_H

int vtasim_cmd_cosim(int argc, char **argv);

#endif
