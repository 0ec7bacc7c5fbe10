/*
 * timeline.h - `vtasim timeline` (cli/timeline.c): the offline interactive
 * HTML timeline of a run, from its --timeline file or straight from a
 * program or network run.
 */
#ifndef VTASIM_TIMELINE_H
#define VTASIM_TIMELINE_H

/* argv[0] is "timeline"; returns the exit code (0 written, 1 the run's
 * expectations failed (the page is still written), 2 bad input). */
int vtasim_cmd_timeline(int argc, char **argv);

#endif
