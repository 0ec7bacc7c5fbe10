/*
 * vta_mem.c - the device DRAM: allocations in a 32-bit physical space,
 * each backed by 4 KiB-aligned, zero-filled host memory.  A large block
 * allocated empty (a driver's buffer) is mapped from the kernel rather than
 * allocated and cleared: its pages are zero without a write, and those a
 * run never touches cost neither a page fault nor a byte.  A block made
 * with its contents (a bundle's segment) comes from the heap, copied, with
 * only its tail cleared.
 *
 * Units look up one DRAM row at a time, so the allocations are kept in an
 * array sorted by physical address (binary search), plus a second index
 * sorted by host address for VTAMemGetPhyAddr's interior pointers.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "vta_mem.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct block {
  uint32_t phys;  /* first byte */
  uint64_t span;  /* bytes of physical space reserved, >= 1 */
  uint8_t *host;  /* at least span bytes: aligned_alloc'd, or vta_zalloc'd (mapped > 0) */
  size_t mapped;  /* the vta_zalloc'd length, 0 when aligned_alloc'd */
} block_t;

/* Blocks of this size and up are mapped (a system call each, and whole
 * pages: not worth it for a driver's small buffers). */
#define MAP_FROM ((size_t)256 << 10)

void *vta_zalloc(size_t n) {
  if (n < MAP_FROM) return calloc(n ? n : 1, 1);
  void *h = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return h == MAP_FAILED ? NULL : h; /* page-aligned and zero */
}

void vta_zfree(void *p, size_t n) {
  if (!p) return;
  if (n < MAP_FROM) free(p);
  else munmap(p, n);
}

static void block_free(block_t *b) {
  if (b->mapped)
    vta_zfree(b->host, b->mapped);
  else
    free(b->host);
  free(b);
}

struct vta_mem {
  block_t **by_phys; /* sorted by phys; ranges never overlap */
  block_t **by_host; /* sorted by (uintptr_t)host */
  size_t n, cap;
  const vta_mem_ops_t *ext; /* external memory, or NULL: the blocks above */
  void *ext_ctx;
  size_t hint; /* by_phys index of the block the last look-up found (a guess: checked) */
};

#define SPACE_END ((uint64_t)1 << 32)

vta_mem_t *vta_mem_new(void) { return calloc(1, sizeof(vta_mem_t)); }

vta_mem_t *vta_mem_new_external(const vta_mem_ops_t *ops, void *ctx) {
  assert(ops && ops->direct && ops->read && ops->write && ops->mapped);
  vta_mem_t *m = vta_mem_new();
  if (m) {
    m->ext = ops;
    m->ext_ctx = ctx;
  }
  return m;
}

int vta_mem_is_external(const vta_mem_t *m) { return m->ext != NULL; }

void vta_mem_free(vta_mem_t *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n; i++) block_free(m->by_phys[i]);
  free(m->by_phys);
  free(m->by_host);
  free(m);
}

static uint64_t end_of(const block_t *b) { return (uint64_t)b->phys + b->span; }

/* Index of the first block whose phys is > p. */
static size_t upper_phys(const vta_mem_t *m, uint64_t p) {
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->by_phys[mid]->phys <= p) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/* Index of the first block whose host address is > h. */
static size_t upper_host(const vta_mem_t *m, uintptr_t h) {
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)m->by_host[mid]->host <= h) lo = mid + 1; else hi = mid;
  }
  return lo;
}

static int grow(vta_mem_t *m, vta_err *err) {
  if (m->n < m->cap) return 0;
  size_t cap = m->cap ? m->cap * 2 : 16;
  block_t **a = realloc(m->by_phys, cap * sizeof *a);
  if (!a) return vta_errf(err, VTA_ENOMEM, "device memory: out of host memory");
  m->by_phys = a;
  block_t **b = realloc(m->by_host, cap * sizeof *b);
  if (!b) return vta_errf(err, VTA_ENOMEM, "device memory: out of host memory");
  m->by_host = b;
  m->cap = cap;
  return 0;
}

/* Create the block [phys, phys+span) with host memory; the caller has
 * checked that the range is free. */
static void *insert(vta_mem_t *m, uint32_t phys, uint64_t span, const void *data,
                    size_t len, vta_err *err) {
  if (grow(m, err)) return NULL;
  /* aligned_alloc wants a size that is a multiple of the alignment. */
  size_t bytes = (size_t)((span + VTA_PAGE_BYTES_MEM - 1) / VTA_PAGE_BYTES_MEM) *
                 VTA_PAGE_BYTES_MEM;
  block_t *b = malloc(sizeof *b);
  /* A block that gets its bytes now comes from the heap, which reuses the
   * pages of blocks freed before (a network's layers one after another);
   * only its tail is cleared. */
  const size_t mapped = bytes >= MAP_FROM && !data ? bytes : 0;
  uint8_t *host = NULL;
  if (mapped) {
    host = vta_zalloc(mapped); /* mapped: page-aligned */
  } else if ((host = aligned_alloc(VTA_PAGE_BYTES_MEM, bytes))) {
    if (len) memcpy(host, data, len);
    memset(host + len, 0, bytes - len);
  }
  if (!b || !host) {
    free(b);
    if (mapped)
      vta_zfree(host, mapped); /* mapped, but no block record for it */
    else
      free(host);
    vta_errf(err, VTA_ENOMEM, "device memory: cannot allocate %zu bytes of host memory",
             bytes);
    return NULL;
  }
  *b = (block_t){phys, span, host, mapped};
  size_t i = upper_phys(m, phys);
  memmove(m->by_phys + i + 1, m->by_phys + i, (m->n - i) * sizeof *m->by_phys);
  m->by_phys[i] = b;
  size_t j = upper_host(m, (uintptr_t)host);
  memmove(m->by_host + j + 1, m->by_host + j, (m->n - j) * sizeof *m->by_host);
  m->by_host[j] = b;
  m->n++;
  return host;
}

static void *no_alloc(vta_err *err) {
  vta_errf(err, VTA_EINPUT, "device memory: an external memory is allocated by its owner");
  return NULL;
}

void *vta_mem_alloc(vta_mem_t *m, size_t size, uint32_t *phys, vta_err *err) {
  if (m->ext) return no_alloc(err);
  if (size == 0)
    return vta_errf(err, VTA_EINPUT, "device memory: cannot allocate 0 bytes"), NULL;
  /* Whole pages, as fsim's virtual memory hands out. */
  uint64_t span = ((uint64_t)size + VTA_PAGE_BYTES_MEM - 1) / VTA_PAGE_BYTES_MEM *
                  VTA_PAGE_BYTES_MEM;
  /* First fit from page 1 upwards: address 0 stays invalid, and freed
   * ranges are reused the way fsim reuses freed pages. */
  uint64_t at = VTA_PAGE_BYTES_MEM;
  for (size_t i = 0; i <= m->n; i++) {
    uint64_t limit = i < m->n ? m->by_phys[i]->phys : SPACE_END;
    if (at + span <= limit) {
      void *host = insert(m, (uint32_t)at, span, NULL, 0, err);
      if (host && phys) *phys = (uint32_t)at;
      return host;
    }
    if (i < m->n) {
      uint64_t e = end_of(m->by_phys[i]);
      at = (e + VTA_PAGE_BYTES_MEM - 1) / VTA_PAGE_BYTES_MEM * VTA_PAGE_BYTES_MEM;
      if (at < VTA_PAGE_BYTES_MEM) at = VTA_PAGE_BYTES_MEM;
    }
  }
  vta_errf(err, VTA_ENOMEM,
           "device memory: no free range of %llu bytes left in the 32-bit physical space",
           (unsigned long long)span);
  return NULL;
}

static void *alloc_at(vta_mem_t *m, uint32_t phys, size_t size, const void *data,
                      vta_err *err) {
  if (m->ext) return no_alloc(err);
  if (phys == 0)
    return vta_errf(err, VTA_EINPUT, "device memory: physical address 0 is never valid"),
           NULL;
  /* An empty segment still reserves one byte so that it has an identity. */
  uint64_t span = size ? (uint64_t)size : 1;
  if ((uint64_t)phys + span > SPACE_END)
    return vta_errf(err, VTA_EINPUT,
                    "device memory: range 0x%08x..0x%llx (%zu bytes) leaves the 32-bit "
                    "physical space", phys, (unsigned long long)(phys + span - 1), size),
           NULL;
  size_t i = upper_phys(m, phys);
  const block_t *before = i > 0 ? m->by_phys[i - 1] : NULL;
  const block_t *after = i < m->n ? m->by_phys[i] : NULL;
  const block_t *clash = before && end_of(before) > phys ? before
                         : after && (uint64_t)phys + span > after->phys ? after
                                                                        : NULL;
  if (clash)
    return vta_errf(err, VTA_EINPUT,
                    "device memory: range 0x%08x..0x%08llx overlaps the allocation "
                    "0x%08x..0x%08llx", phys, (unsigned long long)(phys + span - 1),
                    clash->phys, (unsigned long long)(end_of(clash) - 1)),
           NULL;
  return insert(m, phys, span, data, data ? size : 0, err);
}

void *vta_mem_alloc_at(vta_mem_t *m, uint32_t phys, size_t size, vta_err *err) {
  return alloc_at(m, phys, size, NULL, err);
}

void *vta_mem_alloc_at_copy(vta_mem_t *m, uint32_t phys, const void *data, size_t size,
                            vta_err *err) {
  return alloc_at(m, phys, size, data, err);
}

int vta_mem_release(vta_mem_t *m, void *host) {
  size_t j = upper_host(m, (uintptr_t)host);
  if (j == 0 || m->by_host[j - 1]->host != host) return -1;
  block_t *b = m->by_host[j - 1];
  memmove(m->by_host + j - 1, m->by_host + j, (m->n - j) * sizeof *m->by_host);
  size_t i = upper_phys(m, b->phys) - 1; /* phys values are unique */
  memmove(m->by_phys + i, m->by_phys + i + 1, (m->n - i - 1) * sizeof *m->by_phys);
  m->n--;
  block_free(b);
  return 0;
}

void *vta_mem_host(const vta_mem_t *m, uint64_t phys, uint64_t len) {
  /* One predictable branch on the engines' pointer path. */
  if (m->ext) return m->ext->direct(m->ext_ctx, phys, len, 1);
  /* The engines look up the same few blocks over and over: the last one
   * found first (ranges never overlap, so a block holding the range is the
   * answer), then the search. */
  if (m->hint < m->n) {
    const block_t *h = m->by_phys[m->hint];
    uint64_t off = phys - h->phys; /* huge when phys is below the block */
    if (off <= h->span && len <= h->span - off) return h->host + off;
  }
  size_t i = upper_phys(m, phys);
  if (i == 0) return NULL;
  const block_t *b = m->by_phys[i - 1];
  uint64_t off = phys - b->phys;
  if (off > b->span || len > b->span - off) return NULL;
  ((vta_mem_t *)m)->hint = i - 1; /* a look-up cache, not the memory's state */
  return b->host + off;
}

int vta_mem_mapped(const vta_mem_t *m, uint64_t phys, uint64_t len) {
  if (vta_mem_host(m, phys, len)) return 1;
  return m->ext && m->ext->mapped(m->ext_ctx, phys, len);
}

uint32_t vta_mem_phys(const vta_mem_t *m, const void *host) {
  uintptr_t h = (uintptr_t)host;
  size_t j = upper_host(m, h);
  if (j == 0) return 0;
  const block_t *b = m->by_host[j - 1];
  uintptr_t off = h - (uintptr_t)b->host;
  if (off >= b->span) return 0;
  return b->phys + (uint32_t)off;
}

static int range_err(uint64_t phys, uint64_t len, const char *what, vta_err *err) {
  return vta_errf(err, VTA_ERANGE,
                  "%s: physical range 0x%08llx..0x%08llx (%llu bytes) is not inside one "
                  "device allocation", what ? what : "device memory",
                  (unsigned long long)phys, (unsigned long long)(phys + len - (len > 0)),
                  (unsigned long long)len);
}

int vta_mem_read(const vta_mem_t *m, uint64_t phys, void *dst, uint64_t len,
                 const char *what, vta_err *err) {
  const void *src = vta_mem_host(m, phys, len);
  if (!src && m->ext) {
    if (!m->ext->read(m->ext_ctx, phys, dst, len, NULL)) return 0;
    return range_err(phys, len, what, err);
  }
  if (!src) return range_err(phys, len, what, err);
  if (len) memcpy(dst, src, (size_t)len);
  return 0;
}

int vta_mem_write(vta_mem_t *m, uint64_t phys, const void *src, uint64_t len,
                  const char *what, vta_err *err) {
  void *dst = vta_mem_host(m, phys, len);
  if (!dst && m->ext) {
    if (!m->ext->write(m->ext_ctx, phys, src, len, NULL)) return 0;
    return range_err(phys, len, what, err);
  }
  if (!dst) return range_err(phys, len, what, err);
  if (len) memcpy(dst, src, (size_t)len);
  return 0;
}

int vta_mem_block(const vta_mem_t *m, size_t i, uint32_t *phys, uint64_t *span) {
  if (m->ext) return m->ext->block ? m->ext->block(m->ext_ctx, i, phys, span) : -1;
  if (i >= m->n) return -1;
  *phys = m->by_phys[i]->phys;
  *span = m->by_phys[i]->span;
  return 0;
}

int vta_mem_mirror(vta_mem_t *dst, const vta_mem_t *src, vta_err *err) {
  uint32_t phys;
  uint64_t span;
  for (size_t i = 0; src->ext && !vta_mem_block(src, i, &phys, &span); i++) {
    void *h = vta_mem_host(dst, phys, span);
    if (!h && !(h = vta_mem_alloc_at(dst, phys, (size_t)span, err))) return -1;
    if (vta_mem_read(src, phys, h, span, "mirroring the DRAM", err)) return -1;
  }
  for (size_t i = 0; i < src->n; i++) {
    const block_t *b = src->by_phys[i];
    void *h = vta_mem_host(dst, b->phys, b->span);
    if (!h && !(h = vta_mem_alloc_at(dst, b->phys, (size_t)b->span, err))) return -1;
    memcpy(h, b->host, (size_t)b->span);
  }
  return 0;
}
