/*
 * vta_mem.h - the device's DRAM: a 32-bit physical address space of
 * allocations backed by host memory, which the host writes directly and the
 * device reads and writes directly (as VTA's fsim does).
 *
 * Physical addresses follow fsim's virtual memory: whole 4 KiB pages,
 * address 0 never valid.  The same component serves the C model and the
 * RTL's memory port in the testbench, so both see identical memory.
 *
 * An external memory (vta_mem_new_external) is someone else's DRAM, e.g. a
 * SystemC platform's memory behind a TLM initiator socket: the engines then
 * get a direct pointer only where the owner grants one (DMI) and copy
 * through its read/write functions elsewhere; an error answered there is a
 * range fault, reported as for an address outside every allocation.
 */
#ifndef VTA_MEM_H
#define VTA_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "vta_err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_PAGE_BYTES_MEM 4096u

typedef struct vta_mem vta_mem_t;

vta_mem_t *vta_mem_new(void);
void vta_mem_free(vta_mem_t *m);

/* Host memory for the device's memories: n zero bytes (NULL if out of
 * memory), mapped from the kernel when large, so that the pages a run never
 * touches (most of them when it skips execution) cost no write and no page
 * fault; else calloc'd.  Release with vta_zfree and the same n. */
void *vta_zalloc(size_t n);
void vta_zfree(void *p, size_t n);

/* The functions of an external memory; ctx is the owner's. */
typedef struct vta_mem_ops {
  /* A host pointer to all of [phys, phys+len), valid until the next call of
   * any of these functions (DMI can be revoked between calls), or NULL when
   * the owner grants none there.  for_write: the caller will write. */
  uint8_t *(*direct)(void *ctx, uint64_t phys, uint64_t len, int for_write);
  /* Copy through the owner's bus: 0, or -1 with the owner's message when it
   * answered an error (the bytes are then unspecified). */
  int (*read)(void *ctx, uint64_t phys, void *dst, uint64_t len, vta_err *err);
  int (*write)(void *ctx, uint64_t phys, const void *src, uint64_t len, vta_err *err);
  /* 1 when [phys, phys+len) is memory, asked without side effects (a
   * debug access); used for the engines' range checks. */
  int (*mapped)(void *ctx, uint64_t phys, uint64_t len);
  /* Optional (NULL: none known): the i-th DRAM range the owner declares,
   * as vta_mem_block; what the co-simulation mirrors and compares. */
  int (*block)(void *ctx, size_t i, uint32_t *phys, uint64_t *span);
} vta_mem_ops_t;

/* An external memory: nothing is allocated here (alloc fails), every access
 * goes to ops, which must outlive it. */
vta_mem_t *vta_mem_new_external(const vta_mem_ops_t *ops, void *ctx);
int vta_mem_is_external(const vta_mem_t *m);

/* Allocate `size` bytes at the next free page-aligned physical address.
 * The host pointer is 4 KiB aligned and zero-filled. */
void *vta_mem_alloc(vta_mem_t *m, size_t size, uint32_t *phys, vta_err *err);

/* Allocate at a given physical address (a trace segment).  Fails when the
 * range is 0, leaves 32-bit space or overlaps an allocation. */
void *vta_mem_alloc_at(vta_mem_t *m, uint32_t phys, size_t size, vta_err *err);
/* The same, its first size bytes a copy of data (the rest of its pages zero). */
void *vta_mem_alloc_at_copy(vta_mem_t *m, uint32_t phys, const void *data, size_t size,
                            vta_err *err);

/* Free an allocation by its host pointer (the one alloc returned). */
int vta_mem_release(vta_mem_t *m, void *host);

/* Host pointer for [phys, phys+len) when it lies inside one allocation,
 * else NULL.  len 0 is allowed.  External memory: the owner's direct
 * pointer (for reading or writing), NULL where it grants none: an engine
 * then copies with vta_mem_read/vta_mem_write, and checks with
 * vta_mem_mapped. */
void *vta_mem_host(const vta_mem_t *m, uint64_t phys, uint64_t len);

/* [phys, phys+len) is device memory (an allocation; external: a direct
 * pointer or the owner's debug answer). */
int vta_mem_mapped(const vta_mem_t *m, uint64_t phys, uint64_t len);

/* Physical address of a host pointer inside an allocation (interior pointers
 * allowed), 0 if it is not device memory. */
uint32_t vta_mem_phys(const vta_mem_t *m, const void *host);

/* The i-th allocation in physical order (0 .. n-1): its first byte and the
 * bytes it reserves; -1 past the last (external memory: its owner's
 * declared ranges).  For mirroring a DRAM (cosim). */
int vta_mem_block(const vta_mem_t *m, size_t i, uint32_t *phys, uint64_t *span);
/* Make dst hold src's allocations with src's bytes (allocating in dst what
 * it lacks); fails when an allocation of src overlaps another in dst. */
int vta_mem_mirror(vta_mem_t *dst, const vta_mem_t *src, vta_err *err);

/* Copy helpers with a range error naming the address ("what" names the user;
 * an external memory's error response is reported the same way). */
int vta_mem_read(const vta_mem_t *m, uint64_t phys, void *dst, uint64_t len,
                 const char *what, vta_err *err);
int vta_mem_write(vta_mem_t *m, uint64_t phys, const void *src, uint64_t len,
                  const char *what, vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
