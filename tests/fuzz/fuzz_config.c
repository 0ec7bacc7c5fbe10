/*
 * fuzz_config.c - libFuzzer target for the configuration reader
 * (vta_config_parse_json).  The input is NUL-terminated first because the
 * reader takes a C string, as vta_config_load_json passes it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vta_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_err err = {0};
  vta_config_parse_json(&cfg, text, "fuzz.json", &err);
  free(text);
  return 0;
}
