/*
 * vta_program_int.h - helpers shared by the files of the program format
 * (vta_program.c: the in-memory model; vta_asm.c: the text reader;
 * vta_disasm.c: the text writer; vta_bundle.c: the binary container).
 * Not part of the public API: the rules they implement (names, segment
 * shape and placement) must be applied identically by every reader, so
 * they live in one place.
 */
#ifndef VTA_PROGRAM_INT_H
#define VTA_PROGRAM_INT_H

#include "vta_program.h"

/* Where `auto` placement starts and the granule it rounds up to (fsim pages). */
#define VTAP_AUTO_BASE 0x1000u
#define VTAP_PAGE 0x1000u

/* Segment names, counter names: [A-Za-z_][A-Za-z0-9_.]*, 1..63 characters.
 * No '+' or '-', which end a name inside `@name+K`. */
int vtap_valid_name(const char *s);
/* Meta keys: [A-Za-z0-9_.-]+, 1..63 characters. */
int vtap_valid_meta_key(const char *s);
/* Meta values: printable, no '#', no newline, no leading/trailing blank. */
int vtap_valid_meta_value(const char *s);
/* TARGET / HW_VER: one non-empty printable word without '#'. */
int vtap_valid_word(const char *s);

const char *vtap_kind_name(vta_seg_kind_t kind); /* "data", "uop", "insn" */
uint32_t vtap_item_bytes(vta_seg_kind_t kind);   /* 1, 4, 16 */

/* Everything about one segment that does not depend on the others. */
int vtap_check_shape(const char *name, vta_seg_kind_t kind, uint32_t addr, uint32_t size,
                     vta_err *err);
/* Name clash or overlap with a segment already in p. */
int vtap_check_clash(const vta_program_t *p, const char *name, uint32_t addr,
                     uint32_t size, vta_err *err);
/* The `auto` address for a new segment: the first 4 KiB boundary at or
 * after the end of every segment so far, at least 0x1000. */
int vtap_auto_addr(const vta_program_t *p, uint32_t *addr, vta_err *err);

/* Check and append a segment that takes ownership of `data` (freed on
 * failure).  addr 0 means auto. */
vta_segment_t *vtap_new_segment(vta_program_t *p, const char *name, vta_seg_kind_t kind,
                                uint32_t addr, uint8_t *data, uint32_t size, vta_err *err);

/* Prefix err with "SOURCE:LINE: " (or "SOURCE: " without a line) when the
 * program came from a file.  Returns -1. */
int vtap_where(const vta_program_t *p, int line, vta_err *err);

/* Lowercase hex of n bytes into out (2n+1 bytes). */
void vtap_hex(const uint8_t *data, size_t n, char *out);

/* The binary container's 8-byte magic. */
extern const uint8_t vtap_magic[8];

#endif
