/*
 * vta_cpu.h - the instruction-set level of the host CPU that the model's
 * kernels (the GEMM micro-op kernel, the event digests) are chosen for:
 * every level gives identical results, only the speed differs.
 */
#ifndef VTA_CPU_H
#define VTA_CPU_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { VTA_ISA_SCALAR = 0, VTA_ISA_AVX2, VTA_ISA_AVX512VNNI, VTA_ISA_N } vta_isa_t;
/* The best level the CPU has, capped by VTASIM_ISA (scalar, avx2,
 * avx512vnni). */
vta_isa_t vta_isa_cap(void);
const char *vta_isa_name(vta_isa_t isa);

#ifdef __cplusplus
}
#endif

#endif
