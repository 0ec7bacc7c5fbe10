/*
 * run_cmd.h - `vtasim run` (run_cmd.c).
 */
#ifndef VTASIM_RUN_CMD_H
#define VTASIM_RUN_CMD_H

int vtasim_cmd_run(int argc, char **argv);

#endif
