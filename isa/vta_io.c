/*
 * vta_io.c - see vta_io.h.
 */
#include "vta_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vta_read_file(const char *path, uint8_t **data, size_t *len, vta_err *err) {
  *data = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return vta_errf(err, VTA_EIO, "%s: cannot open: %s", path, strerror(errno));
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
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
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}
