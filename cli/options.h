/*
 * options.h - the one table of the options that run, run of a network and
 * cosim take: each option's name, argument, help line, the commands that
 * take it, the engines that honour it and how its value is checked.  The
 * commands parse with it, print their option help from it, and refuse an
 * option the chosen engine cannot honour (never ignore it), all in words
 * written once here.  The timing parameters come from model/platform/vta_params.h's
 * own table (vta_params[]).
 */
#ifndef VTASIM_OPTIONS_H
#define VTASIM_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "vta_engine.h"
#include "vta_params.h"
#include "watch.h"

/* The commands of the table. */
enum { VTASIM_CMD_RUN = 1, VTASIM_CMD_NET = 2, VTASIM_CMD_COSIM = 4, VTASIM_CMD_SWEEP = 8 };

/* The engines an option is honoured by. */
typedef enum {
  VTASIM_ENG_ALL = 0, /* every engine */
  VTASIM_ENG_CYCLES,  /* the engines with cycles: model, rtl, cosim */
  VTASIM_ENG_RTL,     /* the engines with the RTL: rtl, cosim */
  VTASIM_ENG_COSIM,   /* co-simulation only */
  VTASIM_ENG_SKIP     /* the engines that time a run without its values (kind->skip_exec) */
} vtasim_eng_t;

#define VTASIM_MAX_DUMPS 32

/* Everything the commands' options say. */
typedef struct vtasim_opts {
  int cmd;                         /* VTASIM_CMD_* being parsed */
  const char *name;                /* the command's name in messages: "run", "cosim" */
  const char *in;                  /* the input FILE */
  const char *engine;              /* --engine [model] */
  int json, quiet, lint, races, races_given, stats, no_windows, no_attr;
  const char *trace, *wave, *output;
  const char *host_output, *compare; /* run NET.net: --host-output, --compare */
  uint64_t wave_from, wave_to;
  long long wave_window;           /* cosim: --wave-window N */
  const char *dut, *inject;        /* cosim: --dut, --inject */
  int last;                        /* cosim: --last N */
  const char *dumps[VTASIM_MAX_DUMPS];
  int ndumps;
  vta_params_t params;
  vtasim_watch_opts_t watch;       /* --timeline, --clock-mhz, ... --progress */
  uint32_t given[2];               /* bit i: table row i was given */
  int timing;                      /* a memory timing parameter was given */
  const char *param_opt;           /* the first timing parameter given ("--rd-lat") */
  struct {                         /* sweep: how the points run (docs/sweep.md) */
    const char *dir, *partition;
    long jobs, confirm, limit, chunk;
    int slurm, no_wait;
    int jobs_given;                /* -j was given (a network's layers at once) */
  } sweep;
} vtasim_opts_t;

/* The defaults of cmd (races on for cosim; a sweep's points in parallel
 * on every core, at most --limit points (1000), 4 per Slurm task). */
void vtasim_opts_default(vtasim_opts_t *o, int cmd);

/* Parse argv[1..] for cmd ("run" or "cosim" in messages).  Returns -1 when
 * the command goes on, else the exit status: 0 after --help (help_fn
 * printed it, told what was parsed before it: run's help for a network
 * manifest is the network runner's), 2 after a usage error (printed). */
int vtasim_opts_parse(vtasim_opts_t *o, int cmd, const char *name, int argc, char **argv,
                      void (*help_fn)(const vtasim_opts_t *o));

/* The options given that `kind` cannot honour, or that a network manifest
 * does not take (net), refused with a usage error naming them: 2, else 0. */
int vtasim_opts_check(const vtasim_opts_t *o, const char *name, const vta_engine_kind_t *kind,
                      int net);

/* The help lines of cmd's options, each with the engines that honour it;
 * as a string to free (for a help text's "%s"; "" when out of memory). */
void vtasim_opts_help(FILE *f, int cmd);
char *vtasim_opts_help_text(int cmd);

#endif
