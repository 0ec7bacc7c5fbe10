/*
 * report.c - `vtasim report RUN.json... [--baseline OTHER.json] -o FILE`:
 * the options, then the page.  Reading the JSON reports of `vtasim run
 * --json` and drawing the self-contained HTML page from them are
 * analysis/'s (run_docs.h, html_report.h); this file opens the output so
 * that a failed page never replaces an existing one.
 */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "html_report.h"
#include "html_timeline.h"
#include "report.h"
#include "run_docs.h"
#include "vta_err.h"
#include "vta_io.h"
#include "vta_profile.h"

enum { REP_OK = 0, REP_BAD = 2 };

static const char *hr_basename_of(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static const char report_help[] =
    "usage: vtasim report RUN.json... [--baseline OTHER.json] [--timeline TL.json]... [-o report.html]\n"
    "\n"
    "Write one self-contained HTML page (inline CSS and SVG: no script, font or\n"
    "request) from JSON reports of `vtasim run --json` (programs, schema\n"
    "vtasim-run/2, and networks, vtasim-net/1): summary and bottleneck verdict,\n"
    "speed-of-light bars, the configuration's roofline with the program's point\n"
    "(one per layer for a network), per-unit cycle breakdown, opcode classes and\n"
    "top instructions, a timeline minimap; per-layer table and wall time per\n"
    "engine for networks; the driver's VTASIM_REPORT records (.jsonl or a JSON\n"
    "array, docs/driver.md) as a run list.  docs/report.md describes the page.\n"
    "\n"
    "  -o FILE            output (default report.html)\n"
    "  --baseline FILE    compare every report with this one: both values and the\n"
    "                     delta of every figure\n"
    "  --title TEXT       the page's title\n"
    "  --clock-mhz N      clock for runs whose JSON states none (100)\n"
    "  --timeline FILE    the interactive timeline of the next report without one\n"
    "                     (repeatable, in the reports' order): a --timeline file of\n"
    "                     vtasim run, drawn by vtasim timeline into OUT.timelineN.html\n"
    "                     beside the page, or such a page (.html), linked as given\n"
    "\n"
    "Every report is checked first: strict JSON, a run or network report (another\n"
    "kind of file is named: a timeline, a driver's records, a sweep's files), every\n"
    "field the page uses present, finite and in range; a baseline of the same kind\n"
    "(and for a network, the same layers and shapes).\n"
    "\n"
    "Exit status: 0 written, 2 bad input (unreadable file, not a run report, a\n"
    "field missing or out of range, a baseline that cannot be compared).\n";

typedef struct report_opts {
  const char *outpath, *basepath;
  const char *files[VTA_RUN_DOCS_MAX];
  int nfiles;
  const char *timelines[VTA_RUN_DOCS_MAX];
  int ntimelines;
  char hrefs[VTA_RUN_DOCS_MAX][4096];
  vta_html_opts_t html;
} report_opts_t;

/* 0 to go on, else the exit code (help printed, or a usage error). */
static int parse_opts(int argc, char **argv, report_opts_t *o) {
  *o = (report_opts_t){.outpath = "report.html", .html = {"vtasim report", 100}};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(report_help, stdout); return -1; }
    else if (!strcmp(a, "-o") && v) { o->outpath = v; i++; }
    else if (!strcmp(a, "--baseline") && v) { o->basepath = v; i++; }
    else if (!strcmp(a, "--title") && v) { o->html.title = v; i++; }
    else if (!strcmp(a, "--timeline") && v) {
      if (o->ntimelines == VTA_RUN_DOCS_MAX)
        return vtasim_usage("report", "more than 16 timelines (at '%s')", v);
      o->timelines[o->ntimelines++] = v;
      i++;
    }
    else if (!strcmp(a, "--clock-mhz") && v) {
      long long c = vtasim_parse_count(v);
      if (c < VTA_PROF_CLOCK_MIN_MHZ || c > VTA_PROF_CLOCK_MAX_MHZ) /* run's range */
        return vtasim_usage("report", "--clock-mhz expects MHz from 1 to 1000000, got '%s'", v);
      o->html.clock_mhz = (double)c;
      i++;
    } else if (a[0] == '-' && a[1]) return vtasim_usage("report", "unknown option or missing value '%s'", a);
    else if (o->nfiles == VTA_RUN_DOCS_MAX) return vtasim_usage("report", "more than 16 reports (at '%s')", a);
    else o->files[o->nfiles++] = a;
  }
  if (!o->nfiles) return vtasim_usage("report", "%s", "missing RUN.json (the output of vtasim run --json)");
  if (o->ntimelines > o->nfiles)
    return vtasim_usage("report", "more --timeline files than reports (at '%s')",
                        o->timelines[o->nfiles]);
  return 0;
}

/* Report i's timeline: a page as given, or a trace drawn beside the output
 * (OUT without .html, then .timelineI.html) and linked by its file name. */
static int timeline_page(report_opts_t *o, int i, vta_err *e) {
  const char *t = o->timelines[i];
  size_t n = strlen(t);
  if (n > 5 && !strcmp(t + n - 5, ".html")) {
    snprintf(o->hrefs[i], sizeof o->hrefs[i], "%s", t);
    o->html.timeline[i] = o->hrefs[i];
    return 0;
  }
  char path[4096];
  const char *out = strcmp(o->outpath, "-") ? o->outpath : "report.html";
  size_t k = strlen(out);
  if (k > 5 && !strcmp(out + k - 5, ".html")) k -= 5;
  snprintf(path, sizeof path, "%.*s.timeline%d.html", (int)k, out, i);
  vta_file_t m = {0};
  vta_out_t f = {0};
  int rc = -1;
  if (vta_file_map(t, &m, e) || vta_out_open(&f, path, "--timeline", 0, e)) goto done;
  if (vta_html_timeline(f.f, (const char *)m.data, m.len, t, NULL, NULL, e)) goto done;
  if (vta_out_close(&f, 1, e)) goto done;
  printf("wrote %s\n", path);
  snprintf(o->hrefs[i], sizeof o->hrefs[i], "%s", hr_basename_of(path));
  o->html.timeline[i] = o->hrefs[i];
  rc = 0;
done:
  vta_out_close(&f, 0, NULL);
  vta_file_unmap(&m);
  return rc;
}

int vtasim_cmd_report(int argc, char **argv) {
  report_opts_t o;
  int rc = parse_opts(argc, argv, &o);
  if (rc) return rc < 0 ? REP_OK : rc;
  vta_err e = {0};
  vta_run_docs_t set;
  vta_out_t out = {0};
  rc = REP_BAD;
  if (vta_run_docs_read(&set, o.files, o.nfiles, o.basepath, &e)) goto done;
  for (int i = 0; i < o.ntimelines; i++)
    if (timeline_page(&o, i, &e)) goto done;
  /* vta_io: never over an input (same inode) or a device; written next to
   * the target and renamed when complete: never a half page */
  if (vta_out_open(&out, o.outpath, "-o", 0, &e)) goto done;
  vta_html_report(out.f, &set, &o.html);
  if (vta_out_close(&out, 1, &e)) goto done;
  rc = REP_OK;
done:
  vta_out_close(&out, 0, NULL); /* after a failure: the temporary is discarded */
  vta_run_docs_free(&set);
  if (rc) fprintf(stderr, "vtasim: error: %s\n", e.msg);
  else printf("wrote %s\n", o.outpath);
  return rc;
}
