/*
 * vta_tokens.h - the dependency-token rules of docs/isa.md 5.2, in words
 * every layer shares: the four token queues by direction, the four
 * dependency flags of an instruction header, and which queue each flag of
 * each unit pops or pushes.  The model's units, the race checker and the
 * reports all read the one table here.
 */
#ifndef VTA_TOKENS_H
#define VTA_TOKENS_H

#include <stdint.h>

#include "vta_isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Token queues, named by direction (docs/isa.md 5.2). */
enum { VTA_Q_L2G = 0, VTA_Q_G2L = 1, VTA_Q_G2S = 2, VTA_Q_S2G = 3 };
const char *vta_queue_name(int q); /* "l2g (load->compute)" ... */

/* The dependency flags in header order; index into dep_queue(). */
enum { DEP_POP_PREV = 0, DEP_POP_NEXT, DEP_PUSH_PREV, DEP_PUSH_NEXT, DEP_NFLAGS };
extern const char *const vta_dep_flag_names[DEP_NFLAGS];

/* The token queue a dependency flag of `unit` pops or pushes, or -1 where
 * the flag must be 0 (docs/isa.md 5.2 table).  Inline: the cycle engine asks
 * every cycle a unit waits for a token. */
static inline int vta_dep_queue(vta_unit_t unit, int flag) {
  /* rows are units, columns pop_prev, pop_next, push_prev, push_next */
  static const int8_t table[3][DEP_NFLAGS] = {
      [VTA_UNIT_LOAD] = {-1, VTA_Q_G2L, -1, VTA_Q_L2G},
      [VTA_UNIT_COMPUTE] = {VTA_Q_L2G, VTA_Q_S2G, VTA_Q_G2L, VTA_Q_G2S},
      [VTA_UNIT_STORE] = {VTA_Q_G2S, -1, VTA_Q_S2G, -1}};
  return table[unit][flag];
}
static inline uint32_t vta_dep_flag(const vta_insn_t *in, int flag) {
  return flag == DEP_POP_PREV    ? in->pop_prev
         : flag == DEP_POP_NEXT  ? in->pop_next
         : flag == DEP_PUSH_PREV ? in->push_prev
                                 : in->push_next;
}

#ifdef __cplusplus
}
#endif

#endif
