/*
 * vta_err.c - formatting helpers for the error convention in vta_err.h.
 */
#include "vta_err.h"

#include <stdio.h>
#include <string.h>

int vta_errf(vta_err *e, vta_err_kind kind, const char *fmt, ...) {
  if (!e) return -1;
  va_list ap;
  va_start(ap, fmt);
  e->kind = kind;
  e->insn = -1;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return -1;
}

int vta_err_prefix(vta_err *e, const char *fmt, ...) {
  if (!e) return -1;
  char head[512], old[VTA_ERR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(head, sizeof head, fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof old);
  size_t h = strlen(head);
  if (h >= sizeof e->msg) h = sizeof e->msg - 1;
  memcpy(e->msg, head, h);
  size_t rest = strnlen(old, sizeof old);
  if (rest > sizeof e->msg - 1 - h) rest = sizeof e->msg - 1 - h; /* keep the head */
  memcpy(e->msg + h, old, rest);
  e->msg[h + rest] = '\0';
  return -1;
}

void vta_err_clear(vta_err *e) {
  if (!e) return;
  e->kind = VTA_EOK;
  e->insn = -1;
  e->msg[0] = '\0';
}
