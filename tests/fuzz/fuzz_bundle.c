/*
 * fuzz_bundle.c - libFuzzer target for the binary container loader
 * (vta_program_read_binary), the parser behind every .vtb that `vtasim run`
 * and `vtasim dis` accept.  A loaded program must validate and write back
 * out; writing it again as binary and reading that must succeed too.
 * The container ends with a checksum of everything before it (SHA-256 in
 * version 1, XXH3-128 from version 2 on), which random mutation never gets
 * right: the harness recomputes it when the input ends like an END record,
 * so that mutations reach the record parsers behind it (the checksum check
 * itself is covered by tests/cli/test_faults.sh and tests/test_program.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vta_program_t p;
  vta_err err = {0};
  uint8_t *in = malloc(size ? size : 1);
  if (!in) return 0;
  memcpy(in, data, size);
  /* END record: u32 type 0, u32 length 32 or 16, the digest bytes. */
  static const uint8_t end_v1[8] = {0, 0, 0, 0, 32, 0, 0, 0};
  static const uint8_t end_v2[8] = {0, 0, 0, 0, 16, 0, 0, 0};
  if (size >= 48 && !memcmp(in + size - 40, end_v1, 8))
    vta_sha256(in, size - 40, in + size - 32);
  else if (size >= 32 && !memcmp(in + size - 24, end_v2, 8))
    vta_xxh128(in, size - 24, in + size - 16);
  int loaded = vta_program_read_binary(&p, in, size, "fuzz.vtb", &err);
  free(in);
  if (loaded != 0) return 0;
  if (vta_program_validate(&p, &err) != 0) abort(); /* loading promises validity */
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (mem) {
    int wrote = vta_program_write_binary(&p, mem, &err);
    fclose(mem);
    if (wrote == 0) {
      /* What we write we must be able to read back. */
      vta_program_t q;
      if (vta_program_read_binary(&q, (const uint8_t *)buf, len, "rewritten.vtb", &err) != 0)
        abort();
      vta_program_free(&q);
    }
    free(buf);
  }
  FILE *devnull = fopen("/dev/null", "w");
  if (devnull) {
    vta_program_write_text(&p, devnull, &err);
    fclose(devnull);
  }
  vta_program_free(&p);
  return 0;
}
