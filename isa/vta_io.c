/*
 * vta_io.c - see vta_io.h.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "vta_io.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- inputs ------------------------------------------------------------------ */

typedef struct input {
  dev_t dev;
  ino_t ino;
  char *path;
} input_t;

/* Per thread: the files this thread's command read (a library user's other
 * threads are none of its business).  Reachable until the thread ends
 * (thread_lists_free), or the process. */
static _Thread_local input_t *inputs;
static _Thread_local size_t ninputs, cap_inputs;

static void thread_lists_free(void *unused);

/* A thread that keeps a list has it freed when it ends (a command's worker
 * threads load files too); the key's value only makes the destructor run. */
static pthread_key_t lists_key;
static pthread_once_t lists_once = PTHREAD_ONCE_INIT;
static void lists_key_make(void) { (void)pthread_key_create(&lists_key, thread_lists_free); }
static void lists_kept(void) {
  if (!pthread_once(&lists_once, lists_key_make)) (void)pthread_setspecific(lists_key, &lists_key);
}

static void note_input(const struct stat *st, const char *path) {
  for (size_t i = 0; i < ninputs; i++)
    if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino) return;
  if (ninputs == cap_inputs) {
    if (!cap_inputs) lists_kept();
    size_t cap = cap_inputs ? 2 * cap_inputs : 8;
    input_t *n = realloc(inputs, cap * sizeof *n);
    if (!n) return; /* best effort: the output check then knows less */
    inputs = n;
    cap_inputs = cap;
  }
  char *copy = strdup(path);
  if (!copy) return;
  inputs[ninputs++] = (input_t){st->st_dev, st->st_ino, copy};
}

void vta_io_note_input(const char *path) {
  struct stat st;
  if (path && !stat(path, &st) && !S_ISCHR(st.st_mode)) note_input(&st, path);
}

int vta_io_is_input(const char *path, const char **as) {
  struct stat st;
  /* a character device (/dev/null, a terminal) read and written is no
   * file destroyed */
  if (!path || stat(path, &st) || S_ISCHR(st.st_mode)) return 0;
  for (size_t i = 0; i < ninputs; i++)
    if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
      if (as) *as = inputs[i].path;
      return 1;
    }
  return 0;
}

static int too_big(const char *path, vta_err *err) {
  return vta_errf(err, VTA_EINPUT, "%s: more than the " VTA_FILE_MAX_TEXT " limit of an input "
                  "file (an endless file such as /dev/zero?)", path);
}

/* Opens an input and applies the checks every reader shares: not a
 * directory, a regular file within the size limit.  Remembers the file. */
static int open_input(const char *path, FILE **fp, struct stat *st, vta_err *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return vta_errf(err, VTA_EIO, "%s: cannot open: %s", path, strerror(errno));
  if (fstat(fileno(f), st)) {
    int e = errno;
    fclose(f);
    return vta_errf(err, VTA_EIO, "%s: cannot open: %s", path, strerror(e));
  }
  if (S_ISDIR(st->st_mode)) {
    fclose(f);
    return vta_errf(err, VTA_EIO, "%s: is a directory, expected a file", path);
  }
  /* A regular file is judged by its size before a byte is read. */
  if (S_ISREG(st->st_mode) && (uint64_t)st->st_size > VTA_FILE_MAX_BYTES) {
    fclose(f);
    return vta_errf(err, VTA_EINPUT, "%s: %lld bytes, more than the " VTA_FILE_MAX_TEXT
                    " limit of an input file", path, (long long)st->st_size);
  }
  note_input(st, path);
  *fp = f;
  return 0;
}

/* Reads the rest of an open input into a NUL-terminated buffer; closes it. */
static int read_rest(FILE *f, const char *path, uint8_t **data, size_t *len, vta_err *err) {
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n > VTA_FILE_MAX_BYTES) { /* a device or pipe that does not end */
      free(buf);
      fclose(f);
      return too_big(path, err);
    }
    if (n + 65536 + 1 > cap) {
      cap = cap ? cap * 2 : 131072;
      uint8_t *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return vta_errf(err, VTA_ENOMEM, "%s: out of memory reading the file", path);
      }
      buf = nb;
    }
    size_t got = fread(buf + n, 1, 65536, f);
    n += got;
    if (got < 65536) break;
  }
  if (ferror(f)) {
    int e = errno;
    free(buf);
    fclose(f);
    return vta_errf(err, VTA_EIO, "%s: read error: %s", path, strerror(e));
  }
  fclose(f);
  if (n > VTA_FILE_MAX_BYTES) { /* grew while being read */
    free(buf);
    return too_big(path, err);
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}

int vta_read_file(const char *path, uint8_t **data, size_t *len, vta_err *err) {
  *data = NULL;
  *len = 0;
  FILE *f = NULL; /* set by open_input on success (GCC -O3 cannot tell) */
  struct stat st;
  if (open_input(path, &f, &st, err)) return -1;
  return read_rest(f, path, data, len, err);
}

int vta_file_map(const char *path, vta_file_t *m, vta_err *err) {
  *m = (vta_file_t){NULL, 0, NULL, NULL};
  FILE *f = NULL; /* set by open_input on success (GCC -O3 cannot tell) */
  struct stat st;
  if (open_input(path, &f, &st, err)) return -1;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
    if (map != MAP_FAILED) {
      fclose(f); /* the mapping outlives the descriptor */
      m->map = map;
      m->data = map;
      m->len = (size_t)st.st_size;
      return 0;
    }
  }
  /* not mappable (a pipe, a device, an empty file, a file system without
   * mmap): read it, from the same descriptor */
  if (read_rest(f, path, &m->owned, &m->len, err)) return -1;
  m->data = m->owned;
  return 0;
}

void vta_file_unmap(vta_file_t *m) {
  if (m->map) munmap(m->map, m->len);
  free(m->owned);
  *m = (vta_file_t){NULL, 0, NULL, NULL};
}

/* ---- outputs ----------------------------------------------------------------- */

/* Temporary files being written, removed by the signal handler when the
 * user interrupts: an interrupted command leaves the earlier file as it
 * was and nothing else.  Process-wide (a signal reaches the process). */
#define MAX_PENDING 64
static char *volatile pending[MAX_PENDING];
static char *volatile keep_as[MAX_PENDING]; /* kept when interrupted: renamed here */
static volatile sig_atomic_t handlers_set;
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig) {
  for (int i = 0; i < MAX_PENDING; i++) {
    char *t = pending[i], *k = keep_as[i];
    if (t && k) rename(t, k); /* async-signal-safe, as unlink */
    else if (t) unlink(t);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static void add_pending(char *tmp) {
  if (!handlers_set) {
    handlers_set = 1;
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
      struct sigaction old;
      /* Only where nobody else handles the signal (a library user's
       * handler stays in charge). */
      if (sigaction(caught[i], NULL, &old) || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      sigaction(caught[i], &sa, NULL);
    }
  }
  for (int i = 0; i < MAX_PENDING; i++)
    if (!pending[i]) {
      pending[i] = tmp;
      return;
    }
}

static void drop_pending(const char *tmp) {
  for (int i = 0; i < MAX_PENDING; i++)
    if (pending[i] == tmp) {
      pending[i] = NULL;
      keep_as[i] = NULL;
    }
}

void vta_out_keep_partial(vta_out_t *o) {
  if (!o->f || o->f == stdout) return;
  setvbuf(o->f, NULL, _IOLBF, 0); /* every whole line reaches the file */
  for (int i = 0; i < MAX_PENDING && o->tmp; i++)
    if (pending[i] == o->tmp) keep_as[i] = o->target;
}

static int out_fail(vta_out_t *o, vta_err *err, vta_err_kind kind, const char *fmt,
                    const char *why) {
  char pre[48] = "";
  if (o->what[0]) snprintf(pre, sizeof pre, "%s: ", o->what);
  vta_errf(err, kind, "%s%s: ", pre, o->path ? o->path : "stdout");
  size_t n = strlen(err->msg);
  snprintf(err->msg + n, sizeof err->msg - n, fmt, why);
  if (o->path) vta_out_release(o->path); /* never opened: no output of the command */
  free(o->path);
  free(o->target);
  free(o->tmp);
  memset(o, 0, sizeof *o);
  return -1;
}

/* ---- the outputs of this command ------------------------------------------------ */

/* Every file this thread's command writes (or is about to: vta_out_claim),
 * so that no two outputs share a file however they are named.  A
 * character device (/dev/null, a terminal) is written by many outputs
 * harmlessly and is not recorded.  Kept until exit: an output written and
 * closed is not written again by another output of the same command. */
typedef struct claim {
  dev_t dev;
  ino_t ino;
  int has_ino;  /* the file existed (or was made): compared by inode too */
  int opened;   /* vta_out_open took it (a bare claim awaits its open) */
  char *canon;  /* the file the path leads to, absolute */
  char what[32], *path;
} claim_t;
static _Thread_local claim_t *claims;
static _Thread_local size_t nclaims, cap_claims;

/* The absolute name of the file a path leads to (links resolved, a link
 * to a file not yet made too), or for a file not yet made its resolved
 * directory and its own name; malloc'd. */
static char *canonical(const char *path) {
  char *r = realpath(path, NULL);
  if (r) return r;
  char link[4096];
  ssize_t got = readlink(path, link, sizeof link - 1);
  if (got > 0) { /* a dangling symbolic link: where it points, from its directory */
    const size_t n = (size_t)got, len = strlen(path) + n + 2;
    link[n] = '\0';
    static _Thread_local int depth;
    const char *slash = strrchr(path, '/');
    char *next = malloc(len);
    if (!next) return NULL;
    if (link[0] == '/' || !slash) snprintf(next, len, "%s", link);
    else snprintf(next, len, "%.*s/%s", (int)(slash - path), path, link);
    char *out = NULL;
    if (depth < 40) { /* a loop of links ends somewhere */
      depth++;
      out = canonical(next);
      depth--;
    }
    free(next);
    if (out) return out;
  }
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  char *rd = dir ? realpath(dir, NULL) : NULL;
  free(dir);
  if (!rd) return strdup(path);
  size_t n = strlen(rd) + strlen(base) + 2;
  char *out = malloc(n);
  if (out) snprintf(out, n, "%s/%s", strcmp(rd, "/") ? rd : "", base);
  free(rd);
  return out;
}

static claim_t *find_claim(const struct stat *st, const char *canon) {
  for (size_t i = 0; i < nclaims; i++) {
    claim_t *c = &claims[i];
    if (st && c->has_ino && c->dev == st->st_dev && c->ino == st->st_ino) return c;
    if (canon && c->canon && !strcmp(c->canon, canon)) return c;
  }
  return NULL;
}

/* The checks every output passes before it is opened: not an input of the
 * command, not a directory, not a file another output of the command
 * writes.  open: vta_out_open's own claim (takes over a bare claim of the
 * same option).  0, or -1 with the message (prefixed by what and path). */
static int claim(const char *path, const char *what, int open, vta_err *err) {
  char pre[48] = "";
  if (what && *what) snprintf(pre, sizeof pre, "%s: ", what);
  const char *as = NULL;
  if (vta_io_is_input(path, &as))
    return vta_errf(err, VTA_EINPUT, "%s%s: is the input file %s of this command; refusing to "
                    "overwrite it", pre, path, as);
  struct stat st;
  int exists = !stat(path, &st);
  if (exists && S_ISDIR(st.st_mode))
    return vta_errf(err, VTA_EIO, "%s%s: cannot open for writing: it is a directory", pre, path);
  if (exists && S_ISCHR(st.st_mode)) return 0;
  char *canon = canonical(path);
  claim_t *c = find_claim(exists ? &st : NULL, canon);
  if (c && open && !c->opened && !strcmp(c->what, what ? what : "")) {
    c->opened = 1;
    free(canon);
    return 0;
  }
  if (c) {
    free(canon);
    return vta_errf(err, VTA_EINPUT, "%s%s: is also the file of %s%s%s; two outputs of one "
                    "command cannot share a file", pre, path, c->what[0] ? c->what : "another "
                    "output", c->path && strcmp(c->path, path) ? " as " : "",
                    c->path && strcmp(c->path, path) ? c->path : "");
  }
  if (nclaims == cap_claims) {
    if (!cap_claims) lists_kept();
    size_t cap = cap_claims ? 2 * cap_claims : 8;
    claim_t *n = realloc(claims, cap * sizeof *n);
    if (!n) {
      free(canon);
      return vta_errf(err, VTA_ENOMEM, "%s%s: out of memory", pre, path);
    }
    claims = n;
    cap_claims = cap;
  }
  c = &claims[nclaims++];
  memset(c, 0, sizeof *c);
  c->canon = canon;
  c->path = strdup(path);
  c->opened = open;
  snprintf(c->what, sizeof c->what, "%s", what ? what : "");
  if (exists) c->dev = st.st_dev, c->ino = st.st_ino, c->has_ino = 1;
  return 0;
}

int vta_out_claim(const char *path, const char *what, vta_err *err) {
  if (!path || !strcmp(path, "-")) return 0;
  return claim(path, what, 0, err);
}

int vta_out_claimed(const char *path) {
  if (!path || !strcmp(path, "-")) return 0;
  struct stat st;
  int exists = !stat(path, &st);
  char *canon = canonical(path);
  int yes = find_claim(exists ? &st : NULL, canon) != NULL;
  free(canon);
  return yes;
}

/* At the end of a thread that kept a list: both lists, freed. */
static void thread_lists_free(void *unused) {
  (void)unused;
  for (size_t i = 0; i < ninputs; i++) free(inputs[i].path);
  free(inputs);
  inputs = NULL;
  ninputs = cap_inputs = 0;
  for (size_t i = 0; i < nclaims; i++) {
    free(claims[i].canon);
    free(claims[i].path);
  }
  free(claims);
  claims = NULL;
  nclaims = cap_claims = 0;
}

void vta_out_release(const char *path) {
  if (!path || !strcmp(path, "-")) return;
  struct stat st;
  int exists = !stat(path, &st);
  char *canon = canonical(path);
  claim_t *c = find_claim(exists ? &st : NULL, canon);
  free(canon);
  if (!c) return;
  free(c->canon);
  free(c->path);
  *c = claims[--nclaims];
}

/* After the rename: the claim knows the file by its (new) inode too. */
static void claim_made(const char *target) {
  struct stat st;
  if (!target || stat(target, &st)) return;
  char *canon = canonical(target);
  claim_t *c = find_claim(NULL, canon);
  free(canon);
  if (c) c->dev = st.st_dev, c->ino = st.st_ino, c->has_ino = 1;
}

/* Common checks and the temporary file; named: leave the file closed. */
static int out_open(vta_out_t *o, const char *path, const char *what, int binary, int named,
                    vta_err *err) {
  memset(o, 0, sizeof *o);
  snprintf(o->what, sizeof o->what, "%s", what ? what : "");
  if (!path || !strcmp(path, "-")) {
    if (named) return out_fail(o, err, VTA_EINPUT, "%s", "needs a file, not stdout");
    o->f = stdout;
    return 0;
  }
  if (claim(path, what, 1, err)) {
    memset(o, 0, sizeof *o);
    return -1;
  }
  if (!(o->path = strdup(path))) return out_fail(o, err, VTA_ENOMEM, "%s", "out of memory");
  struct stat st;
  int exists = !stat(path, &st);
  if (exists && !S_ISREG(st.st_mode)) {
    /* A device, FIFO or socket: written in place, never replaced. */
    if (named)
      return out_fail(o, err, VTA_EINPUT, "%s", "not a regular file (this output is written "
                      "to a regular file only)");
    if (!(o->f = fopen(path, binary ? "wb" : "w")))
      return out_fail(o, err, VTA_EIO, "cannot open for writing: %s", strerror(errno));
    return 0;
  }
  /* Regular or new: the temporary beside the file the path leads to, so
   * that the rename replaces that file (a symbolic link keeps pointing,
   * one to a file not yet made too). */
  char *real = canonical(path);
  o->target = real ? real : strdup(path);
  if (!o->target) return out_fail(o, err, VTA_ENOMEM, "%s", "out of memory");
  const char *slash = strrchr(o->target, '/');
  size_t dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;
  size_t n = strlen(o->target) + 16;
  if (!(o->tmp = malloc(n))) return out_fail(o, err, VTA_ENOMEM, "%s", "out of memory");
  snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, o->target, o->target + dirlen);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    free(o->tmp);
    o->tmp = NULL;
    return out_fail(o, err, VTA_EIO, "cannot open for writing: %s", strerror(errno));
  }
  add_pending(o->tmp);
  /* The mode a plain fopen would give (or the replaced file's). */
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~mask));
  if (named) {
    close(fd);
    o->named = 1;
    return 0;
  }
  if (!(o->f = fdopen(fd, binary ? "wb" : "w"))) {
    int e = errno;
    close(fd);
    vta_out_close(o, 0, NULL);
    return vta_errf(err, VTA_EIO, "%s%s%s: cannot open for writing: %s", what ? what : "",
                    what ? ": " : "", path, strerror(e));
  }
  return 0;
}

int vta_out_open(vta_out_t *o, const char *path, const char *what, int binary, vta_err *err) {
  return out_open(o, path, what, binary, 0, err);
}

int vta_out_open_named(vta_out_t *o, const char *path, const char *what, vta_err *err) {
  return out_open(o, path, what, 1, 1, err);
}

int vta_out_close(vta_out_t *o, int ok, vta_err *err) {
  int bad = 0, e = 0;
  if (o->f == stdout) {
    bad = fflush(stdout) != 0 || ferror(stdout);
    e = errno;
  } else if (o->f) {
    bad = ferror(o->f) != 0;
    e = errno;
    if (fclose(o->f) && !bad) {
      bad = 1;
      e = errno;
    }
  }
  o->f = NULL;
  struct stat st;
  if (o->tmp && o->named && ok && !stat(o->tmp, &st) && st.st_size == 0)
    ok = 0; /* the writer never wrote: the earlier file stays */
  if (o->tmp) {
    if (ok && !bad && rename(o->tmp, o->target)) {
      bad = 1;
      e = errno;
    }
    if (ok && !bad) claim_made(o->target);
    if (!ok || bad) unlink(o->tmp);
    drop_pending(o->tmp);
  }
  if (!ok && o->path) vta_out_release(o->path); /* nothing written: the file is free again */
  int rc = 0;
  if (ok && bad) {
    char pre[48] = "";
    if (o->what[0]) snprintf(pre, sizeof pre, "%s: ", o->what);
    rc = vta_errf(err, VTA_EIO, "%s%s: write error: %s", pre, o->path ? o->path : "stdout",
                  e ? strerror(e) : "unknown");
  }
  free(o->path);
  free(o->target);
  free(o->tmp);
  memset(o, 0, sizeof *o);
  return rc;
}

int vta_out_commit(vta_out_t *o, vta_err *err) {
  if (!o->f || o->f == stdout) return o->f ? vta_stdout_check(err) : 0;
  int bad = fflush(o->f) != 0 || ferror(o->f);
  int e = errno;
  if (!bad && o->tmp) {
    if (rename(o->tmp, o->target)) {
      bad = 1;
      e = errno;
    } else {
      claim_made(o->target);
      drop_pending(o->tmp);
      free(o->tmp);
      o->tmp = NULL; /* from now on written in place */
    }
  }
  if (!bad) return 0;
  char pre[48] = "";
  if (o->what[0]) snprintf(pre, sizeof pre, "%s: ", o->what);
  return vta_errf(err, VTA_EIO, "%s%s: write error: %s", pre, o->path, e ? strerror(e) : "unknown");
}

int vta_stdout_check(vta_err *err) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
  int e = errno;
  return vta_errf(err, VTA_EIO, "stdout: write error: %s", e ? strerror(e) : "unknown");
}

int vta_out_write(const char *path, const char *what, const void *data, size_t len,
                  vta_err *err) {
  vta_out_t o;
  if (vta_out_open(&o, path, what, 1, err)) return -1;
  fwrite(data, 1, len, o.f); /* a short write leaves ferror set */
  return vta_out_close(&o, 1, err);
}

double vta_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
