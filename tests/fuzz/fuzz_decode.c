/*
 * fuzz_decode.c - libFuzzer target for the instruction and micro-op decoders.
 * The contract checked: whatever decodes re-encodes to exactly the same
 * bytes (decode rejects reserved bits, so nothing may be lost), and the
 * formatter handles every decoded value.  Input: 16 instruction bytes, then
 * 4 micro-op bytes (shorter inputs are zero-padded), then optionally 4 bytes
 * choosing the configuration: the field layouts depend on it, so the
 * decoder is exercised on layouts other than the default one too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vta_config.h"
#include "vta_isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t raw[24] = {0};
  memcpy(raw, data, size < sizeof raw ? size : sizeof raw);
  vta_err err = {0};
  vta_config_t cfg;
  vta_config_default(&cfg);
  if (size > 20) {
    /* Small perturbations around the default; an underivable choice keeps
     * the default (configuration checking is fuzz_config's job). */
    vta_config_t alt = cfg;
    int ok = !vta_config_set(&alt, "LOG_BATCH", raw[20] & 1, &err) &&
             !vta_config_set(&alt, "LOG_BLOCK", 3 + (raw[20] >> 1) % 3, &err) &&
             !vta_config_set(&alt, "LOG_UOP_BUFF_SIZE", 10 + raw[21] % 8, &err) &&
             !vta_config_set(&alt, "LOG_INP_BUFF_SIZE", 10 + raw[22] % 8, &err) &&
             !vta_config_set(&alt, "LOG_WGT_BUFF_SIZE", 12 + (raw[22] >> 4) % 8, &err) &&
             !vta_config_set(&alt, "LOG_ACC_BUFF_SIZE", 12 + raw[23] % 8, &err) &&
             !vta_config_derive(&alt, &err);
    if (ok) cfg = alt;
  }
  char line[512];

  vta_insn_t in;
  if (vta_insn_decode(&cfg, raw, &in, &err) == 0) {
    uint8_t again[16];
    if (vta_insn_encode(&cfg, &in, again, &err) != 0) abort();
    if (memcmp(again, raw, 16) != 0) abort();
    int n = vta_insn_format(&in, line, sizeof line);
    if (n < 0 || strlen(line) >= sizeof line) abort();
  }

  vta_uop_t u;
  if (vta_uop_decode(&cfg, raw + 16, &u, &err) == 0) {
    uint8_t again[4];
    if (vta_uop_encode(&cfg, &u, again, &err) != 0) abort();
    if (memcmp(again, raw + 16, 4) != 0) abort();
    int n = vta_uop_format(&u, line, sizeof line);
    if (n < 0 || strlen(line) >= sizeof line) abort();
  }
  return 0;
}
