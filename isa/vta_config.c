/*
 * vta_config.c - configuration defaults, derivation, validation and the
 * vta_config.json reader (cJSON does the JSON; we do the meaning).
 */
#include "vta_config.h"
#include "vta_io.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const vta_config_keys[] = {
    "LOG_INP_WIDTH",     "LOG_WGT_WIDTH",     "LOG_ACC_WIDTH",
    "LOG_BATCH",         "LOG_BLOCK",         "LOG_UOP_BUFF_SIZE",
    "LOG_INP_BUFF_SIZE", "LOG_WGT_BUFF_SIZE", "LOG_ACC_BUFF_SIZE",
    NULL};

static int *key_slot(vta_config_t *c, const char *key) {
  int *slots[] = {&c->log_inp_width,     &c->log_wgt_width,
                  &c->log_acc_width,     &c->log_batch,
                  &c->log_block,         &c->log_uop_buff_size,
                  &c->log_inp_buff_size, &c->log_wgt_buff_size,
                  &c->log_acc_buff_size};
  for (int i = 0; vta_config_keys[i]; i++)
    if (strcmp(vta_config_keys[i], key) == 0) return slots[i];
  return NULL;
}

void vta_config_default(vta_config_t *c) {
  memset(c, 0, sizeof *c);
  snprintf(c->target, sizeof c->target, "sim");
  snprintf(c->hw_ver, sizeof c->hw_ver, "0.0.2");
  c->log_inp_width = 3;
  c->log_wgt_width = 3;
  c->log_acc_width = 5;
  c->log_batch = 0;
  c->log_block = 4;
  c->log_uop_buff_size = 15;
  c->log_inp_buff_size = 15;
  c->log_wgt_buff_size = 18;
  c->log_acc_buff_size = 17;
  vta_err e;
  if (vta_config_derive(c, &e) != 0) abort(); /* the default is valid */
}

static int imax(int a, int b) { return a > b ? a : b; }

int vta_config_derive(vta_config_t *c, vta_err *err) {
  /* Lane widths the model can hold: 1..8-bit inputs/weights, 8..32-bit acc. */
  if (c->log_inp_width < 0 || c->log_inp_width > 3)
    return vta_errf(err, VTA_EINPUT,
                    "LOG_INP_WIDTH = %d: expected 0..3 (1- to 8-bit inputs)",
                    c->log_inp_width);
  if (c->log_wgt_width < 0 || c->log_wgt_width > 3)
    return vta_errf(err, VTA_EINPUT,
                    "LOG_WGT_WIDTH = %d: expected 0..3 (1- to 8-bit weights)",
                    c->log_wgt_width);
  if (c->log_acc_width < 3 || c->log_acc_width > 5)
    return vta_errf(err, VTA_EINPUT,
                    "LOG_ACC_WIDTH = %d: expected 3..5 (8- to 32-bit accumulators)",
                    c->log_acc_width);
  if (c->log_acc_width < c->log_inp_width)
    return vta_errf(err, VTA_EINPUT,
                    "LOG_ACC_WIDTH = %d is narrower than LOG_INP_WIDTH = %d",
                    c->log_acc_width, c->log_inp_width);
  if (c->log_batch < 0 || c->log_batch > 4)
    return vta_errf(err, VTA_EINPUT, "LOG_BATCH = %d: expected 0..4", c->log_batch);
  if (c->log_block < 0 || c->log_block > 6)
    return vta_errf(err, VTA_EINPUT, "LOG_BLOCK = %d: expected 0..6", c->log_block);
  struct { const char *key; int v; } sizes[] = {
      {"LOG_UOP_BUFF_SIZE", c->log_uop_buff_size},
      {"LOG_INP_BUFF_SIZE", c->log_inp_buff_size},
      {"LOG_WGT_BUFF_SIZE", c->log_wgt_buff_size},
      {"LOG_ACC_BUFF_SIZE", c->log_acc_buff_size}};
  for (size_t i = 0; i < 4; i++)
    if (sizes[i].v < 2 || sizes[i].v > 24)
      return vta_errf(err, VTA_EINPUT,
                      "%s = %d: expected 2..24 (4 B to 16 MiB of SRAM)",
                      sizes[i].key, sizes[i].v);

  c->log_out_width = c->log_inp_width;
  c->log_out_buff_size = c->log_acc_buff_size + c->log_out_width - c->log_acc_width;
  c->inp_width = 1 << c->log_inp_width;
  c->wgt_width = 1 << c->log_wgt_width;
  c->acc_width = 1 << c->log_acc_width;
  c->out_width = 1 << c->log_out_width;
  c->batch = 1 << c->log_batch;
  c->block_in = c->block_out = 1 << c->log_block;

  /* log2 of the bits in one element of each scratchpad */
  int inp_ebits = c->log_inp_width + c->log_batch + c->log_block;
  int wgt_ebits = c->log_wgt_width + 2 * c->log_block;
  int acc_ebits = c->log_acc_width + c->log_batch + c->log_block;
  int out_ebits = c->log_out_width + c->log_batch + c->log_block;
  struct { const char *what; int lbits; } el[] = {
      {"input (INP_WIDTH*BATCH*BLOCK_IN)", inp_ebits},
      {"weight (WGT_WIDTH*BLOCK_OUT*BLOCK_IN)", wgt_ebits},
      {"accumulator (ACC_WIDTH*BATCH*BLOCK_OUT)", acc_ebits},
      {"output (OUT_WIDTH*BATCH*BLOCK_OUT)", out_ebits}};
  for (size_t i = 0; i < 4; i++)
    if (el[i].lbits < 3)
      return vta_errf(err, VTA_EINPUT,
                      "the %s element is %d bits: elements must be whole bytes",
                      el[i].what, 1 << el[i].lbits);
  c->inp_elem_bytes = 1u << (inp_ebits - 3);
  c->wgt_elem_bytes = 1u << (wgt_ebits - 3);
  c->acc_elem_bytes = 1u << (acc_ebits - 3);
  c->out_elem_bytes = 1u << (out_ebits - 3);

  c->log_uop_depth = c->log_uop_buff_size - 5 + 3;
  c->log_inp_depth = c->log_inp_buff_size - inp_ebits + 3;
  c->log_wgt_depth = c->log_wgt_buff_size - wgt_ebits + 3;
  c->log_acc_depth = c->log_acc_buff_size - acc_ebits + 3;
  struct { const char *key; int d; } dep[] = {
      {"LOG_UOP_BUFF_SIZE", c->log_uop_depth},
      {"LOG_INP_BUFF_SIZE", c->log_inp_depth},
      {"LOG_WGT_BUFF_SIZE", c->log_wgt_depth},
      {"LOG_ACC_BUFF_SIZE", c->log_acc_depth}};
  for (size_t i = 0; i < 4; i++) {
    if (dep[i].d < 1)
      return vta_errf(err, VTA_EINPUT,
                      "%s is too small: the buffer holds fewer than 2 elements",
                      dep[i].key);
    if (dep[i].d > VTA_MEMOP_SRAM_ADDR_BITS)
      return vta_errf(err, VTA_EINPUT,
                      "%s gives a depth of 2^%d entries, more than the 16-bit "
                      "sram_base field of LOAD/STORE can address",
                      dep[i].key, dep[i].d);
  }
  c->uop_depth = 1u << c->log_uop_depth;
  c->inp_depth = 1u << c->log_inp_depth;
  c->wgt_depth = 1u << c->log_wgt_depth;
  c->acc_depth = 1u << c->log_acc_depth;
  c->out_depth = c->acc_depth; /* the out buffer is indexed like acc */
  c->uop_src_bits = imax(c->log_acc_depth, c->log_inp_depth);

  /* Encoding constraints, docs/isa.md 1.4. */
  int A = c->log_acc_depth, I = c->log_inp_depth, W = c->log_wgt_depth,
      U = c->log_uop_depth;
  if (A + imax(A, I) + W > 32)
    return vta_errf(err, VTA_EINPUT,
                    "the micro-op does not fit in 32 bits: log2 depths acc %d + "
                    "max(acc %d, inp %d) + wgt %d = %d > 32 (docs/isa.md 1.4)",
                    A, A, I, W, A + imax(A, I) + W);
  if (2 * A + 2 * I + 2 * W > 64)
    return vta_errf(err, VTA_EINPUT,
                    "the GEMM factor word does not fit in 64 bits: 2*acc %d + "
                    "2*inp %d + 2*wgt %d = %d > 64 (docs/isa.md 1.4)",
                    A, I, W, 2 * A + 2 * I + 2 * W);
  if (4 * A + VTA_ALU_OPCODE_BITS + 1 + VTA_ALUOP_IMM_BITS > 64)
    return vta_errf(err, VTA_EINPUT,
                    "the ALU factor word does not fit in 64 bits: 4*acc %d + 3 + "
                    "1 + 16 = %d > 64 (docs/isa.md 1.4)",
                    A, 4 * A + 20);
  if (37 + 2 * U > 64)
    return vta_errf(err, VTA_EINPUT,
                    "the GEMM/ALU first word does not fit in 64 bits: 37 + 2*uop "
                    "%d = %d > 64 (docs/isa.md 1.4)",
                    U, 37 + 2 * U);
  return 0;
}

int vta_config_set(vta_config_t *c, const char *key, long value, vta_err *err) {
  int *slot = key_slot(c, key);
  if (!slot)
    return vta_errf(err, VTA_EINPUT,
                    "unknown configuration key '%s' (expected one of LOG_INP_WIDTH, "
                    "LOG_WGT_WIDTH, LOG_ACC_WIDTH, LOG_BATCH, LOG_BLOCK, "
                    "LOG_UOP_BUFF_SIZE, LOG_INP_BUFF_SIZE, LOG_WGT_BUFF_SIZE, "
                    "LOG_ACC_BUFF_SIZE)",
                    key);
  if (value < 0 || value > 64)
    return vta_errf(err, VTA_EINPUT, "%s = %ld: expected a small non-negative integer",
                    key, value);
  *slot = (int)value;
  return 0;
}

int vta_config_get(const vta_config_t *c, const char *key, long *value,
                   vta_err *err) {
  int *slot = key_slot((vta_config_t *)c, key);
  if (!slot) return vta_errf(err, VTA_EINPUT, "unknown configuration key '%s'", key);
  *value = *slot;
  return 0;
}

int vta_json_line(const char *text, const char *at) {
  int line = 1;
  for (const char *p = text; p < at && *p; p++)
    if (*p == '\n') line++;
  return line;
}

int vta_json_key_line(const char *text, const char *key) {
  char quoted[80];
  snprintf(quoted, sizeof quoted, "\"%s\"", key);
  const char *p = strstr(text, quoted);
  return p ? vta_json_line(text, p) : 1;
}

/* Line of the n-th (1-based) occurrence of "key" in the text, from `from`:
 * cJSON keeps no positions. */
static int key_line_n(const char *text, const char *from, const char *key, int n) {
  char quoted[80];
  snprintf(quoted, sizeof quoted, "\"%s\"", key);
  const char *p = from;
  while (n-- > 0 && p) {
    p = strstr(p, quoted);
    if (p && n > 0) p += strlen(quoted);
  }
  return p ? vta_json_line(text, p) : 1;
}

/* How many earlier members of the object have this member's key. */
static int repeats(const cJSON *obj, const cJSON *it) {
  int n = 0;
  for (const cJSON *o = obj->child; o && o != it; o = o->next)
    n += !strcmp(o->string, it->string);
  return n;
}

/* The members of one object of configuration keys; `from` is where the
 * object starts in the text (for line numbers). */
static int parse_keys(vta_config_t *c, const cJSON *obj, const char *text, const char *from,
                      const char *name, vta_err *err) {
  for (cJSON *it = obj->child; it; it = it->next) {
    int dup = repeats(obj, it);
    int line = key_line_n(text, from, it->string, dup + 1);
    if (dup)
      return vta_errf(err, VTA_EINPUT, "%s:%d: %s: duplicate key (first given on line %d)",
                      name, line, it->string, key_line_n(text, from, it->string, 1));
    if (!strcmp(it->string, "TARGET") || !strcmp(it->string, "HW_VER")) {
      if (!cJSON_IsString(it))
        return vta_errf(err, VTA_EINPUT, "%s:%d: %s: expected a string", name, line,
                        it->string);
      char *dst = !strcmp(it->string, "TARGET") ? c->target : c->hw_ver;
      size_t cap = !strcmp(it->string, "TARGET") ? sizeof c->target : sizeof c->hw_ver;
      if (strlen(it->valuestring) >= cap)
        return vta_errf(err, VTA_EINPUT, "%s:%d: %s: value longer than %zu characters",
                        name, line, it->string, cap - 1);
      snprintf(dst, cap, "%s", it->valuestring);
      continue;
    }
    if (!strcmp(it->string, "ACC_DEP_DISTANCE")) /* informative in VTA; unused here */
      continue;
    if (!key_slot(c, it->string)) {
      vta_config_set(c, it->string, 0, err);
      return vta_err_prefix(err, "%s:%d: ", name, line);
    }
    double v = cJSON_IsNumber(it) ? it->valuedouble : NAN;
    /* Range-check before the cast: a huge double does not fit a long. */
    if (!cJSON_IsNumber(it) || v != floor(v) || v < -1 || v > 64)
      return vta_errf(err, VTA_EINPUT, "%s:%d: %s: expected a small integer", name, line,
                      it->string);
    if (vta_config_set(c, it->string, (long)v, err))
      return vta_err_prefix(err, "%s:%d: ", name, line);
  }
  for (int i = 0; vta_config_keys[i]; i++)
    if (!cJSON_GetObjectItemCaseSensitive(obj, vta_config_keys[i]))
      return vta_errf(err, VTA_EINPUT, "%s: missing key %s (a vta_config.json gives every one "
                      "of LOG_INP_WIDTH ... LOG_ACC_BUFF_SIZE)", name, vta_config_keys[i]);
  return 0;
}

int vta_config_parse_json(vta_config_t *c, const char *text, const char *name,
                          vta_err *err) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 0);
  if (!root) {
    const char *at = cJSON_GetErrorPtr();
    return vta_errf(err, VTA_EINPUT, "%s:%d: not valid JSON (near '%.20s')", name,
                    at ? vta_json_line(text, at) : 1, at ? at : "");
  }
  int rc = 0;
  while (end && isspace((unsigned char)*end)) end++;
  if (end && *end) {
    rc = vta_errf(err, VTA_EINPUT, "%s:%d: unexpected text after the JSON object (near "
                  "'%.20s')", name, vta_json_line(text, end), end);
    goto out;
  }
  if (!cJSON_IsObject(root)) {
    rc = vta_errf(err, VTA_EINPUT, "%s:1: expected a JSON object of configuration keys",
                  name);
    goto out;
  }
  /* `vtasim config --json`: {"name", "parameters", "derived", "layout"}. */
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
  if (cJSON_IsObject(params)) {
    for (cJSON *it = root->child; it; it = it->next) {
      int line = key_line_n(text, text, it->string, repeats(root, it) + 1);
      if (repeats(root, it)) {
        rc = vta_errf(err, VTA_EINPUT, "%s:%d: %s: duplicate key", name, line, it->string);
        goto out;
      }
      if (strcmp(it->string, "name") && strcmp(it->string, "parameters") &&
          strcmp(it->string, "derived") && strcmp(it->string, "layout")) {
        rc = vta_errf(err, VTA_EINPUT, "%s:%d: %s: unknown key of a `vtasim config --json` "
                      "document (expected name, parameters, derived, layout)", name, line,
                      it->string);
        goto out;
      }
    }
    const char *from = strstr(text, "\"parameters\"");
    rc = parse_keys(c, params, text, from ? from : text, name, err);
    if (!rc && vta_config_derive(c, err)) rc = vta_err_prefix(err, "%s: ", name);
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(root, "name");
    char have[64];
    vta_config_name(c, have, sizeof have);
    if (!rc && nm && (!cJSON_IsString(nm) || strcmp(nm->valuestring, have)))
      rc = vta_errf(err, VTA_EINPUT, "%s:%d: name: '%s' does not match the parameters (they "
                    "give %s)", name, key_line_n(text, text, "name", 1),
                    cJSON_IsString(nm) ? nm->valuestring : "?", have);
    goto out;
  }
  rc = parse_keys(c, root, text, text, name, err);
  if (!rc && vta_config_derive(c, err)) rc = vta_err_prefix(err, "%s: ", name);
out:
  cJSON_Delete(root);
  return rc;
}

int vta_config_load_json(vta_config_t *c, const char *path, vta_err *err) {
  uint8_t *buf;
  size_t len;
  if (vta_read_file(path, &buf, &len, err)) return -1;
  int rc = vta_config_parse_json(c, (const char *)buf, path, err);
  free(buf);
  return rc;
}

void vta_config_name(const vta_config_t *c, char *buf, size_t len) {
  snprintf(buf, len, "%dx%d_i%dw%da%d_%d_%d_%d_%d", c->batch, c->block_in,
           c->inp_width, c->wgt_width, c->acc_width, c->log_uop_buff_size,
           c->log_inp_buff_size, c->log_wgt_buff_size, c->log_acc_buff_size);
}

int vta_config_equal(const vta_config_t *a, const vta_config_t *b) {
  for (int i = 0; vta_config_keys[i]; i++) {
    long x = 0, y = 0;
    vta_config_get(a, vta_config_keys[i], &x, NULL);
    vta_config_get(b, vta_config_keys[i], &y, NULL);
    if (x != y) return 0;
  }
  return 1;
}
