/*
 * vta_err.c - formatting helpers for the error convention in vta_err.h.
 */
#include "vta_err.h"

#include <stdio.h>
#include <string.h>

/* A message is shown to a user: a control byte or a byte that is not UTF-8
 * (from a garbage input echoed in it) becomes \xNN instead of reaching the
 * terminal raw.  Newlines and tabs stay (multi-line reports). */
static void escape_msg(char *msg, size_t cap) {
  char out[VTA_ERR_LEN];
  size_t k = 0;
  const unsigned char *s = (const unsigned char *)msg;
  while (*s && k + 5 < sizeof out) {
    size_t n = 0; /* the length of a valid UTF-8 sequence at s, 0 if none */
    if (*s >= 0x20 && *s < 0x7f) n = 1;
    else if (*s == '\n' || *s == '\t') n = 1;
    else if (*s >= 0xc2 && *s <= 0xdf) n = 2;
    else if (*s >= 0xe0 && *s <= 0xef) n = 3;
    else if (*s >= 0xf0 && *s <= 0xf4) n = 4;
    for (size_t i = 1; i < n; i++)
      if ((s[i] & 0xc0) != 0x80) n = 0;
    if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f))) n = 0;
    if (n == 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) n = 0; /* a BOM, shown */
    if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))) n = 0;
    if (n && k + n < sizeof out) {
      memcpy(out + k, s, n);
      k += n;
      s += n;
    } else {
      k += (size_t)snprintf(out + k, sizeof out - k, "\\x%02X", *s++);
    }
  }
  out[k] = '\0';
  snprintf(msg, cap, "%s", out);
}

int vta_errf(vta_err *e, vta_err_kind kind, const char *fmt, ...) {
  if (!e) return -1;
  va_list ap;
  va_start(ap, fmt);
  e->kind = kind;
  e->insn = -1;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  escape_msg(e->msg, sizeof e->msg);
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
  escape_msg(e->msg, sizeof e->msg);
  return -1;
}

void vta_err_clear(vta_err *e) {
  if (!e) return;
  e->kind = VTA_EOK;
  e->insn = -1;
  e->msg[0] = '\0';
}
