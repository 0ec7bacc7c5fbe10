/*
 * sweep.h - `vtasim sweep` (cli/sweep.c): design-space sweeps.
 */
#ifndef VTASIM_SWEEP_H
#define VTASIM_SWEEP_H

int vtasim_cmd_sweep(int argc, char **argv);

#endif
