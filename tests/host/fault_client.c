/*
 * fault_client.c - a small host program for the driver's bad-input checks
 * (tests/cli/test_bad_input_matrix.sh): one device allocated from the
 * environment (VTASIM_*), one launch of a buffer of 7 instructions (six
 * no-op loads of zero rows, then FINISH), freed.  Written against the
 * driver API only.
 *
 *   fault_client ok         launch the 7 instructions: VTADeviceRun's value
 *   fault_client past N     launch them with insn_count N (more than the
 *                           buffer holds)
 *   fault_client unaligned  launch at the buffer's address + 3
 *
 * Prints "run returned R" (and the device's error when R is not 0).  Exit
 * status: R; 2 when VTADeviceAlloc refused (its message is printed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta/driver.h"
#include "vtasim_driver.h"

enum { NINSN = 7, INSN_BYTES = 16, OP_FINISH = 3 };

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "ok") && strcmp(argv[1], "unaligned") &&
                   (strcmp(argv[1], "past") || argc < 3))) {
    fprintf(stderr, "usage: fault_client ok | past N | unaligned\n");
    return 2;
  }
  VTADeviceHandle dev = VTADeviceAlloc();
  if (!dev) {
    printf("alloc refused: %s\n", vtasim_device_error(NULL));
    return 2;
  }
  uint8_t *buf = VTAMemAlloc(NINSN * INSN_BYTES, 0);
  if (!buf) return 2;
  memset(buf, 0, NINSN * INSN_BYTES); /* LOAD UOP of 0 rows: does nothing */
  buf[(NINSN - 1) * INSN_BYTES] = OP_FINISH;
  vta_phy_addr_t addr = VTAMemGetPhyAddr(buf);
  uint32_t count = NINSN;
  if (!strcmp(argv[1], "past")) count = (uint32_t)strtoul(argv[2], NULL, 0);
  if (!strcmp(argv[1], "unaligned")) addr += 3;
  int r = VTADeviceRun(dev, addr, count, 1000000);
  printf("run returned %d%s%s\n", r, r ? ": " : "", r ? vtasim_device_error(dev) : "");
  VTAMemFree(buf);
  VTADeviceFree(dev);
  return r;
}
