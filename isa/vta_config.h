/*
 * vta_config.h - the VTA hardware configuration: the user parameters of
 * VTA's vta_config.json and every constant derived from them (docs/isa.md 1.1-1.4).
 *
 * This is the single source of every configuration constant in vtasim: the
 * model, the compiler and the generated Verilog parameter package all read
 * a vta_config_t filled in by vta_config_derive(), never their own copies.
 */
#ifndef VTA_CONFIG_H
#define VTA_CONFIG_H

#include <stdint.h>
#include <stddef.h>

#include "vta_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fixed ISA widths (docs/isa.md 1.2): these do not depend on the configuration. */
#define VTA_INS_BYTES 16
#define VTA_UOP_BYTES 4
#define VTA_OPCODE_BITS 3
#define VTA_ALU_OPCODE_BITS 3
#define VTA_MEMOP_ID_BITS 3
#define VTA_MEMOP_SRAM_ADDR_BITS 16
#define VTA_MEMOP_DRAM_ADDR_BITS 32
#define VTA_MEMOP_SIZE_BITS 16
#define VTA_MEMOP_STRIDE_BITS 16
#define VTA_MEMOP_PAD_BITS 4
#define VTA_LOOP_ITER_BITS 14
#define VTA_ALUOP_IMM_BITS 16

typedef struct vta_config {
  /* User parameters, named as in vta_config.json. */
  char target[32];
  char hw_ver[16];
  int log_inp_width, log_wgt_width, log_acc_width;
  int log_batch, log_block;
  int log_uop_buff_size, log_inp_buff_size, log_wgt_buff_size, log_acc_buff_size;

  /* Derived by vta_config_derive(); read-only for everyone else. */
  int log_out_width, log_out_buff_size;
  int inp_width, wgt_width, acc_width, out_width; /* bits per lane */
  int batch, block_in, block_out;
  uint32_t inp_elem_bytes, wgt_elem_bytes, acc_elem_bytes, out_elem_bytes;
  int log_uop_depth, log_inp_depth, log_wgt_depth, log_acc_depth;
  uint32_t uop_depth, inp_depth, wgt_depth, acc_depth, out_depth;
  int uop_src_bits; /* max(log_acc_depth, log_inp_depth), docs/isa.md 4 */
} vta_config_t;

/* The default 1x16_i8w8a32_15_15_18_17 configuration, derived. */
void vta_config_default(vta_config_t *cfg);

/*
 * Check the user parameters and fill in the derived constants.  Fails with a
 * message naming the parameter or the encoding constraint (docs/isa.md 1.4) that a
 * configuration breaks.
 */
int vta_config_derive(vta_config_t *cfg, vta_err *err);

/*
 * Read a vta_config.json: one JSON object holding every key of
 * vta_config_keys (TARGET, HW_VER and the informative ACC_DEP_DISTANCE are
 * optional).  A missing key, an unknown or repeated key, a value of the
 * wrong type and text after the object are errors naming the file, line
 * and key.  The output of `vtasim config --json` is accepted as well: its
 * "parameters" object is the configuration, its "name" must agree.
 */
int vta_config_load_json(vta_config_t *cfg, const char *path, vta_err *err);
int vta_config_parse_json(vta_config_t *cfg, const char *text,
                          const char *name, vta_err *err);

/*
 * Set one user parameter by its vta_config.json key (e.g. "LOG_BLOCK").
 * Does not derive; call vta_config_derive() after the last change.
 */
int vta_config_set(vta_config_t *cfg, const char *key, long value,
                   vta_err *err);

/* Value of a user parameter by key; -1 with an error for an unknown key. */
int vta_config_get(const vta_config_t *cfg, const char *key, long *value,
                   vta_err *err);

/* NULL-terminated list of the integer keys, in vta_config.json order. */
extern const char *const vta_config_keys[];

/* The canonical name, e.g. "1x16_i8w8a32_15_15_18_17". */
void vta_config_name(const vta_config_t *cfg, char *buf, size_t len);

/* Line numbers for messages about JSON files (cJSON keeps no positions):
 * the line of a position in the text, and of the first occurrence of "key". */
int vta_json_line(const char *text, const char *at);
int vta_json_key_line(const char *text, const char *key);

/* 1 when both configurations have the same user parameters. */
int vta_config_equal(const vta_config_t *a, const vta_config_t *b);

#ifdef __cplusplus
}
#endif

#endif
