/*
 * test_cosim.c - tests of co-simulation: the event lists (model/platform/events.c),
 * the events the cycle model emits when stepped (docs/microarch.md 8.2),
 * the lockstep comparator (testbench/cosim.c), and its proof of worth:
 * each planted bug of docs/microarch.md 8.4 is caught at the unit, cycle
 * and instruction the contract says.
 *
 * Expected cycles are derived from the contract by hand, as in
 * test_cycle.c: with the default parameters fetch reads n instructions as
 * 2n beats landing in cycles 4 .. 3 + 2n and dispatches instruction k in
 * cycle 4 + 2n + k, visible to its unit one cycle later.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_peek.h"
#include "cosim.h"
#include "vta_events.h"
#include "vta_isa.h"
#include "vta_model.h"
#include "vta_program.h"
#include "vta_session.h"

/* ---- programs ------------------------------------------------------------- */

/* A bundle with a data buffer `buf` at 0x10000 (64 KiB, zero), the uops
 * given (default one zero uop) at 0x3000, the instructions at 0x4000. */
static int program(vta_program_t *p, const char *uops, const char *insns) {
  char text[8192];
  snprintf(text, sizeof text,
           ".version 1\n.data buf 0x10000 zero 65536\n.uop k 0x3000 {\n%s}\n"
           ".insn main 0x4000 {\n%s}\n.run main\n",
           uops ? uops : "  dst=0 src=0 wgt=0\n", insns);
  vta_err e;
  vta_program_init(p);
  if (vta_program_parse(p, text, strlen(text), "test", &e)) {
    CHECK_MSG(0, "program: %s", e.msg);
    return -1;
  }
  return 0;
}

static int load_file(vta_program_t *p, const char *path) {
  vta_err e;
  if (vta_program_load(p, path, &e)) {
    CHECK_MSG(0, "%s", e.msg);
    return -1;
  }
  return 0;
}

/* Every event of a whole program, stepped on the model (one run). */
static int step_all(const vta_program_t *p, const vta_params_t *params,
                    vta_evlist_t *all, vta_session_t **out) {
  vta_err e;
  vta_session_t *s = vta_session_new(p, &vta_engine_kind_model, params, &e);
  CHECK_MSG(s != NULL, "%s", e.msg);
  if (!s) return -1;
  vta_model_t *m = session_model(s);
  const vta_segment_t *g = vta_program_find(p, p->runs[0].segment);
  int rc = vta_model_launch(m, g->addr, g->size / VTA_INS_BYTES, &e);
  vta_evlist_t cyc;
  vta_evlist_init(&cyc);
  for (uint64_t t = 0; !rc; t++) {
    int fin;
    vta_evlist_clear(&cyc);
    CHECK_EQ(vta_model_now(m), t);
    rc = vta_model_step(m, &cyc, &fin, &e);
    for (int i = 0; i < cyc.n; i++) {
      CHECK_EQ(cyc.ev[i].cycle, t); /* each step is exactly one cycle */
      vta_evlist_add(all, &cyc.ev[i]);
    }
    if (fin) break;
  }
  vta_evlist_free(&cyc);
  CHECK_MSG(rc == 0, "%s", e.msg);
  if (out) *out = s;
  else vta_session_free(s);
  return rc;
}

/* The first event of a kind (and, if which >= 0, of that queue/client/buffer). */
static const vta_event_t *find(const vta_evlist_t *l, int kind, int which, int64_t index) {
  for (int i = 0; i < l->n; i++)
    if (l->ev[i].kind == kind && (which < 0 || l->ev[i].which == which) &&
        (index < 0 || l->ev[i].index == index))
      return &l->ev[i];
  return NULL;
}

static int count_kind(const vta_evlist_t *l, int kind, int which) {
  int n = 0;
  for (int i = 0; i < l->n; i++) n += l->ev[i].kind == kind && (which < 0 || l->ev[i].which == which);
  return n;
}

#define CHECK_AT(l, kind, which, index, cyc)                                     \
  do {                                                                            \
    const vta_event_t *ev_ = find((l), (kind), (which), (index));                 \
    CHECK_MSG(ev_ != NULL, "no %s (which %d index %lld)", vta_ev_kind_name(kind),  \
              (int)(which), (long long)(index));                                  \
    if (ev_) CHECK_EQ(ev_->cycle, (cyc));                                         \
  } while (0)

/* ---- event lists ------------------------------------------------------------ */

static void test_evlist_pool(void) {
  vta_evlist_t l;
  vta_evlist_init(&l);
  uint8_t row[300];
  const vta_event_t *first = NULL;
  /* Enough data to grow the pool several times: the earliest event's data
   * must survive every move. */
  for (int k = 0; k < 200; k++) {
    memset(row, k, sizeof row);
    vta_event_t e = {(uint64_t)k, VTA_EV_SRAM_WR, 0, VTA_MEM_WGT, (uint32_t)k, 0, 256, row};
    const vta_event_t *s = vta_evlist_add(&l, &e);
    CHECK(s != NULL);
    if (!k) first = s;
  }
  (void)first; /* the array moved too: look the events up again */
  CHECK_EQ(l.n, 200);
  for (int k = 0; k < 200; k++) {
    CHECK_EQ(l.ev[k].index, k);
    CHECK(l.ev[k].data != NULL && l.ev[k].data[0] == k && l.ev[k].data[255] == k);
  }
  /* Copy events of a list into itself while it grows: the source lives in
   * the pool being replaced. */
  for (int k = 0; k < 200; k++) CHECK(vta_evlist_add(&l, &l.ev[k]) != NULL);
  for (int k = 0; k < 400; k++) CHECK(l.ev[k].data[100] == k % 200);
  vta_evlist_clear(&l);
  CHECK_EQ(l.n, 0);
  CHECK_EQ(l.pool_used, 0);
  vta_evlist_free(&l);
  CHECK(l.ev == NULL && l.pool == NULL);
}

static void test_evlist_canonical(void) {
  vta_evlist_t l;
  vta_evlist_init(&l);
  uint8_t beat[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  /* Fields a kind does not use are zeroed, whatever the producer put there. */
  vta_event_t e = {7, VTA_EV_POP, 2, VTA_Q_G2S, 99, 1234, 5, beat};
  const vta_event_t *s = vta_evlist_add(&l, &e);
  CHECK(s && s->unit == 0 && s->which == VTA_Q_G2S && s->index == 0 && s->addr == 0 &&
        s->bytes == 0 && s->data == NULL);
  /* Write beat: bytes outside the strobe are don't-care, zeroed. */
  vta_event_t w = {7, VTA_EV_WR_BEAT, 0, 0, 0x3c, 0x10008, 8, beat};
  s = vta_evlist_add(&l, &w);
  CHECK(s && s->data && s->data[0] == 0 && s->data[1] == 0 && s->data[2] == 3 &&
        s->data[5] == 6 && s->data[6] == 0 && s->data[7] == 0);
  CHECK_EQ(beat[0], 1); /* the producer's bytes are left alone */
  vta_event_t bad = {0, VTA_EV_NKINDS, 0, 0, 0, 0, 0, NULL};
  CHECK(vta_evlist_add(&l, &bad) == NULL);
  vta_evlist_free(&l);
}

/* The digest of some events, added in digest mode. */
static uint64_t digest_of(const vta_event_t *ev, int n) {
  vta_evlist_t l;
  vta_evlist_digest(&l);
  for (int i = 0; i < n; i++) CHECK(vta_evlist_add(&l, &ev[i]) != NULL);
  CHECK_EQ(l.n, n);
  CHECK(l.ev == NULL && l.pool_used == 0); /* nothing stored */
  uint64_t sum = vta_evlist_digest_value(&l);
  vta_evlist_free(&l);
  return sum;
}

/* The data digest's vector path (vta_digest_path(1), AVX2 on this kind of
 * machine) and its portable definition agree on every length and alignment, and one changed byte of
 * any position changes the lanes. */
static void test_digest_paths(void) {
  uint8_t buf[320];
  unsigned seed = 7;
  for (size_t i = 0; i < sizeof buf; i++) {
    seed = seed * 1103515245u + 12345u;
    buf[i] = (uint8_t)(seed >> 16);
  }
  int bad = 0;
  for (uint32_t n = 1; n <= 300 && !bad; n++)
    for (uint32_t off = 0; off < 3; off++) {
      const uint64_t h = 0x9e3779b97f4a7c15ull * (n + 1) ^ off;
      uint64_t a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4};
      vta_digest_path(1)(a, h, buf + off, n);
      vta_digest_path(0)(b, h, buf + off, n);
      if (memcmp(a, b, sizeof a)) {
        CHECK_MSG(0, "length %u offset %u: vector and scalar digests differ", n, off);
        bad = 1;
        break;
      }
      uint8_t c[320];
      memcpy(c, buf, sizeof c);
      c[off + n * 5 / 7] ^= 0x10; /* one byte, a different position each length */
      uint64_t x[4] = {1, 2, 3, 4};
      vta_digest_path(1)(x, h, c + off, n);
      if (!memcmp(a, x, sizeof a)) {
        CHECK_MSG(0, "length %u offset %u: a changed byte left the digest as it was", n, off);
        bad = 1;
      }
    }
  CHECK(!bad);
}

/* vta_evlist_add_wb (the RTL's write-back ports: the default rows folded
 * in one AVX2 step) folds exactly the two SRAM_WR events that
 * vta_evlist_add_sram makes with the portable data digest, for the
 * default sizes and for others; a changed bit of either row changes the
 * digest; into a stored list it stores those two events. */
static void test_evlist_add_wb(void) {
  static const uint32_t sizes[][2] = {{64, 16}, {32, 8}, {128, 32}, {64, 8}};
  uint8_t acc[128], out[32];
  unsigned seed = 11;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int k = 0; k < 20; k++) {
      for (size_t i = 0; i < sizeof acc; i++) acc[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
      for (size_t i = 0; i < sizeof out; i++) out[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
      const uint64_t cycle = 1000 + seed % 100000;
      const uint32_t arow = seed >> 20, orow = k & 1 ? arow : arow + 3;
      const uint32_t ab = sizes[s][0], ob = sizes[s][1];
      vta_evlist_t got, want, st;
      vta_evlist_digest(&got);
      vta_evlist_digest(&want);
      want.dfn = vta_digest_path(0);
      vta_evlist_init(&st);
      for (int r = 0; r < 2; r++) /* two write-backs into the same lists */
        vta_evlist_add_wb(&got, cycle + r, arow, ab, acc, orow, ob, out);
      for (int r = 0; r < 2; r++) {
        vta_evlist_add_sram(&want, cycle + r, VTA_MEM_ACC, arow, ab, acc);
        vta_evlist_add_sram(&want, cycle + r, VTA_MEM_OUT, orow, ob, out);
      }
      CHECK_MSG(vta_evlist_digest_equal(&got, &want) && got.n == 4,
                "rows of %u and %u bytes: add_wb digest %016llx (%d events), add_sram %016llx",
                ab, ob, (unsigned long long)vta_evlist_digest_value(&got), got.n,
                (unsigned long long)vta_evlist_digest_value(&want));
      /* one flipped bit, in the acc row or in the out row */
      uint8_t *flip = k & 2 ? &out[(seed >> 8) % ob] : &acc[(seed >> 8) % ab];
      *flip ^= (uint8_t)(1u << (k % 8));
      vta_evlist_add_wb(&got, cycle, arow, ab, acc, orow, ob, out);
      *flip ^= (uint8_t)(1u << (k % 8));
      vta_evlist_add_sram(&want, cycle, VTA_MEM_ACC, arow, ab, acc);
      vta_evlist_add_sram(&want, cycle, VTA_MEM_OUT, orow, ob, out);
      CHECK(!vta_evlist_digest_equal(&got, &want));
      vta_evlist_add_wb(&st, cycle, arow, ab, acc, orow, ob, out);
      CHECK(st.n == 2 && st.ev[0].kind == VTA_EV_SRAM_WR && st.ev[0].which == VTA_MEM_ACC &&
            st.ev[0].index == arow && st.ev[0].bytes == ab && st.ev[0].cycle == cycle &&
            !memcmp(st.ev[0].data, acc, ab) && st.ev[1].which == VTA_MEM_OUT &&
            st.ev[1].index == orow && st.ev[1].bytes == ob && st.ev[1].cycle == cycle &&
            !memcmp(st.ev[1].data, out, ob));
      vta_evlist_free(&got);
      vta_evlist_free(&want);
      vta_evlist_free(&st);
    }
}

/* Co-simulation compares each window's digest (cosim.c): equal for the
 * same events in any order and whatever the producers put in don't-care
 * fields and bytes, different for any change of a field a kind uses or of
 * a data bit, and the digest of events equals that of their stored copies. */
static void test_evlist_digest(void) {
  uint8_t row[64], beat[8] = {1, 2, 3, 4, 5, 6, 7, 8}, pad[8] = {9, 9, 9, 9, 0, 0, 0, 0};
  for (int i = 0; i < 64; i++) row[i] = (uint8_t)(i * 37 + 11);
  const vta_event_t ev[] = {
      {100, VTA_EV_DISPATCH, VTA_UNIT_COMPUTE, 0, 7, 0, 0, NULL},
      {100, VTA_EV_START, VTA_UNIT_LOAD, 0, 3, 0, 0, NULL},
      {100, VTA_EV_DONE, VTA_UNIT_STORE, 0, 2, 0, 0, NULL},
      {100, VTA_EV_POP, 0, VTA_Q_G2S, 0, 0, 0, NULL},
      {101, VTA_EV_PUSH, 0, VTA_Q_L2G, 0, 0, 0, NULL},
      {101, VTA_EV_RD_REQ, 0, VTA_RD_WGT, 32, 0x12345, 256, NULL},
      {101, VTA_EV_SRAM_WR, 0, VTA_MEM_ACC, 12, 0, 64, row},
      {102, VTA_EV_SRAM_WR, 0, VTA_MEM_UOP, 5, 0, 4, pad},
      {102, VTA_EV_OUT_RD, 0, 0, 9, 0, 0, NULL},
      {102, VTA_EV_WR_ADDR, 0, 0, 0, 0x20000, 16, NULL},
      {103, VTA_EV_WR_BEAT, 0, 0, 0x3c, 0x20008, 8, beat},
      {103, VTA_EV_WR_ACK, 0, 0, 0, 0, 0, NULL},
      {104, VTA_EV_FINISH, 0, 0, 10, 104, 0, NULL},
  };
  const int n = (int)(sizeof ev / sizeof ev[0]);
  const uint64_t want = digest_of(ev, n);
  /* Any order: reversed, and each event moved to the front. */
  vta_event_t w[sizeof ev / sizeof ev[0]];
  for (int i = 0; i < n; i++) w[i] = ev[n - 1 - i];
  CHECK_EQ(digest_of(w, n), want);
  for (int k = 1; k < n; k++) {
    memcpy(w, ev, sizeof w);
    w[0] = ev[k];
    w[k] = ev[0];
    CHECK_EQ(digest_of(w, n), want);
  }
  /* The stored copies (canonical form) digest the same. */
  vta_evlist_t stored;
  vta_evlist_init(&stored);
  for (int i = 0; i < n; i++) CHECK(vta_evlist_add(&stored, &ev[i]) != NULL);
  CHECK_EQ(digest_of(stored.ev, stored.n), want);
  vta_evlist_free(&stored);
  /* Don't-care fields and bytes: every field a kind does not use set to
   * junk, and the write beat's bytes outside the strobe changed. */
  uint8_t beat2[8] = {0xaa, 0xbb, 3, 4, 5, 6, 0xcc, 0xdd};
  memcpy(w, ev, sizeof w);
  for (int i = 0; i < n; i++) {
    vta_event_t *e = &w[i];
    const int k = e->kind;
    if (k != VTA_EV_DISPATCH && k != VTA_EV_START && k != VTA_EV_DONE) e->unit = 2;
    if (k == VTA_EV_DISPATCH || k == VTA_EV_START || k == VTA_EV_DONE || k == VTA_EV_OUT_RD ||
        k == VTA_EV_WR_ADDR || k == VTA_EV_WR_ACK || k == VTA_EV_FINISH)
      e->which = 3;
    if (k == VTA_EV_POP || k == VTA_EV_PUSH || k == VTA_EV_WR_ADDR || k == VTA_EV_WR_ACK)
      e->index = 0xdead;
    if (k != VTA_EV_RD_REQ && k != VTA_EV_WR_ADDR && k != VTA_EV_WR_BEAT && k != VTA_EV_FINISH)
      e->addr = 0xbeef;
    if (k != VTA_EV_RD_REQ && k != VTA_EV_SRAM_WR && k != VTA_EV_WR_ADDR &&
        k != VTA_EV_WR_BEAT) {
      e->bytes = 77;
      e->data = row;
    }
    if (k == VTA_EV_WR_BEAT) e->data = beat2;
  }
  CHECK_EQ(digest_of(w, n), want);
  /* Every used field, one bit at a time (each position of the narrow
   * fields, a spread of the wide ones), changes the digest. */
  for (int i = 0; i < n; i++) {
    const int k = ev[i].kind;
    for (int b = 0; b < 64; b++) {
      for (int field = 0; field < 5; field++) {
        memcpy(w, ev, sizeof w);
        vta_event_t *e = &w[i];
        int used;
        switch (field) {
        case 0: used = 1; e->cycle ^= 1ull << b; break;
        case 1: used = b < 2 && (k == VTA_EV_DISPATCH || k == VTA_EV_START || k == VTA_EV_DONE);
                e->unit ^= (uint8_t)(1u << (b & 7)); break;
        case 2: used = b < 3 && (k == VTA_EV_POP || k == VTA_EV_PUSH || k == VTA_EV_RD_REQ ||
                                 k == VTA_EV_SRAM_WR);
                e->which ^= (uint8_t)(1u << (b & 7)); break;
        case 3: used = b < 32 && k != VTA_EV_POP && k != VTA_EV_PUSH && k != VTA_EV_WR_ADDR &&
                       k != VTA_EV_WR_ACK && (k != VTA_EV_WR_BEAT || b >= 8);
                e->index ^= 1u << (b & 31); break;
        default: used = k == VTA_EV_RD_REQ || k == VTA_EV_WR_ADDR || k == VTA_EV_WR_BEAT ||
                        k == VTA_EV_FINISH;
                 e->addr ^= 1ull << b; break;
        }
        if (used) CHECK_MSG(digest_of(w, n) != want, "event %d field %d bit %d", i, field, b);
      }
    }
  }
  /* Every data bit of the scratchpad row, the write beat's strobed bytes
   * and the micro-op word; two lanes' sign bits at once; two lanes swapped;
   * a row one word longer with zeros (the padding of the digest). */
  const struct { int ev; uint8_t *d; int bytes; } data[] = {{6, row, 64}, {10, beat, 8}, {7, pad, 4}};
  for (size_t t = 0; t < sizeof data / sizeof data[0]; t++)
    for (int bit = 0; bit < 8 * data[t].bytes; bit++) {
      if (t == 1 && !(0x3c >> (bit / 8) & 1)) continue; /* outside the strobe */
      data[t].d[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      CHECK_MSG(digest_of(ev, n) != want, "event %d data bit %d", data[t].ev, bit);
      data[t].d[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
  CHECK_EQ(digest_of(ev, n), want);
  row[3] ^= 0x80;
  row[63] ^= 0x80;
  CHECK(digest_of(ev, n) != want);
  row[3] ^= 0x80;
  row[63] ^= 0x80;
  uint8_t swapped[64];
  memcpy(swapped, row, 64);
  memcpy(swapped, row + 4, 4);
  memcpy(swapped + 4, row, 4);
  memcpy(w, ev, sizeof w);
  w[6].data = swapped;
  CHECK(digest_of(w, n) != want);
  memcpy(swapped, row + 16, 16); /* two 16-byte blocks swapped */
  memcpy(swapped + 16, row, 16);
  memcpy(swapped + 32, row + 32, 32);
  CHECK(digest_of(w, n) != want);
  memcpy(w, ev, sizeof w);
  w[7].bytes = 8; /* the uop word followed by four zero bytes */
  CHECK(digest_of(w, n) != want);
  /* One event fewer, or one twice. */
  CHECK(digest_of(ev, n - 1) != want);
  memcpy(w, ev, sizeof w);
  w[n - 1] = ev[0];
  CHECK(digest_of(w, n) != want);
}

static void test_sort_cmp(void) {
  vta_evlist_t l;
  vta_evlist_init(&l);
  uint8_t d1[4] = {1, 0, 0, 0}, d2[4] = {2, 0, 0, 0};
  vta_event_t ev[] = {
      {5, VTA_EV_SRAM_WR, 0, VTA_MEM_UOP, 3, 0, 4, d2},
      {5, VTA_EV_SRAM_WR, 0, VTA_MEM_UOP, 3, 0, 4, d1},
      {5, VTA_EV_DONE, VTA_UNIT_LOAD, 0, 1, 0, 0, NULL},
      {4, VTA_EV_FINISH, 0, 0, 10, 4, 0, NULL},
      {5, VTA_EV_START, VTA_UNIT_STORE, 0, 2, 0, 0, NULL},
      {5, VTA_EV_START, VTA_UNIT_LOAD, 0, 2, 0, 0, NULL},
  };
  for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) vta_evlist_add(&l, &ev[i]);
  vta_evlist_sort(&l);
  /* cycle, kind, unit, which, index, addr, bytes, data */
  CHECK_EQ(l.ev[0].kind, VTA_EV_FINISH);
  CHECK(l.ev[1].kind == VTA_EV_START && l.ev[1].unit == VTA_UNIT_LOAD);
  CHECK(l.ev[2].kind == VTA_EV_START && l.ev[2].unit == VTA_UNIT_STORE);
  CHECK_EQ(l.ev[3].kind, VTA_EV_DONE);
  CHECK(l.ev[4].data[0] == 1 && l.ev[5].data[0] == 2);
  CHECK(vta_event_cmp(&l.ev[4], &l.ev[5]) < 0 && vta_event_cmp(&l.ev[5], &l.ev[4]) > 0);
  CHECK_EQ(vta_event_cmp(&l.ev[4], &ev[1]), 0);
  vta_evlist_free(&l);
}

static void test_format(void) {
  char b[256];
  uint8_t acc[8] = {0x0c, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  vta_event_t e = {37, VTA_EV_SRAM_WR, 0, VTA_MEM_ACC, 12, 0, 8, acc};
  vta_event_format(&e, b, sizeof b);
  CHECK(!strcmp(b, "cycle 37 SRAM_WR acc[12] = 0x0c000000ffffffff (8 bytes)"));
  vta_event_t r = {12, VTA_EV_RD_REQ, 0, VTA_RD_UOP, 1, 0x3000, 4, NULL};
  vta_event_format(&r, b, sizeof b);
  CHECK(!strcmp(b, "cycle 12 RD_REQ uop addr=0x00003000 bytes=4 beats=1"));
  vta_event_t d = {10, VTA_EV_DISPATCH, VTA_UNIT_COMPUTE, 0, 0, 0, 0, NULL};
  vta_event_format(&d, b, sizeof b);
  CHECK(!strcmp(b, "cycle 10 DISPATCH #0 -> compute"));
  vta_event_t f = {35, VTA_EV_FINISH, 0, 0, 10, 35, 0, NULL};
  vta_event_format(&f, b, sizeof b);
  CHECK(!strcmp(b, "cycle 35 FINISH ECNT=35 UCNT=10"));
  vta_event_t p = {3, VTA_EV_PUSH, 0, VTA_Q_S2G, 0, 0, 0, NULL};
  vta_event_format(&p, b, sizeof b);
  CHECK(!strcmp(b, "cycle 3 PUSH s2g"));
  /* Cut data ends in "...", and nothing is written past the buffer. */
  uint8_t big[256];
  memset(big, 0xab, sizeof big);
  vta_event_t w = {1, VTA_EV_SRAM_WR, 0, VTA_MEM_WGT, 0, 0, 256, big};
  char small[48];
  memset(small, 'x', sizeof small);
  vta_event_format(&w, small, 40);
  CHECK(strlen(small) < 40 && small[40] == 'x');
  CHECK_CONTAINS(small, "...");
  for (size_t n = 1; n < 40; n++) { /* every length is safe */
    memset(small, 'x', sizeof small);
    vta_event_format(&w, small, n);
    CHECK(strlen(small) < n && small[n] == 'x');
  }
  for (int k = 0; k < VTA_EV_NKINDS; k++) CHECK(strcmp(vta_ev_kind_name(k), "?"));
  CHECK(!strcmp(vta_ev_kind_name(VTA_EV_WR_ACK), "WR_ACK"));
  CHECK(!strcmp(vta_ev_kind_name(-1), "?"));
}

/* ---- the model's events ----------------------------------------------------- */

/* docs/microarch.md section 10's example: LUOP + GEMM(N=10) + FINISH.
 * Fetch of 3 instructions: its command cycle 0, one request at 1 for 48
 * bytes (6 beats, 5..10), dispatch #0..#2 in 10..12 (from the last beat's
 * cycle).  LUOP S = 11, request at S+1 = 12,
 * its beat at 16 = D.  GEMM S = 17, acc/out rows at S+6+i = 23..32,
 * D = S+N+6 = 33.  FINISH S = 34, pulse 35: ECNT 35, UCNT 10. */
static void test_events_gemm(void) {
  vta_program_t p;
  if (program(&p, NULL,
              "LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n"
              "GEMM uop_bgn=0 uop_end=1 iter_out=1 iter_in=10\n"
              "FINISH\n"))
    return;
  vta_evlist_t l;
  vta_evlist_init(&l);
  if (!step_all(&p, NULL, &l, NULL)) {
    const vta_event_t *r = find(&l, VTA_EV_RD_REQ, VTA_RD_FETCH, -1);
    CHECK(r && r->cycle == 1 && r->addr == 0x4000 && r->bytes == 48 && r->index == 6);
    CHECK_AT(&l, VTA_EV_DISPATCH, -1, 0, 10);
    CHECK_AT(&l, VTA_EV_DISPATCH, -1, 2, 12);
    CHECK_AT(&l, VTA_EV_START, -1, 0, 11);
    r = find(&l, VTA_EV_RD_REQ, VTA_RD_UOP, -1);
    CHECK(r && r->cycle == 12 && r->addr == 0x3000 && r->bytes == 4 && r->index == 1);
    CHECK_AT(&l, VTA_EV_SRAM_WR, VTA_MEM_UOP, 0, 16);
    CHECK_AT(&l, VTA_EV_DONE, -1, 0, 16);
    CHECK_AT(&l, VTA_EV_START, -1, 1, 17);
    CHECK_AT(&l, VTA_EV_SRAM_WR, VTA_MEM_ACC, 0, 23);
    CHECK_AT(&l, VTA_EV_SRAM_WR, VTA_MEM_OUT, 0, 23);
    CHECK_EQ(count_kind(&l, VTA_EV_SRAM_WR, VTA_MEM_ACC), 10); /* one per uop */
    CHECK_EQ(count_kind(&l, VTA_EV_SRAM_WR, VTA_MEM_OUT), 10);
    CHECK_AT(&l, VTA_EV_DONE, -1, 1, 33);
    CHECK_AT(&l, VTA_EV_DONE, -1, 2, 35);
    const vta_event_t *f = find(&l, VTA_EV_FINISH, -1, -1);
    CHECK(f && f->cycle == 35 && f->addr == 35 && f->index == 10);
    CHECK_EQ(l.ev[l.n - 1].cycle, 35);
    const vta_event_t *w = find(&l, VTA_EV_SRAM_WR, VTA_MEM_ACC, -1);
    CHECK(w && w->bytes == 64); /* acc: 16 lanes of int32, little-endian */
    /* No dependency flags, no token events. */
    CHECK_EQ(count_kind(&l, VTA_EV_POP, -1) + count_kind(&l, VTA_EV_PUSH, -1), 0);
  }
  vta_evlist_free(&l);
  vta_program_free(&p);
  /* A reset GEMM writes acc only (docs/isa.md 12.2). */
  if (program(&p, NULL,
              "LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n"
              "GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=3\n"
              "FINISH\n"))
    return;
  vta_evlist_init(&l);
  if (!step_all(&p, NULL, &l, NULL)) {
    CHECK_EQ(count_kind(&l, VTA_EV_SRAM_WR, VTA_MEM_ACC), 3);
    CHECK_EQ(count_kind(&l, VTA_EV_SRAM_WR, VTA_MEM_OUT), 0);
  }
  vta_evlist_free(&l);
  vta_program_free(&p);
}

/* STORE 16 tensors (section 9): S = 9, address phase at S+1 = 10 (256
 * bytes), element i read in 10 + 3i + 1, its two beats accepted in
 * 10 + 3i + 2 and + 3, acknowledge one cycle after the last beat
 * (10 + 45 + 3 = 58) at 59 = D.  Tokens: store pushes s2g at D, FINISH
 * pops it at its start 60. */
static void test_events_store(void) {
  vta_program_t p;
  if (program(&p, NULL,
              "STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=16 x_stride=16 push_prev\n"
              "FINISH pop_next\n"))
    return;
  vta_evlist_t l;
  vta_evlist_init(&l);
  if (!step_all(&p, NULL, &l, NULL)) {
    const vta_event_t *a = find(&l, VTA_EV_WR_ADDR, -1, -1);
    CHECK(a && a->cycle == 10 && a->addr == 0x10000 && a->bytes == 256);
    CHECK_AT(&l, VTA_EV_OUT_RD, -1, 0, 11);
    CHECK_AT(&l, VTA_EV_OUT_RD, -1, 15, 56);
    CHECK_EQ(count_kind(&l, VTA_EV_WR_BEAT, -1), 32);
    const vta_event_t *b = find(&l, VTA_EV_WR_BEAT, -1, -1);
    CHECK(b && b->cycle == 12 && b->addr == 0x10000 && b->index == 0xff && b->bytes == 8);
    CHECK_AT(&l, VTA_EV_WR_ACK, -1, -1, 59);
    CHECK_AT(&l, VTA_EV_DONE, -1, 0, 59);
    CHECK_AT(&l, VTA_EV_PUSH, VTA_Q_S2G, -1, 59);
    CHECK_AT(&l, VTA_EV_POP, VTA_Q_S2G, -1, 60);
    CHECK_AT(&l, VTA_EV_FINISH, -1, -1, 61);
  }
  vta_evlist_free(&l);
  vta_program_free(&p);
}

/* LOAD INP of one element with y_pad_1 = 1 and x_pad_0 = 1: row_len 2,
 * pads (ascending) entry 0 (left of row 0), then 2, 3 (the bottom row).
 * Fetch of 2 instructions: dispatch #0 at 8, S = 9; pads from S+2 in
 * cycles without a landing beat: the request goes out at S+1 = 10, its
 * two beats land at 14 and 15 (the element is written at 15), so the
 * pads take 11, 12, 13. */
static void test_events_pad(void) {
  vta_program_t p;
  if (program(&p, NULL,
              "LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 "
              "y_pad_0=0 y_pad_1=1 x_pad_0=1 x_pad_1=0 push_next\n"
              "FINISH pop_prev\n"))
    return;
  vta_evlist_t l;
  vta_evlist_init(&l);
  if (!step_all(&p, NULL, &l, NULL)) {
    CHECK_AT(&l, VTA_EV_SRAM_WR, VTA_MEM_INP, 0, 11);
    CHECK_AT(&l, VTA_EV_SRAM_WR, VTA_MEM_INP, 2, 12);
    CHECK_AT(&l, VTA_EV_SRAM_WR, VTA_MEM_INP, 3, 13);
    CHECK_AT(&l, VTA_EV_SRAM_WR, VTA_MEM_INP, 1, 15);
    CHECK_EQ(count_kind(&l, VTA_EV_SRAM_WR, VTA_MEM_INP), 4);
    const vta_event_t *z = find(&l, VTA_EV_SRAM_WR, VTA_MEM_INP, 3);
    CHECK(z && z->bytes == 16 && z->data && z->data[0] == 0 && z->data[15] == 0);
    CHECK_AT(&l, VTA_EV_DONE, -1, 0, 16); /* D = 1 + max(S, last beat, last pad) */
    CHECK_AT(&l, VTA_EV_PUSH, VTA_Q_L2G, -1, 16);
  }
  vta_evlist_free(&l);
  vta_program_free(&p);
}

/* Stepping is vta_model_run without skipping: the same cycles, counters,
 * statistics and DRAM, on whole workloads. */
static void test_step_equals_run(void) {
  const char *files[] = {"traces/gemm_demo.vta", "traces/small_conv_pad.vta",
                         "traces/alu_demo.vta"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    vta_program_t p;
    if (load_file(&p, files[f])) continue;
    vta_err e;
    vta_session_t *a = vta_session_new(&p, &vta_engine_kind_model, NULL, &e);
    CHECK_MSG(a && !vta_session_run(a, &e), "%s: %s", files[f], e.msg);
    vta_evlist_t l;
    vta_evlist_init(&l);
    vta_session_t *b = NULL;
    vta_params_t q;
    vta_params_default(&q);
    if (p.nruns == 1 && a && !step_all(&p, &q, &l, &b)) {
      const vta_cycle_stats_t *x = vta_model_cycle_stats(session_model(a));
      const vta_cycle_stats_t *y = vta_model_cycle_stats(session_model(b));
      CHECK_EQ(x->last_ecnt, y->last_ecnt);
      CHECK_EQ(x->ucnt, y->ucnt);
      CHECK_EQ(y->skipped, 0);
      CHECK(!memcmp(x->unit, y->unit, sizeof x->unit));
      CHECK(!memcmp(&x->mem, &y->mem, sizeof x->mem));
      CHECK(!memcmp(vta_model_stats(session_model(a)),
                    vta_model_stats(session_model(b)), sizeof(vta_stats_t)));
      for (int k = 0; k < p.nsegs; k++) {
        uint32_t n;
        uint8_t *da = vta_session_segment(a, p.segs[k].name, &n);
        uint8_t *db = vta_session_segment(b, p.segs[k].name, NULL);
        CHECK_MSG(!memcmp(da, db, n), "%s: segment %s", files[f], p.segs[k].name);
      }
      CHECK_EQ(vta_session_check(b, NULL), 0);
      const vta_event_t *fin = find(&l, VTA_EV_FINISH, -1, -1);
      CHECK(fin && fin->addr == y->last_ecnt && fin->index == y->last_ucnt);
      /* Every UCNT write is an acc SRAM_WR; LOAD ACC adds its own rows. */
      CHECK(count_kind(&l, VTA_EV_SRAM_WR, VTA_MEM_ACC) >= (int)y->last_ucnt);
      CHECK_EQ(count_kind(&l, VTA_EV_DONE, -1), (int)(y->unit[0].insns + y->unit[1].insns +
                                                     y->unit[2].insns));
      CHECK_EQ(count_kind(&l, VTA_EV_WR_BEAT, -1), (int)y->mem.wr.beats);
      CHECK_EQ(count_kind(&l, VTA_EV_RD_REQ, -1),
               (int)(y->mem.rd[0].requests + y->mem.rd[1].requests + y->mem.rd[2].requests +
                     y->mem.rd[3].requests + y->mem.rd[4].requests));
    }
    vta_evlist_free(&l);
    vta_session_free(b);
    vta_session_free(a);
    vta_program_free(&p);
  }
}

static void test_step_misuse(void) {
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_mem_t *mem = vta_mem_new();
  vta_err e;
  vta_model_t *m = vta_model_new(&cfg, mem, VTA_MODEL_CYCLE, NULL, &e);
  int fin = 1;
  CHECK_EQ(vta_model_step(m, NULL, &fin, &e), -1);
  CHECK_CONTAINS(e.msg, "without a launched run");
  CHECK_EQ(fin, 0);
  vta_model_free(m);
  vta_params_t q;
  vta_params_default(&q);
  m = vta_model_new(&cfg, mem, VTA_MODEL_FUNCTIONAL, &q, &e);
  CHECK_EQ(vta_model_launch(m, 0x4000, 1, &e), -1);
  CHECK_CONTAINS(e.msg, "needs the cycle model");
  vta_model_free(m);
  q.inject = VTA_INJECT_N;
  CHECK(vta_model_new(&cfg, mem, VTA_MODEL_CYCLE, &q, &e) == NULL);
  CHECK_CONTAINS(e.msg, "unknown planted bug");
  vta_mem_free(mem);
  vta_inject_t inj;
  CHECK_EQ(vta_inject_parse("pipe_slip", &inj, &e), 0);
  CHECK_EQ(inj, VTA_INJECT_PIPE_SLIP);
  CHECK_EQ(vta_inject_parse("typo", &inj, &e), -1);
  CHECK_CONTAINS(e.msg, "uop_bound, drop_push, alu_opcode, pad_row, pipe_slip");
  CHECK(!strcmp(vta_inject_unit(VTA_INJECT_DROP_PUSH), "load"));
}

/* ---- the comparator ------------------------------------------------------------- */

/* Compare program p on the model and on the model with B's params (a
 * planted bug); returns vta_cosim_run's result, r and the report. */
static int cosim(const vta_program_t *p, const vta_params_t *pb, int last,
                 vta_cosim_result_t *r, char **report, vta_err *e) {
  vta_cosim_side_t s[2];
  memset(s, 0, sizeof s);
  int rc = -1;
  memset(r, 0, sizeof *r);
  if (!vta_cosim_side_open(&s[0], p, &vta_engine_kind_model, NULL, e) &&
      !vta_cosim_side_open(&s[1], p, &vta_engine_kind_model, pb, e)) {
    vta_cosim_opts_t o = {last, NULL, 0};
    rc = vta_cosim_run(p, s, &o, r, e);
    size_t n;
    FILE *f = open_memstream(report, &n);
    if (f) {
      vta_cosim_report(r, f);
      fclose(f);
    }
  }
  vta_cosim_side_free(&s[1]);
  vta_cosim_side_free(&s[0]);
  return rc;
}

static void test_cosim_equal(void) {
  const char *files[] = {"traces/gemm_demo.vta", "traces/small_conv_pad_vt2.vta",
                         "traces/small_gemm_vt2_bias.vta"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    vta_program_t p;
    if (load_file(&p, files[f])) continue;
    vta_cosim_result_t r;
    char *rep = NULL;
    vta_err e;
    vta_params_t q;
    vta_params_default(&q);
    int rc = cosim(&p, &q, 16, &r, &rep, &e);
    CHECK_MSG(rc == 0, "%s: rc %d: %s", files[f], rc, rc < 0 ? e.msg : rep);
    CHECK_EQ(r.status, VTA_COSIM_EQUAL);
    CHECK_EQ(r.runs, p.nruns);
    CHECK_EQ(r.segments, p.nsegs);
    CHECK(r.events > 0);
    /* The cycles compared are the run's ECNT. */
    vta_session_t *s = vta_session_new(&p, &vta_engine_kind_model, NULL, &e);
    if (s && !vta_session_run(s, &e))
      CHECK_EQ(r.cycles, vta_model_cycle_stats(session_model(s))->cycles);
    vta_session_free(s);
    CHECK_CONTAINS(rep, "co-simulation model(A) vs model(B): EQUAL");
    CHECK_CONTAINS(rep, "identical at the end of every run");
    free(rep);
    vta_cosim_result_free(&r);
    vta_program_free(&p);
  }
}

/* One planted bug on a program: caught at the expected cycle, unit and
 * instruction, with the report's key phrases. */
static void caught(const char *insns, const char *uops, vta_inject_t bug, uint64_t cycle,
                   const char *unit, int64_t insn, const char *opcode, const char *extra) {
  vta_program_t p;
  if (program(&p, uops, insns)) return;
  vta_params_t q;
  vta_params_default(&q);
  q.inject = bug;
  vta_cosim_result_t r;
  char *rep = NULL;
  vta_err e;
  int rc = cosim(&p, &q, 16, &r, &rep, &e);
  CHECK_MSG(rc == 1, "%s: rc %d %s", vta_inject_name(bug), rc, rc < 0 ? e.msg : "");
  CHECK_EQ(r.status, VTA_COSIM_EVENTS);
  CHECK_EQ(r.cycle, cycle);
  CHECK_EQ(r.run, 0);
  CHECK(r.unit >= 0 && !strcmp(vta_cy_unit_name(r.unit), unit));
  CHECK_EQ(r.insn, insn);
  CHECK(!strcmp(unit, vta_inject_unit(bug)));
  char where[128];
  snprintf(where, sizeof where, "at cycle %llu of run 1 of 1, unit %s, instruction #%lld: %s",
           (unsigned long long)cycle, unit, (long long)insn, opcode);
  CHECK_CONTAINS(rep, where);
  char name[64];
  snprintf(name, sizeof name, "model vs mutant:%s: DIVERGED", vta_inject_name(bug));
  CHECK_CONTAINS(rep, name);
  CHECK_CONTAINS(rep, "did not:");
  CHECK_CONTAINS(rep, "events of model, oldest first:");
  CHECK_CONTAINS(rep, "tokens after cycle");
  if (extra) CHECK_CONTAINS(rep, extra);
  /* The last events end with the divergent cycle. */
  CHECK(r.last[0].n > 0 && r.last[0].n <= 16 && r.last[0].ev[r.last[0].n - 1].cycle == cycle);
  if (check_failures_) printf("%s", rep ? rep : "");
  free(rep);
  vta_cosim_result_free(&r);
  vta_program_free(&p);
}

/* GEMM, LUOP + GEMM(N=10) + FINISH: first acc write at S+6 = 23, which the
 * slipped pipeline makes one cycle later. */
static void test_inject_pipe_slip(void) {
  caught("LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n"
         "GEMM uop_bgn=0 uop_end=1 iter_out=1 iter_in=10\n"
         "FINISH\n",
         NULL, VTA_INJECT_PIPE_SLIP, 23, "compute", 1, "GEMM",
         "cycle 23 SRAM_WR acc[0]");
}

/* Two uops (dst 0 and 1, one beat: the LUOP still ends at 16) x iter_in 5
 * with dst_factor_in 2: uop execution 1 writes acc[1] at S+6+1 = 24; with
 * the loop cut short it is the next iteration's uop 0, acc[2]. */
static void test_inject_uop_bound(void) {
  caught("LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=2 x_stride=2\n"
         "GEMM uop_bgn=0 uop_end=2 iter_out=1 iter_in=5 dst_factor_in=2\n"
         "FINISH\n",
         "  dst=0 src=0 wgt=0\n  dst=1 src=0 wgt=0\n", VTA_INJECT_UOP_BOUND, 24, "compute",
         1, "GEMM", "SRAM_WR acc[2]");
}

/* LOAD WGT of one tensor (section 9: S = 9, D = 32k + 14 = 46): its push
 * into l2g at 46 is lost; the tokens tell. */
static void test_inject_drop_push(void) {
  caught("LOAD WGT sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next\n"
         "FINISH pop_prev\n",
         NULL, VTA_INJECT_DROP_PUSH, 46, "load", 0, "LOAD WGT",
         "model l2g=1 g2l=0 g2s=0 s2g=0; mutant:drop_push l2g=0");
}

/* ALU MAX imm=5 on a zero acc row: MAX gives 5, the mutant's MIN 0, in the
 * write at S+6 = 23 (ALU-imm: k = 1, same schedule as the GEMM above).
 * The instruction is decoded from DRAM: the report shows MAX. */
static void test_inject_alu_opcode(void) {
  caught("LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n"
         "ALU MAX uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=5\n"
         "FINISH\n",
         NULL, VTA_INJECT_ALU_OPCODE, 23, "compute", 1, "ALU MAX",
         "acc[0] carries other data from byte 0 on: model 0x05, mutant:alu_opcode 0x00");
}

/* The padded load of test_events_pad: its bottom row's pads (entries 2, 3
 * at 12, 13) go one row up, to entries 0 and 1: caught at 12. */
static void test_inject_pad_row(void) {
  caught("LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 "
         "y_pad_0=0 y_pad_1=1 x_pad_0=1 x_pad_1=0 push_next\n"
         "FINISH pop_prev\n",
         NULL, VTA_INJECT_PAD_ROW, 12, "load", 0, "LOAD INP",
         "mutant:pad_row did, model did not:\n    cycle 12 SRAM_WR inp[0]");
}

/* Every planted bug is caught on a real workload too, in its own unit: the
 * unit column of docs/microarch.md 8.4, written here (not asked of the model). */
static void test_inject_workloads(void) {
  static const struct { vta_inject_t bug; const char *file, *unit; } w[] = {
      {VTA_INJECT_UOP_BOUND, "traces/gemm_demo.vta", "compute"},
      {VTA_INJECT_DROP_PUSH, "traces/small_gemm.vta", "load"},
      {VTA_INJECT_ALU_OPCODE, "traces/small_gemm_vt2_bias.vta", "compute"},
      {VTA_INJECT_PAD_ROW, "traces/small_conv_pad.vta", "load"},
      {VTA_INJECT_PIPE_SLIP, "traces/small_conv_1x1_s2.vta", "compute"},
  };
  for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
    vta_program_t p;
    if (load_file(&p, w[k].file)) continue;
    vta_params_t q;
    vta_params_default(&q);
    q.inject = w[k].bug;
    vta_cosim_result_t r;
    char *rep = NULL;
    vta_err e;
    int rc = cosim(&p, &q, 4, &r, &rep, &e);
    CHECK_MSG(rc == 1 && r.unit >= 0 && !strcmp(vta_cy_unit_name(r.unit), w[k].unit),
              "%s on %s: rc %d, unit %d, expected %s", vta_inject_name(w[k].bug), w[k].file, rc,
              r.unit, w[k].unit);
    CHECK(r.insn >= 0 && r.disasm[0]);
    CHECK(r.last[0].n <= 4 && r.last[1].n <= 4);
    free(rep);
    vta_cosim_result_free(&r);
    vta_program_free(&p);
  }
}

/* ---- custom sides: the end-of-run checks and faults ------------------------------ */

/* A model engine that misbehaves in one way, to reach the comparator's
 * other verdicts: the engine interface wrapped around the model's. */
typedef struct tamper {
  vta_engine_ctx_t base;
  vta_engine_ctx_t *in; /* the model engine */
  int how;              /* 0 flip a DRAM byte at the end, 1 ECNT + 1, 2 fail at cycle 5,
                         * 3 stamp the events of cycle 9 with cycle 0 */
  int flipped;
  uint64_t cycle;
} tamper_t;

static tamper_t *T(vta_engine_ctx_t *e) { return (tamper_t *)e; }

static int t_launch(vta_engine_ctx_t *e, uint32_t a, uint32_t n, vta_err *err) {
  T(e)->cycle = 0;
  return vta_engine_launch(T(e)->in, a, n, err);
}

static int t_step(vta_engine_ctx_t *e, uint64_t max, const vta_watch_t *w,
                  vta_step_result_t *res, vta_err *err) {
  tamper_t *t = T(e);
  if (t->how == 2 && t->cycle == 5)
    return vta_errf(err, VTA_EINPUT, "tamper: harness fault at cycle 5");
  vta_evlist_t *out = w->ev; /* the comparator steps a side with its events */
  int first = out->n, rc = vta_engine_step(t->in, max, w, res, err);
  if (t->how == 3 && t->cycle == 9)
    for (int i = first; i < out->n; i++) out->ev[i].cycle = 0;
  t->cycle++;
  return rc;
}

static void t_snapshot(vta_engine_ctx_t *e, vta_engine_snapshot_t *s) {
  tamper_t *t = T(e);
  vta_engine_snapshot(t->in, s);
  s->ecnt += t->how == 1 && !s->running;
  s->has_cycles = 0; /* a side without the per-unit counters */
  if (t->how == 0 && !s->running && !t->flipped) {
    ((uint8_t *)vta_mem_host(e->mem, 0x10000, 6))[5] ^= 0x40;
    t->flipped = 1;
  }
}

static int t_reg_read(vta_engine_ctx_t *e, uint32_t a, uint32_t *v, vta_err *err) {
  return vta_engine_reg_read(T(e)->in, a, v, err);
}
static int t_reg_write(vta_engine_ctx_t *e, uint32_t a, uint32_t v, vta_err *err) {
  return vta_engine_reg_write(T(e)->in, a, v, err);
}
static int t_read_sram(vta_engine_ctx_t *e, uint32_t b, uint32_t i, int32_t *l, vta_err *err) {
  return vta_engine_read_sram(T(e)->in, b, i, l, err);
}
static int t_reset(vta_engine_ctx_t *e, vta_err *err) { return vta_engine_reset(T(e)->in, err); }
static void t_clear_stats(vta_engine_ctx_t *e) { vta_engine_clear_stats(T(e)->in); }
static void t_free(vta_engine_ctx_t *e) {
  vta_engine_free(T(e)->in);
  free(e);
}

static const vta_engine_ops_t tamper_ops = {"tampered", t_launch,    t_step,
                                            t_reg_read, t_reg_write, t_snapshot,
                                            t_read_sram, t_reset,    t_clear_stats,
                                            t_free};

static int run_tampered(const vta_program_t *p, int how, vta_cosim_result_t *r, char **rep,
                        vta_err *e) {
  vta_cosim_side_t s[2];
  int rc = -1;
  memset(s, 0, sizeof s);
  memset(r, 0, sizeof *r);
  if (!vta_cosim_side_open(&s[0], p, &vta_engine_kind_model, NULL, e) && (s[1].sess = vta_session_new_mapped(p, e))) {
    tamper_t *t = calloc(1, sizeof *t);
    t->in = vta_engine_kind_model.open(&p->cfg, vta_session_mem(s[1].sess), NULL, e);
    t->base = *t->in;
    t->base.ops = &tamper_ops;
    t->how = how;
    vta_session_set_engine(s[1].sess, &t->base);
    snprintf(s[1].name, sizeof s[1].name, "tampered");
    rc = vta_cosim_run(p, s, NULL, r, e);
    size_t n;
    FILE *f = open_memstream(rep, &n);
    vta_cosim_report(r, f);
    fclose(f);
  }
  vta_cosim_side_free(&s[1]);
  vta_cosim_side_free(&s[0]);
  return rc;
}

static void test_cosim_end_checks(void) {
  vta_program_t p;
  if (program(&p, NULL,
              "STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_prev\n"
              "FINISH pop_next\n"))
    return;
  vta_cosim_result_t r;
  char *rep = NULL;
  vta_err e;
  CHECK_EQ(run_tampered(&p, 0, &r, &rep, &e), 1);
  CHECK_EQ(r.status, VTA_COSIM_DRAM);
  CHECK(r.unit == VTA_CY_STORE);
  CHECK_CONTAINS(rep, "DIVERGED (dram)");
  CHECK_CONTAINS(rep, "DRAM segment buf (physical 0x00010000, 65536 bytes) differs at the end "
                      "of run 0: first difference at byte 5 (physical 0x00010005): model "
                      "0x00, tampered 0x40; 1 byte differs");
  free(rep);
  vta_cosim_result_free(&r);
  CHECK_EQ(run_tampered(&p, 1, &r, &rep, &e), 1);
  CHECK_EQ(r.status, VTA_COSIM_COUNTERS);
  CHECK_CONTAINS(rep, "counter ECNT differs at the end of run 0: model");
  free(rep);
  vta_cosim_result_free(&r);
  CHECK_EQ(run_tampered(&p, 2, &r, &rep, &e), 1);
  CHECK_EQ(r.status, VTA_COSIM_FAULT);
  CHECK_EQ(r.cycle, 5);
  CHECK_CONTAINS(rep, "tampered stopped with an error at cycle 5, model did not");
  CHECK_CONTAINS(rep, "tampered stopped: tamper: harness fault at cycle 5");
  /* A side without a tokens port: counted from its events. */
  CHECK_CONTAINS(rep, "tampered l2g=0 g2l=0 g2s=0 s2g=0");
  free(rep);
  vta_cosim_result_free(&r);
  /* Fetch of 2 instructions: beats 4..7, dispatch #0 at 8 and #1 at 9,
   * the store starts at 9: the two events of 9, stamped 0, are a harness
   * bug. */
  CHECK_EQ(run_tampered(&p, 3, &r, &rep, &e), 1);
  CHECK_EQ(r.status, VTA_COSIM_FAULT);
  CHECK_EQ(r.cycle, 9);
  CHECK_CONTAINS(rep, "tampered stopped: 2 events of the step of cycle 9 carry another cycle");
  free(rep);
  vta_cosim_result_free(&r);
  vta_program_free(&p);
}

/* A fault of the program itself (the reference faults): an error, not a
 * divergence. */
static void test_cosim_program_fault(void) {
  vta_program_t p;
  if (program(&p, NULL,
              "LOAD INP sram_base=0 dram_base=0x7fffff y_size=1 x_size=1 x_stride=1\n"
              "FINISH\n"))
    return;
  vta_cosim_result_t r;
  char *rep = NULL;
  vta_err e;
  vta_params_t q;
  vta_params_default(&q);
  CHECK_EQ(cosim(&p, &q, 16, &r, &rep, &e), -1);
  CHECK_CONTAINS(e.msg, "co-simulation: both sides stopped at cycle");
  CHECK_CONTAINS(e.msg, "not inside one device allocation");
  free(rep);
  vta_cosim_result_free(&r);
  vta_program_free(&p);
}

/* The ring keeps the last N events, oldest first; N = 0 keeps none. */
static void test_cosim_last(void) {
  vta_program_t p;
  if (program(&p, NULL,
              "LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n"
              "GEMM uop_bgn=0 uop_end=1 iter_out=1 iter_in=10\n"
              "FINISH\n"))
    return;
  vta_params_t q;
  vta_params_default(&q);
  q.inject = VTA_INJECT_PIPE_SLIP;
  vta_cosim_result_t r;
  char *rep = NULL;
  vta_err e;
  CHECK_EQ(cosim(&p, &q, 3, &r, &rep, &e), 1);
  CHECK_EQ(r.last[0].n, 3);
  /* model at 23: acc[0] and out[0] written, before them START #1 at 17 */
  CHECK(r.last[0].ev[0].kind == VTA_EV_START && r.last[0].ev[0].cycle == 17);
  CHECK(r.last[0].ev[2].kind == VTA_EV_SRAM_WR && r.last[0].ev[2].cycle == 23);
  CHECK_EQ(r.last[1].n, 3); /* the mutant wrote nothing at 23 */
  CHECK_EQ(r.last[1].ev[2].cycle, 17);
  CHECK_CONTAINS(rep, "last 3 events of model, oldest first:");
  free(rep);
  vta_cosim_result_free(&r);
  CHECK_EQ(cosim(&p, &q, 0, &r, &rep, &e), 1);
  CHECK_EQ(r.last[0].n + r.last[1].n, 0);
  free(rep);
  vta_cosim_result_free(&r);
  vta_program_free(&p);
}

int main(void) {
  RUN(test_evlist_pool);
  RUN(test_evlist_canonical);
  RUN(test_evlist_digest);
  RUN(test_digest_paths);
  RUN(test_evlist_add_wb);
  RUN(test_sort_cmp);
  RUN(test_format);
  RUN(test_events_gemm);
  RUN(test_events_store);
  RUN(test_events_pad);
  RUN(test_step_equals_run);
  RUN(test_step_misuse);
  RUN(test_cosim_equal);
  RUN(test_inject_pipe_slip);
  RUN(test_inject_uop_bound);
  RUN(test_inject_drop_push);
  RUN(test_inject_alu_opcode);
  RUN(test_inject_pad_row);
  RUN(test_inject_workloads);
  RUN(test_cosim_end_checks);
  RUN(test_cosim_program_fault);
  RUN(test_cosim_last);
  return TEST_SUMMARY();
}
