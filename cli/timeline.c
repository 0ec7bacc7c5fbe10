/*
 * timeline.c - `vtasim timeline INPUT [-o FILE] [run options]`: the
 * options, and where the trace comes from.  INPUT is a Chrome trace-event
 * file of `vtasim run --timeline` (or of a network run), or a program
 * bundle or network manifest, which is run here (as `vtasim run INPUT
 * --timeline TEMP`, with the run options given) into a temporary trace that
 * is removed afterwards.  Drawing the page is analysis/html_timeline.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "html_timeline.h"
#include "net.h"
#include "run_cmd.h"
#include "timeline.h"
#include "vta_err.h"
#include "vta_io.h"

enum { TL_OK = 0, TL_MISMATCH = 1, TL_BAD = 2 };

static const char timeline_help[] =
    "usage: vtasim timeline TIMELINE.json [-o timeline.html] [--title TEXT]\n"
    "       vtasim timeline PROGRAM.vta|NET.net [-o timeline.html] [--title TEXT] [run options]\n"
    "\n"
    "Write one self-contained interactive HTML page of a run's timeline, which\n"
    "opens offline in any browser (inline data and script, no request): a track\n"
    "per unit with a slice per instruction (hover or click: disassembly, queued,\n"
    "start and done cycles, stalls by cause, token waits and the token pushes and\n"
    "pops), the token, command-queue and bandwidth counters, token flow arrows,\n"
    "the layers of a network run; zoom and pan from the whole run to single\n"
    "cycles (wheel or w/s, drag or a/d, 0: whole run).  docs/report.md describes\n"
    "the page.\n"
    "\n"
    "The input is a --timeline file of `vtasim run`, or a program or network that\n"
    "is run on the model here (the run options, e.g. --engine rtl or --rd-lat 20,\n"
    "go to `vtasim run`; its report is printed as usual).\n"
    "\n"
    "  -o FILE            output (default timeline.html)\n"
    "  --title TEXT       the page's title (default: \"timeline of PROGRAM\")\n"
    "\n"
    "Exit status: 0 written, 1 the run's expectations failed (the page is written),\n"
    "2 bad input (unreadable or foreign trace, a run that failed to start).\n";

/* Is path a trace-event file (a JSON object) rather than a bundle? */
static int is_trace(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  int c;
  while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\r' || c == '\t') {}
  fclose(f);
  return c == '{';
}

/* Run INPUT with --timeline into tmp; the run's exit code. */
static int run_into(const char *in, const char *tmp, int nrun, char **runargs) {
  char **av = calloc((size_t)nrun + 6, sizeof *av);
  if (!av) return TL_BAD;
  int n = 0;
  av[n++] = "run";
  av[n++] = (char *)in;
  av[n++] = "--timeline";
  av[n++] = (char *)tmp;
  if (!vtasim_net_is_manifest(in)) av[n++] = "--quiet";
  for (int i = 0; i < nrun; i++) av[n++] = runargs[i];
  int rc = vtasim_cmd_run(n, av);
  free(av);
  return rc;
}

int vtasim_cmd_timeline(int argc, char **argv) {
  const char *outpath = "timeline.html", *title = NULL, *in = NULL;
  char **runargs = calloc((size_t)argc + 1, sizeof *runargs);
  int nrun = 0;
  if (!runargs) return TL_BAD;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(timeline_help, stdout);
      free(runargs);
      return TL_OK;
    } else if (!strcmp(a, "-o") && v) { outpath = v; i++; }
    else if (!strcmp(a, "--title") && v) { title = v; i++; }
    else if (a[0] == '-' && a[1]) runargs[nrun++] = argv[i]; /* for the run (checked there) */
    else if (!in) in = a;
    else if (nrun) runargs[nrun++] = argv[i]; /* a run option's value */
    else {
      free(runargs);
      return vtasim_usage("timeline", "one input only (at '%s')", a);
    }
  }
  if (!in) {
    free(runargs);
    return vtasim_usage("timeline", "%s", "missing TIMELINE.json, PROGRAM or NET.net");
  }
  vta_err e = {0};
  int rc = TL_BAD, runrc = TL_OK;
  char tmp[] = "/tmp/vtasim-timeline-XXXXXX";
  int made = 0;
  const char *trace = in;
  vta_file_t m = {0};
  vta_out_t out = {0};
  if (!is_trace(in)) {
    int fd = mkstemp(tmp);
    if (fd < 0) {
      vta_errf(&e, VTA_EIO, "cannot create a temporary file in /tmp");
      goto done;
    }
    close(fd);
    made = 1;
    runrc = run_into(in, tmp, nrun, runargs);
    if (runrc != TL_OK && runrc != TL_MISMATCH) { /* the run said why */
      rc = runrc;
      goto quiet;
    }
    trace = tmp;
  } else if (nrun) {
    rc = vtasim_usage("timeline", "run options (here '%s') need a program or network, not a "
                      "timeline file", runargs[0]);
    goto quiet;
  }
  if (vta_file_map(trace, &m, &e)) goto done;
  if (vta_out_open(&out, outpath, "-o", 0, &e)) goto done;
  vta_tl_stats_t st;
  if (vta_html_timeline(out.f, (const char *)m.data, m.len, trace == tmp ? in : trace, title, &st,
                        &e))
    goto done;
  if (vta_out_close(&out, 1, &e)) goto done;
  rc = runrc;
  printf("wrote %s: %llu cycles, %zu slices, %zu counter samples, %zu token flows", outpath,
         st.cycles, st.slices, st.counters, st.flows);
  if (st.layers) printf(", %zu layers", st.layers);
  putchar('\n');
done:
  if (rc == TL_BAD) fprintf(stderr, "vtasim: error: %s\n", e.msg);
quiet:
  vta_out_close(&out, 0, NULL);
  vta_file_unmap(&m);
  if (made) unlink(tmp);
  free(runargs);
  return rc;
}
