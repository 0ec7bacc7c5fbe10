/*
 * gen.h - `vtasim gen`: compiler-lite on the command line.  argv[0] is
 * "gen"; returns the process exit code (0 ok, 2 bad input or any error).
 */
#ifndef VTASIM_GEN_H
#define VTASIM_GEN_H

int vtasim_cmd_gen(int argc, char **argv);
/* `vtasim gen random` (cli/gen_random.c); same argv and exit codes. */
int vtasim_cmd_gen_random(int argc, char **argv);

#endif
