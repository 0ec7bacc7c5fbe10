/*
 * net_timeline.h - one timeline for a whole network run (`vtasim run
 * NET.net --timeline FILE`): each layer's run is watched by its own
 * profiler into a temporary trace, which is then appended to the one file
 * with its cycles shifted after the layers before it, its token flow ids
 * renumbered, and a slice on a "layers" track naming the layer
 * (docs/report-json.md).
 */
#ifndef VTASIM_NET_TIMELINE_H
#define VTASIM_NET_TIMELINE_H

#include "vta_err.h"
#include "vta_profile.h"
#include "vta_session.h"

typedef struct vtasim_net_tl vtasim_net_tl_t;

/* Open path for the network's timeline (never over an input); NULL with e. */
vtasim_net_tl_t *vtasim_net_tl_open(const char *path, const char *network, vta_err *e);

/* Watch layer `name`'s session s (before it runs) with the options po
 * (their timeline stream is replaced); rtl: the engine is the RTL, which
 * this watch stops at Ctrl-C (the models stop themselves); 0 or -1 with e. */
int vtasim_net_tl_begin(vtasim_net_tl_t *t, vta_session_t *s, const vta_config_t *cfg,
                        const vta_params_t *params, const vta_prof_opts_t *po, const char *name,
                        int rtl, vta_err *e);

/* After the layer's run (finished or stopped): append its trace. */
int vtasim_net_tl_end(vtasim_net_tl_t *t, vta_err *e);

/* Complete the file (a layer still open is appended as far as it ran) and
 * close it: ok 0 discards it.  Returns 0 or -1 with e; frees t. */
int vtasim_net_tl_close(vtasim_net_tl_t *t, int ok, vta_err *e);

#endif
