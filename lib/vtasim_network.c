/*
 * vtasim_network.c - the public C API's whole networks (include/vtasim.h,
 * vtasim_network_run, vtasim_network_gen): a network manifest run by
 * network/vta_net.c, the runner behind `vtasim run NET.net`, so that its
 * report is the command's --json report; and written by network/net_gen.c,
 * as `vtasim gen resnet18` and `vtasim gen net` write it.  The options are
 * read here; everything else is the network layer's.
 */
#include <stdlib.h>
#include <string.h>

#include "vta_config.h"
#include "vta_io.h"
#include "vta_net.h"
#include "vta_params.h"
#include "vtasim.h"
#include "vtasim_lib.h"

static const char *const net_run_keys[] = {"skip_exec", "jobs", "clock_mhz", "output",
                                           "host_output", "compare", NULL};

/* The keys of o: the run's own (net_run_keys) and the timing parameters
 * (vta_params[], as vtasim_program_run takes them) into *timing; -1 naming
 * an unknown key or a bad value. */
static int run_keys(const cJSON *o, const char *what, vta_params_t *timing) {
  vta_params_default(timing);
  for (const cJSON *c = o->child; c; c = c->next) {
    const char *k = c->string;
    int own = 0;
    for (int i = 0; net_run_keys[i] && !own; i++) own = !strcmp(k, net_run_keys[i]);
    if (own) continue;
    const int t = lib_opt_timing(o, what, k, timing);
    if (t) {
      if (t < 0) return -1;
      continue;
    }
    char keys[1024];
    lib_timing_keys(keys, sizeof keys);
    for (int i = 0; net_run_keys[i]; i++) {
      const size_t n = strlen(keys);
      snprintf(keys + n, sizeof keys - n, "%s%s", net_run_keys[i],
               net_run_keys[i + 1] ? ", " : "");
    }
    return lib_failf(VTASIM_EINPUT, "%s: unknown option '%s' (known: %s)", what, k, keys);
  }
  return 0;
}

/* A path option: *out the string (absent: NULL), or -1 naming the key. */
static int opt_path(const cJSON *o, const char *what, const char *key, const char **out) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
  *out = NULL;
  if (!c) return 0;
  if (!cJSON_IsString(c) || !c->valuestring[0])
    return lib_failf(VTASIM_EINPUT, "%s: option '%s' expects a file name", what, key);
  *out = c->valuestring;
  return 0;
}

/* The clock in MHz: a number (as --clock-mhz takes it; the runner checks
 * its range). */
static int opt_clock(const cJSON *o, const char *what, double *out) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "clock_mhz");
  if (!c) return 0;
  if (!cJSON_IsNumber(c))
    return lib_failf(VTASIM_EINPUT, "%s: option 'clock_mhz' expects a number of MHz", what);
  *out = c->valuedouble;
  return 0;
}

char *vtasim_network_run(const char *manifest, const char *engine, const char *options) {
  const char *what = "vtasim_network_run";
  if (!manifest || !manifest[0]) {
    lib_failf(VTASIM_EINPUT, "%s: no manifest", what);
    return NULL;
  }
  vta_err e = {0};
  const vta_engine_kind_t *kind = vta_engine_find(engine ? engine : "model", &e);
  if (!kind) {
    lib_fail(&e);
    return NULL;
  }
  cJSON *o = lib_options(options, what);
  if (!o) return NULL;
  long long skip = 0, jobs = 0;
  vta_params_t timing;
  vta_net_opts_t no = {.manifest = manifest, .kind = kind, .timing = &timing, .clock_mhz = 100};
  if (run_keys(o, what, &timing) ||
      lib_opt_int(o, what, "skip_exec", 0, 1, &skip, NULL) ||
      lib_opt_int(o, what, "jobs", 1, 64, &jobs, NULL) || opt_clock(o, what, &no.clock_mhz) ||
      opt_path(o, what, "output", &no.output) ||
      opt_path(o, what, "host_output", &no.host_output) ||
      opt_path(o, what, "compare", &no.compare)) {
    cJSON_Delete(o);
    return NULL;
  }
  no.skip_exec = (int)skip;
  no.jobs = (long)jobs;
  vta_net_result_t r;
  vta_net_run(&no, &r);
  /* The outputs are this call's: a later call may write them again. */
  if (no.output) vta_out_release(no.output);
  if (no.host_output) vta_out_release(no.host_output);
  cJSON_Delete(o);
  char *txt = NULL;
  if (r.rc == VTA_NET_OK || r.rc == VTA_NET_MISMATCH) {
    txt = cJSON_Print(r.report);
    if (!txt) lib_failf(VTASIM_ENOMEM, "out of memory");
  } else {
    lib_fail(&r.e);
  }
  vta_net_result_free(&r);
  return txt;
}

static const char *const net_gen_keys[] = {"size", "width_div", "seed", "fuse_residual",
                                           "config", NULL};

char *vtasim_network_gen(const char *description, const char *dir, const char *options) {
  const char *what = "vtasim_network_gen";
  if (!dir || !dir[0]) {
    lib_failf(VTASIM_EINPUT, "%s: no directory", what);
    return NULL;
  }
  cJSON *o = lib_options(options, what);
  if (!o) return NULL;
  long long size = 56, div = 1, seed = 1, fuse = 0;
  const char *config = NULL;
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_err e = {0};
  if (lib_options_known(o, what, net_gen_keys) ||
      lib_opt_int(o, what, "size", 1, 100000, &size, NULL) ||
      lib_opt_int(o, what, "width_div", 1, 100000, &div, NULL) ||
      lib_opt_int(o, what, "seed", 0, 1LL << 53, &seed, NULL) ||
      lib_opt_int(o, what, "fuse_residual", 0, 1, &fuse, NULL) ||
      opt_path(o, what, "config", &config) ||
      (config && vta_config_load_json(&cfg, config, &e) && lib_fail(&e))) {
    cJSON_Delete(o);
    return NULL;
  }
  const vta_net_gen_opts_t g = {.dir = dir, .desc = description && description[0] ? description : NULL,
                                .size = (int)size, .width_div = (int)div,
                                .seed = (uint64_t)seed, .fuse = (int)fuse, .config = &cfg};
  char *manifest = NULL;
  if (vta_net_gen(&g, &manifest, &e)) lib_fail(&e);
  cJSON_Delete(o);
  return manifest;
}
