/*
 * vta_races.h - the race and hazard detector (`--check-races`).
 *
 * VTA's three units run concurrently; the only thing that orders one
 * unit's access to a scratchpad row before another unit's is a chain of
 * dependency-token pushes and pops (docs/isa.md 5.2).  A program that forgets a
 * token can still compute the right result on one engine and timing and
 * the wrong one on another: the detector finds that from the program
 * itself, the same for every engine.
 *
 * It executes every run abstractly: instructions go to their unit in
 * program order, a unit's head runs once its pops can be served, and each
 * unit carries a vector clock (one counter per unit) that a pop joins with
 * the clock its matching push carried.  For every row of the shared
 * scratchpads (inp and wgt: written by load, read by compute; out: written
 * by GEMM/ALU, read by store) it remembers the last writer and the last
 * reader of each unit; an access by another unit whose clock does not
 * cover that instruction is a race (read after write, write after read, or
 * write after write), reported with both instructions, the buffer and the
 * row.  acc and uop are touched by compute alone and cannot race.  Since
 * token queues are FIFO counters, the clocks are the same in every legal
 * execution order: the verdict does not depend on timing.
 *
 * A FINISH that is not ordered after every other instruction of its run
 * gives a warning: the run can end while a unit is busy or still has
 * instructions queued (the host then reads DRAM that a STORE may not have
 * written yet, and the token counts it sees are not final).
 */
#ifndef VTA_RACES_H
#define VTA_RACES_H

#include <stdio.h>

#include "vta_err.h"
#include "vta_program.h"

/*
 * Check every run of a program, in order, against its initial DRAM image.
 * Returns 0 when race-free (warnings, if any, written to warn as lines
 * "warning: ..." and counted in *nwarn, both optional), or -1 with a
 * VTA_ERACE error at the first race.  Faults of the program itself
 * (out-of-range indices, deadlocks, missing FINISH) are left to the
 * engines, which report them.
 */
int vta_races_check(const vta_program_t *p, FILE *warn, int *nwarn, vta_err *err);

#endif
