/*
 * sweep_dir.c - the files of a sweep's directory and the command line of
 * its scheduler (sweep_dir.h).  The workers of a sweep (processes, Slurm
 * tasks on other nodes) read what others write, so every file is written
 * whole or not at all.
 */
#include "sweep_dir.h"

#include "vta_io.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep_spec.h"
#include "vta_io.h"

int vta_sweep_path(char *out, vta_err *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, PATH_MAX, fmt, ap);
  va_end(ap);
  if (n < 0 || n >= PATH_MAX) return vta_errf(e, VTA_EINPUT, "path too long");
  return 0;
}

int vta_sweep_write_atomic(const char *path, const char *text, vta_err *e) {
  vta_out_t o; /* the output policy (vta_io.h): a temporary renamed when whole */
  if (vta_out_open(&o, path, "", 0, e)) return -1;
  fputs(text, o.f); /* a failed write leaves ferror set */
  return vta_out_close(&o, 1, e);
}

int vta_sweep_mkdirs(const char *dir, vta_err *e) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(buf, 0777) && errno != EEXIST) goto bad;
      *p = '/';
    }
  if (!mkdir(buf, 0777) || errno == EEXIST) return 0;
bad:
  return vta_errf(e, VTA_EIO, "%s: cannot create the directory: %s", dir, strerror(errno));
}

int vta_sweep_write_points(const char *dir, const vta_sweep_spec_t *s, const char *version,
                           vta_err *e) {
  char path[PATH_MAX];
  if (vta_sweep_path(path, e, "%s/points.json", dir)) return -1;
  vta_out_t o = {0};
  if (vta_out_open(&o, path, "", 0, e)) return -1;
  /* written as expanded, through a temporary renamed when whole */
  int rc = vta_sweep_points_write(s, version, o.f, e);
  if (vta_out_close(&o, rc == 0, rc ? NULL : e)) rc = -1;
  return rc;
}

int vta_sweep_results_dir(const char *dir, char *rdir, vta_err *e) {
  if (vta_sweep_path(rdir, e, "%s/results", dir)) return -1;
  mkdir(rdir, 0777); /* a second worker finds it made: its writes tell */
  return 0;
}

/* scripts/sweep.py of the source tree this vtasim was built in (the binary
 * lives in BUILD/ or BUILD/san/), or $VTASIM_SWEEP_PY; self: this vtasim. */
static int find_script(char *out, size_t len, char *self, size_t slen) {
  ssize_t n = readlink("/proc/self/exe", self, slen - 1);
  if (n <= 0) return -1;
  self[n] = 0;
  const char *env = getenv("VTASIM_SWEEP_PY");
  if (env) {
    snprintf(out, len, "%s", env);
    return access(out, R_OK);
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", self);
  for (int up = 0; up < 4; up++) {
    char *slash = strrchr(dir, '/');
    if (!slash) break;
    *slash = 0;
    if (len >= PATH_MAX && !vta_sweep_path(out, NULL, "%s/scripts/sweep.py", dir) &&
        !access(out, R_OK))
      return 0;
  }
  return -1;
}

int vta_sweep_driver(vta_sweep_driver_t *d, char **args, int nargs, vta_err *e) {
  if (find_script(d->script, sizeof d->script, d->self, sizeof d->self))
    return vta_errf(e, VTA_EINPUT, "cannot find scripts/sweep.py beside this vtasim "
                    "(set VTASIM_SWEEP_PY)");
  int n = 0;
  d->argv[n++] = "python3";
  d->argv[n++] = d->script;
  d->argv[n++] = args[0];
  d->argv[n++] = "--vtasim";
  d->argv[n++] = d->self;
  for (int i = 1; i < nargs && n < 62; i++) d->argv[n++] = args[i];
  d->argv[n] = NULL;
  return 0;
}
