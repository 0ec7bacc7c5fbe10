/*
 * fuzz_asm.c - libFuzzer target for the text assembler (vta_program_parse).
 * Any byte string must either parse into a valid program or fail with a
 * message; a parsed program must also survive validation and re-emission as
 * text and binary, since the CLI does both with whatever it parsed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "vta_program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vta_program_t p;
  vta_err err = {0};
  /* "fuzz.vta": relative `.file` paths in the input resolve against the
   * current directory and are simply missing there. */
  if (vta_program_parse(&p, (const char *)data, size, "fuzz.vta", &err) != 0)
    return 0;
  if (vta_program_validate(&p, &err) != 0) abort(); /* parse promises validity */
  FILE *devnull = fopen("/dev/null", "w");
  if (devnull) {
    vta_program_write_text(&p, devnull, &err);
    vta_program_write_binary(&p, devnull, &err);
    fclose(devnull);
  }
  vta_program_free(&p);
  return 0;
}
