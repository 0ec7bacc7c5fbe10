/*
 * report.h - `vtasim report` (cli/report.c): one self-contained HTML page
 * from the JSON reports of `vtasim run --json` (programs and networks),
 * optionally compared with a baseline report.  Also the bottleneck verdict
 * rule of docs/report-json.md, shared with the network runner.
 */
#ifndef VTASIM_REPORT_H
#define VTASIM_REPORT_H

/* argv[0] is "report"; returns the exit code (0 written, 2 bad input). */
int vtasim_cmd_report(int argc, char **argv);

/* The verdict of docs/report-json.md from the three utilisations (0..1):
 * "compute", "memory" or "latency", with the deciding figure and its name. */
const char *vtasim_verdict(double issue_util, double rd_bw_util, double wr_bw_util,
                           double *figure, const char **figure_name);

#endif
