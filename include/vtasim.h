/*
 * vtasim.h - the public C API of libvtasim.so (and libvtasim.a): the
 * simulator of VTA, the TVM deep-learning accelerator, as a library.
 *
 *   cc host.c $(pkg-config --cflags --libs vtasim)
 *
 * What it offers, each over every engine ("functional", "model", "rtl",
 * "cosim"; vtasim_engines()):
 *   - programs: load a bundle (docs/trace-format.md), run it, read what the
 *     run left (cycles, the seven fsim statistics, the cycle counters, the
 *     verdict of its expectations, the profile, DRAM segments, scratchpad
 *     rows) and the report as JSON, the object `vtasim run --json` prints
 *     (schema vtasim-run/2, docs/report-json.md);
 *   - workloads compiled by compiler-lite: GEMM, conv2d and the ResNet-18
 *     layers, on data given by the caller or from a seed;
 *   - VTA's own driver API, <vta/driver.h> (VTADeviceAlloc, VTAMemAlloc,
 *     VTADeviceRun, ...), with a device per engine (vtasim_device_open) and
 *     its statistics (vtasim_device_stats).
 *
 * Conventions: a call that fails returns NULL or -1 and leaves a sentence
 * saying why (the file, line, field, unit or instruction) in
 * vtasim_last_error(), per thread, with its kind in
 * vtasim_last_error_kind().  Options are JSON objects (a NULL or "" string
 * is {}), so that new options never change a signature.  Strings returned
 * as char * are the caller's: release them with vtasim_free().  Every
 * handle is checked before use: a NULL or freed handle is an error, never
 * a crash.  The library is not thread-safe for one handle used from two
 * threads at once; distinct handles may be used in parallel, except the
 * devices of the driver API, which share one device memory as VTA's
 * drivers do.
 */
#ifndef VTASIM_H
#define VTASIM_H

#include <stddef.h>
#include <stdint.h>

#include "vta/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define VTASIM_API __attribute__((visibility("default")))
#else
#define VTASIM_API
#endif

/* The version of this header; vtasim_version() is the library's.  The
 * major number is the soname's (libvtasim.so.MAJOR): it changes when a
 * declaration of this header changes incompatibly. */
#define VTASIM_VERSION_MAJOR 0
#define VTASIM_VERSION_MINOR 1
#define VTASIM_VERSION_PATCH 0
#define VTASIM_VERSION_STRING "0.1.0"
#define VTASIM_VERSION_NUMBER \
  (VTASIM_VERSION_MAJOR * 10000 + VTASIM_VERSION_MINOR * 100 + VTASIM_VERSION_PATCH)

/* "0.1.0": the library's version, which a program compares with
 * VTASIM_VERSION_STRING to detect a library older than its header. */
VTASIM_API const char *vtasim_version(void);
/* VTASIM_VERSION_NUMBER of the library. */
VTASIM_API int vtasim_version_number(void);

/* What went wrong; values fixed for the life of the major version. */
typedef enum vtasim_error_kind {
  VTASIM_OK = 0,
  VTASIM_EINPUT = 1,    /* malformed file, option or argument */
  VTASIM_EIO = 2,       /* a file cannot be opened, read or written */
  VTASIM_ERANGE = 3,    /* a run reached outside a scratchpad or DRAM */
  VTASIM_EILLEGAL = 4,  /* an instruction illegal for its unit */
  VTASIM_ETOKEN = 5,    /* dependency-token queue overflow */
  VTASIM_EDEADLOCK = 6, /* every unit blocked */
  VTASIM_ENOFINISH = 7, /* the instructions ended without FINISH */
  VTASIM_EMISMATCH = 8, /* co-simulation diverged */
  VTASIM_ENOMEM = 9,
  VTASIM_ERACE = 10,    /* two units reach a scratchpad row unordered */
  VTASIM_EINTR = 11,    /* stopped on request */
  VTASIM_EHANDLE = 12   /* a NULL, freed or foreign handle */
} vtasim_error_kind_t;

/* The message and kind of this thread's last failed call ("" and
 * VTASIM_OK if none failed yet). */
VTASIM_API const char *vtasim_last_error(void);
VTASIM_API int vtasim_last_error_kind(void);

/* Release a string (or buffer) the library returned. */
VTASIM_API void vtasim_free(void *p);

/* "functional, model, rtl, cosim": the engines this library can open. */
VTASIM_API const char *vtasim_engines(void);
/* The timing parameters a run or a device takes (docs/microarch.md 2), as
 * a JSON array of {"name", "key", "option", "default", "min", "max",
 * "doc"}; options objects name them by key ("rd_lat"). */
VTASIM_API char *vtasim_params_json(void);

/* The default configuration (the one compiler-lite, the layouts and
 * vtasim_device_open use without VTASIM_CONFIG), as JSON: {"name",
 * "batch", "block_in", "block_out", "inp_depth", "wgt_depth", "acc_depth",
 * "out_depth", "uop_depth"}. */
VTASIM_API char *vtasim_config_json(void);

/* ---- programs ------------------------------------------------------------ */

typedef struct vtasim_program vtasim_program_t;

/* A bundle read from a file, text or binary container. */
VTASIM_API vtasim_program_t *vtasim_program_load(const char *path);
/* A bundle from memory: the text form or the binary container; name is
 * used in messages and to resolve the relative paths of the text form. */
VTASIM_API vtasim_program_t *vtasim_program_parse(const void *data, size_t len,
                                                  const char *name);
VTASIM_API void vtasim_program_free(vtasim_program_t *p);
/* The canonical text form (what `vtasim gen` writes); the binary
 * container, its length in *len. */
VTASIM_API char *vtasim_program_text(const vtasim_program_t *p);
VTASIM_API void *vtasim_program_binary(const vtasim_program_t *p, size_t *len);
/* What the bundle holds, as JSON: {"config": {...}, "segments": [{"name",
 * "kind", "addr", "size"}], "runs": [{"segment", "count"}], "expectations":
 * [{"kind", "segment", "offset", "size"} | {"kind", "counter", "value"}],
 * "meta": {key: value}}. */
VTASIM_API char *vtasim_program_json(const vtasim_program_t *p);
/* A segment's initial bytes: a pointer into the program (valid while it
 * lives) and its size; NULL when there is no such segment. */
VTASIM_API const uint8_t *vtasim_program_segment(const vtasim_program_t *p, const char *name,
                                                 uint32_t *size);

/* The bytes expectation i (0-based, of vtasim_program_json's list) wants
 * in DRAM: a pointer into the program and its size; NULL when expectation
 * i is not of kind "bytes". */
VTASIM_API const uint8_t *vtasim_program_expected(const vtasim_program_t *p, int i,
                                                  uint32_t *size);

/* ---- runs ---------------------------------------------------------------- */

typedef struct vtasim_result vtasim_result_t;

/*
 * Run every `.run` of the program on a fresh device of engine `engine`
 * (NULL: "model") and check its expectations, as `vtasim run` does.
 * options: the timing parameters by key ({"rd_lat": 20, ...}) and
 * "max_cycles", "max_insns", "no_skip", "skip_exec" (1: timing without
 * values, the model only: cycles, counters and events as the full run,
 * data expectations not checked), "profile" (false: no attribution;
 * default true on engines with cycles).  NULL when the run could not be
 * made or stopped with a fault (the message names the unit, the
 * instruction and its source line); a run whose expectations fail is
 * returned, with status 1.
 */
VTASIM_API vtasim_result_t *vtasim_program_run(const vtasim_program_t *p, const char *engine,
                                            const char *options);
VTASIM_API void vtasim_result_free(vtasim_result_t *r);
/* 0: every expectation held; 1: some failed (vtasim_result_json says which). */
VTASIM_API int vtasim_result_status(const vtasim_result_t *r);
/* ECNT of the last run (cycles, launch to FINISH); 0 on the functional
 * engine or for a bad handle (then vtasim_last_error says why). */
VTASIM_API uint64_t vtasim_result_cycles(const vtasim_result_t *r);
/* The seven fsim statistics (vta.testing.simulator.stats()), indexed 0..6
 * as vtasim_stat_name names them ("inp_load_nbytes", ... "alu_counter");
 * NULL outside 0..6. */
#define VTASIM_NSTATS 7
VTASIM_API const char *vtasim_stat_name(int i);
VTASIM_API int vtasim_result_stats(const vtasim_result_t *r, uint64_t stats[VTASIM_NSTATS]);
/* The report, the JSON object of `vtasim run --json` (docs/report-json.md). */
VTASIM_API char *vtasim_result_json(const vtasim_result_t *r);
/* A segment's bytes after the run (valid while the run lives). */
VTASIM_API const uint8_t *vtasim_result_segment(const vtasim_result_t *r, const char *name,
                                             uint32_t *size);
/* Scratchpad row `index` of buffer "inp", "wgt", "acc", "out" or "uop"
 * after the run, one int32 per lane; returns the lane count (at most
 * nlanes are written), -1 on error. */
VTASIM_API int vtasim_result_sram(const vtasim_result_t *r, const char *buffer, uint32_t index,
                               int32_t *lanes, int nlanes);

/* ---- workloads (compiler-lite) --------------------------------------------- */

/*
 * The program TVM's VTA stack produces for a dense layer or a conv2d, with
 * its expected output and statistics.  options: the keys of `vtasim gen`'s
 * options with '_' for '-' and the same meaning ({"batch": 1,
 * "in_channels": 1024, "out_channels": 1024, "b_block", "ic_block",
 * "oc_block", "virtual_threads", "auto", "store": "elem"|"tile", "shift",
 * "clip": [lo, hi], "bias", "seed", "range"}, conv2d adding "height",
 * "width", "kernel", "pad", "stride" (N or [N, N]), "h_block", "w_block");
 * {} is TVM's tutorial schedule.  Data: NULL for the seed's; otherwise
 * row-major int8 tensors of the shapes (gemm: a [batch][in], w [out][in];
 * conv2d: x NCHW, k OIHW) and an int32 bias [out] when "bias" is set.
 */
VTASIM_API vtasim_program_t *vtasim_gen_gemm(const char *options, const int8_t *a,
                                             const int8_t *w, const int32_t *bias);
VTASIM_API vtasim_program_t *vtasim_gen_conv2d(const char *options, const int8_t *x,
                                               const int8_t *k, const int32_t *bias);
/* The parameters a gemm or conv2d of these options gets ("gemm" or
 * "conv2d"): shapes, tiles (chosen when not given), epilogue, seed, as a
 * JSON object with the options' keys (and "out_height", "out_width"). */
VTASIM_API char *vtasim_gen_json(const char *op, const char *options);

/*
 * ResNet-18's convolutions as VTA runs them; options {"size": 56,
 * "width_div": 1, "seed": 1}.  The layers, as JSON: {"network", "input":
 * [N, C, H, W], "layers": [{"name", "workload", "input", "residual",
 * "batch", "in_channels", "height", "width", "out_channels", "out_height",
 * "out_width", "shift", "kernel", "pad", "stride", "clip"}]}, the shapes
 * of `vtasim gen resnet18 --list --json` with the API's conventions:
 * tensors by number (0 the network's input, i + 1 layer i's output;
 * "residual" null when none) and pairs as [h, w] ("clip": [lo, hi]),
 * as vtasim_gen_conv2d's options take them; the network's input
 * (NCHW): the host's 7x7 stem and max pooling run on an image from the
 * seed (docs/network.md, "Host operators"); and layer i's program on input x and residual
 * (NCHW, NULL when the layer has none), its expected output written to y
 * (NCHW, out_size bytes at most).
 */
VTASIM_API char *vtasim_resnet18_json(const char *options);
VTASIM_API int vtasim_resnet18_input(const char *options, int8_t *x, size_t size);
VTASIM_API vtasim_program_t *vtasim_gen_resnet18_layer(const char *options, int layer,
                                                       const int8_t *x, const int8_t *residual,
                                                       int8_t *y, size_t out_size);

/*
 * A whole network: a manifest (docs/network.md; `vtasim gen resnet18` and
 * `vtasim gen net` write one, with its bundles beside it) run on engine
 * `engine` (NULL: "model") as `vtasim run NET.net --json` runs it: every
 * layer in order, each reading the simulated output of the layer it
 * names, its expectations checked, the host operators around the layers
 * run.  options: {"skip_exec": 1 (timing without values, the model only:
 * the layers run at once, data expectations not checked), "jobs": N
 * (layers at once with skip_exec; default one per CPU), "clock_mhz": F
 * (100), the timing parameters by key as vtasim_program_run takes them
 * ({"rd_lat": 20, ...}: every layer's), "output": FILE (the network's
 * output tensor, NCHW int8),
 * "host_output": FILE (the last host operator's output), "compare":
 * another manifest run beside it}.  Returns the report (schema
 * vtasim-net/1, docs/report-json.md) with "status" "ok" or "mismatch";
 * NULL when the network could not be run (the message names the file,
 * line and field), or an output would overwrite one of its inputs.  Free
 * with vtasim_free.
 */
VTASIM_API char *vtasim_network_run(const char *manifest, const char *engine,
                                    const char *options);
/*
 * Write a network for vtasim_network_run into dir (created if missing):
 * the description's (a JSON file, docs/network.md "Describing a network",
 * as `vtasim gen net FILE.json`) or, description NULL, ResNet-18's (as
 * `vtasim gen resnet18`), each layer lowered by compiler-lite into its
 * bundle beside the input, weights, biases and the manifest.  options:
 * {"size": 56, "width_div": 1, "seed": 1} (ResNet-18), "fuse_residual": 1
 * (a description's fused lowering, named NAME_fused), "config": FILE.
 * Returns the manifest's path (free with vtasim_free), or NULL with the
 * error naming the file and field; no file is written over an input.
 */
VTASIM_API char *vtasim_network_gen(const char *description, const char *dir,
                                    const char *options);

/* Layouts, as TVM's tutorials pack tensors (BATCH, BLOCK_IN, BLOCK_OUT of
 * the default configuration): what = "nchw" (NCHW <-> NCHW1n16c, block
 * BLOCK_IN; "nchw_out" with BLOCK_OUT), "oihw" (the weight tiles
 * OIHW <-> OIHW16o16i), "gemm_inp" ([n][k] -> [n/B][k/BI][B][BI]),
 * "gemm_wgt", "gemm_out"; dims: the unpacked shape (4 for the 4-D
 * layouts, 2 for gemm).  unpack 0 packs src into dst, 1 unpacks. */
VTASIM_API int vtasim_layout(const char *what, int unpack, const int *dims, int ndims,
                             const int8_t *src, int8_t *dst);

/* ---- VTA's driver API on any engine ----------------------------------------- */

/* VTADeviceAlloc on the named engine instead of VTASIM_ENGINE's, with
 * options as vtasim_program_run's timing keys; NULL with the reason. */
VTASIM_API VTADeviceHandle vtasim_device_open(const char *engine, const char *options);
/* Everything the device counted since it was opened or cleared, as
 * JSON: {"engine", "stats": {the seven}, "cycles": ECNT of the last run,
 * "counters": {...} (null on the functional engine), "tokens": [4],
 * "runs"}; NULL for a bad handle. */
VTASIM_API char *vtasim_device_json(VTADeviceHandle h);
/* The seven statistics, accumulated (vta.testing.simulator.stats()). */
VTASIM_API int vtasim_device_stats(VTADeviceHandle h, uint64_t stats[VTASIM_NSTATS]);
/* The cycles (ECNT) of the device's last VTADeviceRun into *cycles: 1, or
 * 0 when the engine counts no cycles (functional), -1 for a bad handle or
 * before the first run. */
VTASIM_API int vtasim_device_last_cycles(VTADeviceHandle h, uint64_t *cycles);
/* Zero them (vta.testing.simulator.clear_stats()); -1 for a bad handle. */
VTASIM_API int vtasim_device_reset_stats(VTADeviceHandle h);
/* Why the last VTADeviceRun of h failed ("" if it did not); for NULL, the
 * last error of the driver not tied to a device. */
VTASIM_API const char *vtasim_device_last_error(VTADeviceHandle h);
/* The seven statistics of every VTADeviceRun of the process, all devices
 * together, since it started or vtasim_stats_clear(): fsim's profiler, as
 * vta.testing.simulator.stats() and clear_stats() read and reset it. */
VTASIM_API void vtasim_stats(uint64_t stats[VTASIM_NSTATS]);
VTASIM_API void vtasim_stats_clear(void);
/* The device memory behind a VTAMemAlloc pointer: 1 if buf..buf+size lies
 * in one live allocation, else 0 (what a checked copy needs). */
VTASIM_API int vtasim_mem_valid(const void *buf, size_t size);
/* Device memory at a given physical address (where a bundle's segment
 * lives), as VTAMemAlloc gives it elsewhere: zero-filled, released with
 * VTAMemFree; NULL when the range is taken or outside 32 bits. */
VTASIM_API void *vtasim_mem_alloc_at(uint32_t phys, size_t size);

#ifdef __cplusplus
}
#endif

#endif
