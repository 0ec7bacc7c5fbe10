/*
 * report.h - `vtasim report` (cli/report.c): one self-contained HTML page
 * from the JSON reports of `vtasim run --json` (programs and networks),
 * optionally compared with a baseline report.
 */
#ifndef VTASIM_REPORT_H
#define VTASIM_REPORT_H

/* argv[0] is "report"; returns the exit code (0 written, 2 bad input). */
int vtasim_cmd_report(int argc, char **argv);

#endif
