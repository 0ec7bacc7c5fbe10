/*
 * fuzz_manifest.c - libFuzzer target for the network manifest parser
 * (vtasim_manifest_parse, network/net_manifest.c): any bytes must parse or be
 * refused with a message, never crash or read out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>

#include "net_manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static net_manifest_t m; /* large: not on the stack */
  vta_err err = {0};
  if (vtasim_manifest_parse(&m, "fuzz.net", (const char *)data, size, &err) && !err.msg[0])
    abort(); /* a refusal always says why */
  return 0;
}
