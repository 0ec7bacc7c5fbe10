/*
 * model_peek.h - the C model inside a driver device, for the tests that
 * look inside it (its configuration, statistics, scratchpads).  Only the
 * model's own tests may downcast an engine (vta_engine_model); everything
 * else reads a device through the engine interface.
 */
#ifndef VTASIM_TESTS_MODEL_PEEK_H
#define VTASIM_TESTS_MODEL_PEEK_H

#include "vta_model.h"
#include "vta_session.h"
#include "vtasim_driver.h"

/* The model of a "model" or "functional" device; NULL for another engine
 * or a handle that is not a device. */
static inline vta_model_t *device_model(VTADeviceHandle h) {
  vta_engine_ctx_t *e = h ? vtasim_device_engine(h) : NULL;
  return e ? vta_engine_model(e) : NULL;
}

/* The model of a session whose engine is the model's (NULL otherwise). */
static inline vta_model_t *session_model(vta_session_t *s) {
  return vta_engine_model(vta_session_engine(s));
}

#endif
