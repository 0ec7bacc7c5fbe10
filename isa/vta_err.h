/*
 * vta_err.h - the one error convention of vtasim.
 *
 * Every fallible function takes a `vta_err *` and returns 0 on success or -1
 * after writing a complete, user-facing sentence into it (which file, line,
 * field, unit or instruction, and what was expected).  The kind lets callers
 * choose an exit code without parsing text.
 */
#ifndef VTA_ERR_H
#define VTA_ERR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_ERR_LEN 2048

typedef enum vta_err_kind {
  VTA_EOK = 0,
  VTA_EINPUT,    /* malformed file, field out of range, bad configuration */
  VTA_EIO,       /* cannot open, read or write a file */
  VTA_ERANGE,    /* SRAM or DRAM access out of range during a run */
  VTA_EILLEGAL,  /* instruction illegal for the unit that executes it */
  VTA_ETOKEN,    /* dependency-token queue overflow */
  VTA_EDEADLOCK, /* every unit blocked */
  VTA_ENOFINISH, /* the program ended without FINISH */
  VTA_EMISMATCH, /* an expectation of the program did not hold */
  VTA_ENOMEM,
  VTA_EINTR      /* stopped on request (Ctrl-C) */
} vta_err_kind;

typedef struct vta_err {
  vta_err_kind kind;
  char msg[VTA_ERR_LEN];
} vta_err;

/* Record an error (if e is non-NULL) and return -1. */
int vta_errf(vta_err *e, vta_err_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefix an existing message, e.g. with "file.vta:12: ". Returns -1. */
int vta_err_prefix(vta_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void vta_err_clear(vta_err *e);

#ifdef __cplusplus
}
#endif

#endif
