/*
 * vtasim_driver.h - vtasim's extensions to the driver API: reach the model
 * behind a VTADeviceHandle (statistics, tokens, the last error) and the
 * process-wide device memory.
 */
#ifndef VTASIM_DRIVER_H
#define VTASIM_DRIVER_H

#include "vta/driver.h"
#include "vta_mem.h"
#include "vta_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The process-wide device memory behind VTAMemAlloc (created on first use). */
vta_mem_t *vtasim_driver_mem(void);
/* The model of a live device; NULL for a NULL, freed or foreign handle. */
vta_model_t *vtasim_device_model(VTADeviceHandle h);
/* Message of the last failed VTADeviceRun on this device, "" if none.  For
 * NULL (or a handle that is no live device): the last error not tied to a
 * device, e.g. why VTADeviceAlloc returned NULL. */
const char *vtasim_device_error(VTADeviceHandle h);

#ifdef __cplusplus
}
#endif

#endif
