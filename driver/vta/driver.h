/*
 * vta/driver.h - the VTA driver API (docs/isa.md 7.1) served by vtasim, with the
 * same names and signatures as VTA's own driver.h, so host code written for
 * VTA compiles and links against libvtasim unchanged.
 *
 * All devices share one process-wide device memory: VTAMemAlloc takes no
 * device argument.  VTADeviceAlloc reads the environment (docs/driver.md):
 * VTASIM_CONFIG (a vta_config.json; the default configuration otherwise),
 * VTASIM_ENGINE (model, functional, rtl or cosim), and the files every run
 * is recorded in: VTASIM_REPORT, VTASIM_TRACE, VTASIM_CAPTURE.  vtasim's own
 * extensions (counters, errors) are in vtasim_driver.h.
 */
#ifndef VTASIM_VTA_DRIVER_H_
#define VTASIM_VTA_DRIVER_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exported from libvtasim.so, whose objects are otherwise hidden
 * (-fvisibility=hidden): the driver API is part of its public API. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define VTA_CACHED 1
#define VTA_NOT_CACHED 0

#ifndef VTA_MAX_XFER
#define VTA_MAX_XFER (1 << 25)
#endif

#define VTA_PAGE_BITS 12
#define VTA_PAGE_BYTES (1 << VTA_PAGE_BITS)

typedef void *VTADeviceHandle;

#ifdef USE_VTA64
typedef uint64_t vta_phy_addr_t;
#else
typedef uint32_t vta_phy_addr_t;
#endif

VTADeviceHandle VTADeviceAlloc(void);
void VTADeviceFree(VTADeviceHandle handle);

/* Run insn_count instructions at insn_phy_addr until FINISH.  Returns 0 on
 * success; 2 on a fault (deadlock, access out of range...) and 1 when the
 * cosim engine's two sides diverge, after printing the message (the
 * first-divergence report) on stderr.  wait_cycles is accepted and ignored,
 * as in fsim: every engine runs to FINISH or a fault. */
int VTADeviceRun(VTADeviceHandle device, vta_phy_addr_t insn_phy_addr, uint32_t insn_count,
                 uint32_t wait_cycles);

void *VTAMemAlloc(size_t size, int cached);
void VTAMemFree(void *buf);
vta_phy_addr_t VTAMemGetPhyAddr(void *buf);
void VTAMemCopyFromHost(void *dst, const void *src, size_t size);
void VTAMemCopyToHost(void *dst, const void *src, size_t size);
void VTAFlushCache(void *vir_addr, vta_phy_addr_t phy_addr, int size);
void VTAInvalidateCache(void *vir_addr, vta_phy_addr_t phy_addr, int size);
void VTAProgram(const char *bitstream);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
