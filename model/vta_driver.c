/*
 * vta_driver.c - VTA's driver API (spec 7.1) on top of the model, so that
 * host code written against VTA's driver.h runs on vtasim unchanged.
 *
 * Like fsim, all devices share one process-wide device memory (VTAMemAlloc
 * has no device argument).  The environment chooses what VTADeviceAlloc
 * builds: VTASIM_CONFIG (a vta_config.json) and VTASIM_ENGINE ("model", the
 * cycle-accurate default, or "functional").  The driver API has no error channel besides
 * return values, so failures are also printed on stderr.
 */
#include "vtasim_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct device {
  vta_model_t *model;
  char error[VTA_ERR_LEN];
} device_t;

static vta_mem_t *g_mem;

vta_mem_t *vtasim_driver_mem(void) {
  if (!g_mem) g_mem = vta_mem_new();
  return g_mem;
}

void *VTAMemAlloc(size_t size, int cached) {
  (void)cached; /* simulated memory is coherent */
  if (size == 0 || size > VTA_MAX_XFER) {
    fprintf(stderr, "VTAMemAlloc: size %zu is outside 1..%d (VTA_MAX_XFER)\n", size,
            VTA_MAX_XFER);
    return NULL;
  }
  vta_mem_t *mem = vtasim_driver_mem();
  vta_err err;
  void *p = mem ? vta_mem_alloc(mem, size, NULL, &err) : NULL;
  if (!p) fprintf(stderr, "VTAMemAlloc: %s\n", mem ? err.msg : "out of memory");
  return p;
}

void VTAMemFree(void *buf) {
  if (!buf) return;
  if (!g_mem || vta_mem_release(g_mem, buf))
    fprintf(stderr, "VTAMemFree: %p was not returned by VTAMemAlloc\n", buf);
}

vta_phy_addr_t VTAMemGetPhyAddr(void *buf) {
  uint32_t phys = g_mem ? vta_mem_phys(g_mem, buf) : 0;
  if (!phys) fprintf(stderr, "VTAMemGetPhyAddr: %p is not device memory\n", buf);
  return phys;
}

void VTAMemCopyFromHost(void *dst, const void *src, size_t size) { memcpy(dst, src, size); }
void VTAMemCopyToHost(void *dst, const void *src, size_t size) { memcpy(dst, src, size); }

/* Coherent simulated memory: nothing to flush or invalidate. */
void VTAFlushCache(void *vir_addr, vta_phy_addr_t phy_addr, int size) {
  (void)vir_addr, (void)phy_addr, (void)size;
}
void VTAInvalidateCache(void *vir_addr, vta_phy_addr_t phy_addr, int size) {
  (void)vir_addr, (void)phy_addr, (void)size;
}

void VTAProgram(const char *bitstream) { (void)bitstream; }

VTADeviceHandle VTADeviceAlloc(void) {
  vta_config_t cfg;
  vta_err err;
  vta_config_default(&cfg);
  const char *path = getenv("VTASIM_CONFIG");
  if (path && *path && vta_config_load_json(&cfg, path, &err)) {
    fprintf(stderr, "VTADeviceAlloc: VTASIM_CONFIG: %s\n", err.msg);
    return NULL;
  }
  vta_model_params_t params;
  vta_model_params_default(&params);
  const char *engine = getenv("VTASIM_ENGINE");
  if (engine && *engine && vta_engine_parse(engine, &params.engine, &err)) {
    fprintf(stderr, "VTADeviceAlloc: VTASIM_ENGINE: %s\n", err.msg);
    return NULL;
  }
  vta_mem_t *mem = vtasim_driver_mem();
  device_t *d = calloc(1, sizeof *d);
  if (!mem || !d) {
    free(d);
    fprintf(stderr, "VTADeviceAlloc: out of memory\n");
    return NULL;
  }
  d->model = vta_model_new(&cfg, mem, &params, &err);
  if (!d->model) {
    fprintf(stderr, "VTADeviceAlloc: %s\n", err.msg);
    free(d);
    return NULL;
  }
  return d;
}

void VTADeviceFree(VTADeviceHandle handle) {
  device_t *d = handle;
  if (!d) return;
  vta_model_free(d->model);
  free(d);
}

int VTADeviceRun(VTADeviceHandle device, vta_phy_addr_t insn_phy_addr, uint32_t insn_count,
                 uint32_t wait_cycles) {
  (void)wait_cycles; /* the model always runs to completion, as fsim does */
  device_t *d = device;
  vta_err err;
  int rc;
  uint64_t addr = insn_phy_addr; /* 64-bit under USE_VTA64 */
  if (addr >> 32)
    rc = vta_errf(&err, VTA_ERANGE, "instruction address 0x%llx is beyond 32 bits",
                  (unsigned long long)addr);
  else
    rc = vta_model_run(d->model, (uint32_t)insn_phy_addr, insn_count, &err);
  if (rc == 0) {
    d->error[0] = '\0';
    return 0;
  }
  snprintf(d->error, sizeof d->error, "%s", err.msg);
  fprintf(stderr, "VTADeviceRun: %s\n", err.msg);
  return 2;
}

vta_model_t *vtasim_device_model(VTADeviceHandle h) {
  return h ? ((device_t *)h)->model : NULL;
}

const char *vtasim_device_error(VTADeviceHandle h) {
  return h ? ((device_t *)h)->error : "";
}
