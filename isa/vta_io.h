/*
 * vta_io.h - every file vtasim reads or writes goes through here, so that
 * each reader reports I/O failures the same way (file name and the system's
 * reason), every input obeys one size limit, and no output can destroy an
 * input, a device or a half-written earlier result.
 *
 * Inputs: vta_read_file() (and vta_file_map(), which maps a regular file
 * instead of copying it) refuses anything larger than VTA_FILE_MAX_BYTES
 * (a regular file before reading it, an endless one such as /dev/zero as
 * soon as the limit is passed) and remembers which files it read.
 *
 * Outputs: vta_out_open() refuses a path that names a file this thread has
 * read (same device and inode, whatever the spelling of the path) or a file
 * another output of the same command writes (vta_out_claim).  A
 * regular file (or a new one) is written to a temporary file in the same
 * directory and renamed over the path by vta_out_close() only when every
 * write succeeded; a failed or interrupted write (SIGINT, SIGTERM, SIGHUP)
 * leaves the earlier file untouched and no temporary behind (a trace keeps
 * its lines so far instead: vta_out_keep_partial).  A path that
 * is not a regular file (/dev/null, /dev/full, a FIFO) is written in place
 * and never unlinked or replaced; "-" is stdout, whose write errors are
 * errors too.
 */
#ifndef VTA_IO_H
#define VTA_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_err.h"

/* The largest file any vtasim reader accepts: bundles (text or binary),
 * data and expectation files, configurations.  64 MiB: five times the
 * largest workload (traces/gemm_1x2048x2048_bias.large.vta, 13 MB), small
 * enough to be refused in a fraction of a second, even under the
 * sanitizers, when a file never ends. */
#define VTA_FILE_MAX_BYTES (64u << 20)
#define VTA_FILE_MAX_TEXT "64 MiB"

#ifdef __cplusplus
extern "C" {
#endif

/* Read a file into a NUL-terminated malloc'd buffer (*len excludes the NUL). */
int vta_read_file(const char *path, uint8_t **data, size_t *len, vta_err *err);

/*
 * An input seen in place: a regular file is mapped read-only (no copy, no
 * page of the process's own to fill: a large binary bundle is checked and
 * decoded straight from the page cache); anything else (a pipe, a device)
 * is read like vta_read_file.  Same checks and messages as vta_read_file;
 * data is NOT NUL-terminated.  Release with vta_file_unmap.  As with any
 * mapping, a file truncated by another process while mapped faults the
 * reader (SIGBUS): keep the mapping only as long as the reading.
 */
typedef struct vta_file {
  const uint8_t *data;
  size_t len;
  void *map;      /* the mapping (len bytes), or NULL */
  uint8_t *owned; /* the bytes read, when not mapped */
} vta_file_t;
int vta_file_map(const char *path, vta_file_t *m, vta_err *err);
void vta_file_unmap(vta_file_t *m); /* safe on a zeroed or released one */

/* 1 if path names a file this thread read with vta_read_file (the name it
 * was read under goes to *as, if given), else 0. */
int vta_io_is_input(const char *path, const char **as);

/* Count a file read by other means (a library's own fopen, a file a
 * manifest names) as an input of this command: no output may replace it. */
void vta_io_note_input(const char *path);

typedef struct vta_out {
  FILE *f;          /* where to write; NULL after vta_out_close */
  char *path;       /* the path as given (NULL: stdout) */
  char *target;     /* the file renamed over (symbolic links resolved) */
  char *tmp;        /* the temporary file, NULL when written in place */
  char what[32];    /* the option in messages, e.g. "--trace" ("" for none) */
  int named;        /* vta_out_open_named: another writer fills tmp */
} vta_out_t;

/*
 * Reserve an output before anything is opened or run, so that a command
 * refuses a bad set of outputs as a whole: -1 (with "what: path: why")
 * when path names an input of the command (by inode: another name, a hard
 * or symbolic link), a directory, or a file another output of the command
 * writes or reserved.  vta_out_open of the same path and what takes the
 * reservation over; every vta_out_open makes the same checks itself.
 * Outputs stay recorded until the process ends: a command never writes one
 * file twice.  A character device (/dev/null, /dev/full, a terminal) may be
 * the file of several outputs and is never recorded.  "-" and NULL: 0.
 */
int vta_out_claim(const char *path, const char *what, vta_err *err);

/* Forget a reservation (an output given up before anything was written:
 * the driver's device that could not be made).  vta_out_close without ok
 * does it too. */
void vta_out_release(const char *path);

/* 1 if path names a file an output of this command writes or reserved. */
int vta_out_claimed(const char *path);

/* Open an output; path "-" or NULL is stdout.  what names the option in
 * messages ("--trace", "-o").  binary: "wb" rather than "w". */
int vta_out_open(vta_out_t *o, const char *path, const char *what, int binary, vta_err *err);

/* The same for a writer that opens the file itself by name (the RTL's FST
 * waveform): only a regular or new file; write to o->tmp, then close.  A
 * temporary the writer left empty (it never wrote) replaces nothing. */
int vta_out_open_named(vta_out_t *o, const char *path, const char *what, vta_err *err);

/* A whole buffer of len bytes written to path as one binary output
 * (vta_out_open, fwrite, vta_out_close): 0, or -1 with err. */
int vta_out_write(const char *path, const char *what, const void *data, size_t len,
                  vta_err *err);

/* A log written while a run goes on (the instruction trace): line-buffered,
 * and an interrupted command (SIGINT, SIGTERM, SIGHUP) keeps what was
 * written so far at the path instead of discarding it. */
void vta_out_keep_partial(vta_out_t *o);

/* Finish an output: with ok, flush and check every write, then rename the
 * temporary over the path; without ok (an earlier failure), discard it.
 * Returns -1 with the error when ok was given and anything failed.  Safe
 * to call on a zeroed or already closed vta_out_t. */
int vta_out_close(vta_out_t *o, int ok, vta_err *err);

/* A file appended to while a process goes on (the driver's report): flush
 * what was written and, the first time, rename the temporary over the path;
 * later writes go to the file in place.  -1 with the error on a failed
 * write. */
int vta_out_commit(vta_out_t *o, vta_err *err);

/* Flush stdout and report a failed write to it (a report, --json). */
int vta_stdout_check(vta_err *err);

/* A monotonic clock in seconds, for the host timings of reports (never
 * compared across processes). */
double vta_seconds(void);

#ifdef __cplusplus
}
#endif

#endif
