/*
 * vta_program.h - the program/trace bundle: what a VTA run needs (the
 * configuration, named DRAM segments holding instructions, micro-ops and
 * data, the runs to launch) and what it must produce (expectations).
 *
 * Two forms, one in-memory structure: the text form (assembly, see
 * docs/trace-format.md) and a binary container.  Inside both, instruction
 * and micro-op segments hold exactly the bytes VTA reads from DRAM: 16-byte
 * little-endian instructions, 4-byte micro-ops.
 */
#ifndef VTA_PROGRAM_H
#define VTA_PROGRAM_H

#include <stdint.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_err.h"
#include "vta_isa.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_TRACE_VERSION 1  /* the text form's `.version` */
#define VTA_BUNDLE_VERSION 2 /* the binary container's; version 1 is still read */
#define VTA_NAME_LEN 64

typedef enum { VTA_SEG_DATA = 0, VTA_SEG_UOP = 1, VTA_SEG_INSN = 2 } vta_seg_kind_t;

typedef struct vta_segment {
  char name[VTA_NAME_LEN];
  vta_seg_kind_t kind;
  uint32_t addr;  /* physical byte address, non-zero */
  uint32_t size;  /* bytes; a multiple of 16 (INSN) or 4 (UOP) */
  uint8_t *data;  /* size bytes, owned by the program */
  char *file;     /* DATA loaded from a file: its path as written, else NULL */
  int line;       /* source line of the definition, 0 if none */
  int *lines;     /* INSN/UOP: source line of each item, or NULL */
} vta_segment_t;

/* `.run SEG [COUNT]`: one VTADeviceRun of COUNT instructions (0 = all) of SEG. */
typedef struct vta_run {
  char segment[VTA_NAME_LEN];
  uint32_t count;
  int line;
} vta_run_t;

typedef enum {
  VTA_EXPECT_BYTES = 0,  /* DRAM region equals bytes */
  VTA_EXPECT_SHA256 = 1, /* DRAM region has this SHA-256 */
  VTA_EXPECT_COUNTER = 2 /* a statistics counter equals a value */
} vta_expect_kind_t;

typedef struct vta_expect {
  vta_expect_kind_t kind;
  int line;
  char segment[VTA_NAME_LEN]; /* BYTES, SHA256: region = segment[offset, offset+size) */
  uint32_t offset, size;
  uint8_t *bytes;             /* BYTES: size bytes, owned */
  char *file;                 /* BYTES loaded from a file: its path as written */
  uint8_t sha256[32];         /* SHA256 */
  char counter[VTA_NAME_LEN]; /* COUNTER: e.g. "gemm_counter" */
  uint64_t value;
} vta_expect_t;

/* Free-form `.meta KEY VALUE` lines, kept in order (seeds, generator knobs). */
typedef struct vta_meta {
  char key[VTA_NAME_LEN];
  char *value;
} vta_meta_t;

typedef struct vta_program {
  vta_config_t cfg;
  char *source; /* file the program was read from, or NULL */
  vta_segment_t *segs;
  int nsegs;
  vta_run_t *runs;
  int nruns;
  vta_expect_t *expects;
  int nexpects;
  vta_meta_t *meta;
  int nmeta;
} vta_program_t;

/* An empty program for the default configuration. */
void vta_program_init(vta_program_t *p);
void vta_program_free(vta_program_t *p);

/*
 * Parse the text form.  `name` is used in messages ("name:LINE: ...") and to
 * resolve relative file paths (relative to its directory).  On error the
 * program is left freed.  (Like vta_program_load and read_binary, this
 * initialises *p first: free a previous program before reusing it.)
 */
int vta_program_parse(vta_program_t *p, const char *text, size_t len, const char *name,
                      vta_err *err);

/* Read a file in either form (the binary container is recognised by its magic). */
int vta_program_load(vta_program_t *p, const char *path, vta_err *err);

/* The binary container (layout in docs/trace-format.md). */
int vta_program_read_binary(vta_program_t *p, const uint8_t *data, size_t len,
                            const char *name, vta_err *err);
int vta_program_write_binary(const vta_program_t *p, FILE *f, vta_err *err);

/*
 * The canonical text form: every instruction disassembled with every field
 * named, data as hex.  Parsing what this writes gives back the same program,
 * so text -> binary -> text is stable.
 */
int vta_program_write_text(const vta_program_t *p, FILE *f, vta_err *err);

/* Check a program for use: segments inside 32-bit memory, not overlapping,
 * every instruction and micro-op decodable, runs and expectations naming
 * existing segments and regions.  Parsing already does this. */
int vta_program_validate(const vta_program_t *p, vta_err *err);

/* Building programs in code (compiler-lite, generators, tests).  addr 0 means
 * "the next free 4 KiB-aligned address".  The data is copied; data NULL gives
 * a zero-filled segment.  A segment is at most VTA_SEGMENT_MAX_BYTES.  The
 * returned pointer is valid until the next segment is added.  Runs and
 * expectations may name segments added later: vta_program_validate checks
 * them. */
vta_segment_t *vta_program_add_segment(vta_program_t *p, const char *name,
                                       vta_seg_kind_t kind, uint32_t addr,
                                       const void *data, uint32_t size, vta_err *err);
int vta_program_add_run(vta_program_t *p, const char *segment, uint32_t count,
                        vta_err *err);
int vta_program_add_expect_bytes(vta_program_t *p, const char *segment, uint32_t offset,
                                 const void *bytes, uint32_t size, vta_err *err);
int vta_program_add_expect_sha256(vta_program_t *p, const char *segment, uint32_t offset,
                                  uint32_t size, const uint8_t sha256[32], vta_err *err);
int vta_program_add_expect_counter(vta_program_t *p, const char *counter, uint64_t value,
                                   vta_err *err);
int vta_program_add_meta(vta_program_t *p, const char *key, const char *value,
                         vta_err *err);

vta_segment_t *vta_program_find(const vta_program_t *p, const char *name);

/* Where a failed run `run` (0-based) went wrong, as a "FILE:LINE: " prefix
 * of err: the faulting instruction's own line when err->insn names one,
 * else the .run line (nothing without a source). */
void vta_program_fault_where(const vta_program_t *p, int run, vta_err *err);

/* Disassemble raw bytes: 16-byte instructions or 4-byte micro-ops, one per line. */
int vta_disasm_insns(const vta_config_t *cfg, const uint8_t *data, size_t len, FILE *f,
                     const char *name, vta_err *err);
int vta_disasm_uops(const vta_config_t *cfg, const uint8_t *data, size_t len, FILE *f,
                    const char *name, vta_err *err);

/* SHA-256 of a buffer (nettle; SHA-NI when the CPU has it): the `.expect
 * sha256` digests, which match `sha256sum`, and the END checksum of binary
 * containers of version 1. */
void vta_sha256(const void *data, size_t len, uint8_t out[32]);

/* XXH3-128 of a buffer (xxHash), in its canonical big-endian byte order, as
 * `xxhsum -H2` prints it: the END checksum of binary containers from
 * version 2 on, which detects corruption at memory speed (SHA-256 runs at a
 * fraction of it; docs/trace-format.md, "Binary container"). */
void vta_xxh128(const void *data, size_t len, uint8_t out[16]);

/* ---- additions for the program format ------------------------------------ */

/* The largest segment, expectation or data file accepted: 1 GiB. */
#define VTA_SEGMENT_MAX_BYTES (1u << 30)

/*
 * Compare two programs: configuration (keys, TARGET, HW_VER), meta, segments
 * (name, kind, address, bytes), runs and expectations, in order.  Source
 * names, line numbers and `file` provenance are not compared.  Returns 1 when
 * equal; otherwise 0 and, if why is non-NULL, a sentence on the first
 * difference.
 */
int vta_program_equal(const vta_program_t *a, const vta_program_t *b, char *why,
                      size_t len);

/* The binary container in a malloc'd buffer: what write_binary writes. */
int vta_program_to_binary(const vta_program_t *p, uint8_t **data, size_t *len,
                          vta_err *err);

/* Write a bundle file (the binary container, or text) to path ("-":
 * stdout) through vta_out (vta_io.h): never over an input, never
 * half-written, never larger than any reader accepts (VTA_FILE_MAX_BYTES):
 * 0, or -1 with err naming the path. */
int vta_program_save(const vta_program_t *p, const char *path, int binary, vta_err *err);

/* 1 when data starts with the binary container's magic "VTASIMB\0". */
int vta_program_is_binary(const uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
