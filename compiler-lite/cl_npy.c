/*
 * cl_npy.c - tensors a network description names as files (docs/network.md,
 * "Weights, biases and input from files"): raw little-endian bytes, or a
 * NumPy .npy file whose header (magic, version, the dict of descr,
 * fortran_order and shape) is read here.  The data must be exactly the
 * tensor the field needs, in dtype and shape, so every mismatch is refused
 * with the description's field and the file named; nothing is truncated or
 * padded silently.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"
#include "vta_io.h"

/* The field's message prefix: "DESC: FIELD: FILE: ". */
#define ARR_ERR(a, ...) vta_errf((a)->err, VTA_EINPUT, __VA_ARGS__)

typedef struct arr_ctx {
  const char *desc, *field, *file;
  vta_err *err;
} arr_ctx_t;

/* The value of 'key' in the header's dict: a pointer just after its ':'. */
static const char *dict_value(const char *h, const char *key) {
  char q1[40], q2[40];
  snprintf(q1, sizeof q1, "'%s'", key);
  snprintf(q2, sizeof q2, "\"%s\"", key);
  const char *k = strstr(h, q1);
  if (!k) k = strstr(h, q2);
  if (!k) return NULL;
  k += strlen(q1);
  while (*k == ' ') k++;
  if (*k != ':') return NULL;
  k++;
  while (*k == ' ') k++;
  return k;
}

/* The descr names the element type wanted: int8 (elem 1) or little-endian int32 (elem 4). */
static int descr_ok(const char *d, size_t n, int elem) {
  static const char *const i8[] = {"|i1", "<i1", ">i1", "=i1", "i1", "b", "|b", NULL};
  static const char *const i32[] = {"<i4", "=i4", NULL};
  for (const char *const *s = elem == 1 ? i8 : i32; *s; s++)
    if (strlen(*s) == n && !memcmp(*s, d, n)) return 1;
  return 0;
}

/* Parse the .npy header of data[0..len); *off receives the data's offset. */
static int npy_header(const arr_ctx_t *a, const uint8_t *data, size_t len, int elem,
                      const int *shape, int ndim, size_t *off) {
  static const char magic[] = "\x93NUMPY";
  if (len < 10 || memcmp(data, magic, 6))
    return ARR_ERR(a, "%s: %s: %s: not a .npy file (no \\x93NUMPY magic)", a->desc, a->field,
                   a->file);
  int major = data[6];
  size_t hlen, start;
  if (major == 1) hlen = data[8] | (size_t)data[9] << 8, start = 10;
  else if (major == 2 || major == 3) {
    if (len < 12)
      return ARR_ERR(a, "%s: %s: %s: truncated .npy header", a->desc, a->field, a->file);
    hlen = data[8] | (size_t)data[9] << 8 | (size_t)data[10] << 16 | (size_t)data[11] << 24;
    start = 12;
  } else
    return ARR_ERR(a, "%s: %s: %s: .npy version %d.%d, expected 1.0, 2.0 or 3.0", a->desc,
                   a->field, a->file, major, data[7]);
  if (hlen > len - start)
    return ARR_ERR(a, "%s: %s: %s: truncated .npy header (%zu bytes announced, %zu present)",
                   a->desc, a->field, a->file, hlen, len - start);
  char *h = malloc(hlen + 1);
  if (!h) return vta_errf(a->err, VTA_ENOMEM, "out of memory");
  memcpy(h, data + start, hlen);
  h[hlen] = '\0';
  int rc = -1;
  const char *d = dict_value(h, "descr"), *f = dict_value(h, "fortran_order"),
             *s = dict_value(h, "shape");
  const char *want = elem == 1 ? "int8 ('|i1')" : "little-endian int32 ('<i4')";
  if (!d || !f || !s || (*d != '\'' && *d != '"') || *s != '(') {
    ARR_ERR(a, "%s: %s: %s: .npy header without descr, fortran_order and shape: %.80s", a->desc,
            a->field, a->file, h);
    goto out;
  }
  const char *de = strchr(d + 1, *d);
  if (!de || !descr_ok(d + 1, (size_t)(de - d - 1), elem)) {
    ARR_ERR(a, "%s: %s: %s: dtype %.*s, expected %s", a->desc, a->field, a->file,
            de ? (int)(de - d - 1) : 8, d + 1, want);
    goto out;
  }
  if (strncmp(f, "False", 5)) {
    ARR_ERR(a, "%s: %s: %s: fortran_order is not False (save a C-ordered array: "
            "numpy.ascontiguousarray)", a->desc, a->field, a->file);
    goto out;
  }
  long dims[8];
  int nd = 0;
  const char *p = s + 1;
  for (;;) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') break;
    char *end;
    long v = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
    if (v < 0 || nd == 8) {
      ARR_ERR(a, "%s: %s: %s: unreadable shape in the .npy header", a->desc, a->field, a->file);
      goto out;
    }
    dims[nd++] = v;
    p = end;
    while (*p == 'L') p++; /* Python 2's long suffix */
  }
  int same = nd == ndim;
  for (int i = 0; same && i < nd; i++) same = dims[i] == shape[i];
  if (!same) {
    char got[160] = "", exp[160] = "";
    for (int i = 0; i < nd; i++)
      snprintf(got + strlen(got), sizeof got - strlen(got), "%s%ld", i ? ", " : "", dims[i]);
    for (int i = 0; i < ndim; i++)
      snprintf(exp + strlen(exp), sizeof exp - strlen(exp), "%s%d", i ? ", " : "", shape[i]);
    ARR_ERR(a, "%s: %s: %s: shape (%s), the layer needs (%s)", a->desc, a->field, a->file, got,
            exp);
    goto out;
  }
  *off = start + hlen;
  rc = 0;
out:
  free(h);
  return rc;
}

int vta_cl_load_tensor(const char *desc, const char *field, const char *file, int elem,
                       const int *shape, int ndim, void **out, vta_err *err) {
  arr_ctx_t a = {desc, field, file, err};
  *out = NULL;
  size_t count = 1;
  for (int i = 0; i < ndim; i++) count *= (size_t)shape[i];
  uint8_t *data;
  size_t len;
  vta_err re;
  if (vta_read_file(file, &data, &len, &re))
    return ARR_ERR(&a, "%s: %s: %s", desc, field, re.msg);
  size_t n = strlen(file), off = 0;
  int npy = n > 4 && !strcmp(file + n - 4, ".npy");
  if (npy && npy_header(&a, data, len, elem, shape, ndim, &off)) {
    free(data);
    return -1;
  }
  const size_t want = count * (size_t)elem, have = len - off;
  if (have != want) {
    free(data);
    return ARR_ERR(&a, "%s: %s: %s: %s: %zu bytes of data, the layer needs %zu (%zu %s)", desc,
                   field, file, have < want ? "truncated" : "longer than the tensor", have, want,
                   count, elem == 1 ? "int8 values" : "little-endian int32 values");
  }
  void *o = malloc(want ? want : 1);
  if (!o) {
    free(data);
    return vta_errf(err, VTA_ENOMEM, "out of memory");
  }
  if (elem == 1) memcpy(o, data + off, want);
  else {
    int32_t *v = o;
    const uint8_t *b = data + off;
    for (size_t i = 0; i < count; i++)
      v[i] = (int32_t)((uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
                       (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24);
  }
  free(data);
  *out = o;
  return 0;
}
