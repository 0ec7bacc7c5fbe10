/*
 * vta_driver.c - VTA's driver API (spec 7.1) on top of the model, so that
 * host code written against VTA's driver.h runs on vtasim unchanged.
 *
 * Like fsim, all devices share one process-wide device memory (VTAMemAlloc
 * has no device argument).  The environment chooses what VTADeviceAlloc
 * builds: VTASIM_CONFIG (a vta_config.json) and VTASIM_ENGINE ("model", the
 * cycle-accurate default, or "functional").  The driver API has no error channel besides
 * return values, so failures are also printed on stderr, and kept:
 * vtasim_device_error(NULL) says why VTADeviceAlloc returned NULL.  Every
 * handle is looked up among the live devices before use: NULL, freed and
 * foreign handles are errors (VTADeviceRun returns 2), never a crash.
 */
#include "vtasim_driver.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct device {
  vta_model_t *model;
  char error[VTA_ERR_LEN];
  struct device *next; /* the live devices, so that a handle is checked, never trusted */
} device_t;

static vta_mem_t *g_mem;
static device_t *g_devices;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
/* The last error not tied to a live device: why VTADeviceAlloc failed, a
 * NULL or foreign handle. */
static char g_error[VTA_ERR_LEN];

static void driver_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void driver_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&g_lock);
  vsnprintf(g_error, sizeof g_error, fmt, ap);
  fprintf(stderr, "%s\n", g_error);
  pthread_mutex_unlock(&g_lock);
  va_end(ap);
}

/* The device behind a handle, or NULL (with the error recorded) when the
 * handle is NULL, freed or was never returned by VTADeviceAlloc. */
static device_t *device_of(VTADeviceHandle h, const char *fn) {
  pthread_mutex_lock(&g_lock);
  device_t *d = g_devices;
  while (d && d != h) d = d->next;
  pthread_mutex_unlock(&g_lock);
  if (!d)
    driver_error("%s: handle %p is not a device returned by VTADeviceAlloc (NULL, already "
                 "freed or foreign)", fn, h);
  return d;
}

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
    driver_error("VTADeviceAlloc: VTASIM_CONFIG: %s", err.msg);
    return NULL;
  }
  vta_model_params_t params;
  vta_model_params_default(&params);
  const char *engine = getenv("VTASIM_ENGINE");
  if (engine && *engine && vta_engine_parse(engine, &params.engine, &err)) {
    driver_error("VTADeviceAlloc: VTASIM_ENGINE: %s", err.msg);
    return NULL;
  }
  if (params.engine != VTA_ENGINE_MODEL && params.engine != VTA_ENGINE_FUNCTIONAL) {
    driver_error("VTADeviceAlloc: VTASIM_ENGINE: '%s' is not available through the driver API "
                 "(expected model or functional)", engine);
    return NULL;
  }
  vta_mem_t *mem = vtasim_driver_mem();
  device_t *d = calloc(1, sizeof *d);
  if (!mem || !d) {
    free(d);
    driver_error("VTADeviceAlloc: out of memory");
    return NULL;
  }
  d->model = vta_model_new(&cfg, mem, &params, &err);
  if (!d->model) {
    driver_error("VTADeviceAlloc: %s", err.msg);
    free(d);
    return NULL;
  }
  pthread_mutex_lock(&g_lock);
  d->next = g_devices;
  g_devices = d;
  pthread_mutex_unlock(&g_lock);
  return d;
}

void VTADeviceFree(VTADeviceHandle handle) {
  if (!handle) return; /* like free(NULL) */
  device_t *d = device_of(handle, "VTADeviceFree");
  if (!d) return;
  pthread_mutex_lock(&g_lock);
  device_t **pp = &g_devices;
  while (*pp != d) pp = &(*pp)->next;
  *pp = d->next;
  pthread_mutex_unlock(&g_lock);
  vta_model_free(d->model);
  free(d);
}

int VTADeviceRun(VTADeviceHandle device, vta_phy_addr_t insn_phy_addr, uint32_t insn_count,
                 uint32_t wait_cycles) {
  (void)wait_cycles; /* the model always runs to completion, as fsim does */
  device_t *d = device_of(device, "VTADeviceRun");
  if (!d) return 2;
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
  device_t *d = h ? device_of(h, "vtasim_device_model") : NULL;
  return d ? d->model : NULL;
}

const char *vtasim_device_error(VTADeviceHandle h) {
  if (!h) return g_error;
  device_t *d = device_of(h, "vtasim_device_error");
  return d ? d->error : g_error;
}
