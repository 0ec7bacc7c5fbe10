/*
 * test_program.c - the program bundle: the text reader (every directive,
 * addresses, symbols, every error class with its FILE:LINE), encodings
 * checked against bytes worked out by hand from the bit tables of docs/isa.md 3.2-4,
 * the canonical writer's round trip and stability, the binary container
 * (every truncation, every flipped byte, re-sealed corruptions) and raw
 * disassembly.
 */
#include "check.h"
#include "vta_program.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers -------------------------------------------------------------- */

static char tmpdir[256];

static const char *tmp_path(const char *rel) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, rel);
  return buf[k];
}

static void write_file(const char *rel, const void *data, size_t n) {
  FILE *f = fopen(tmp_path(rel), "wb");
  if (!f) {
    printf("  cannot create %s\n", tmp_path(rel));
    return;
  }
  fwrite(data, 1, n, f);
  fclose(f);
}

static void write_str(const char *rel, const char *text) { write_file(rel, text, strlen(text)); }

static int parse(vta_program_t *p, const char *text, vta_err *e) {
  return vta_program_parse(p, text, strlen(text), "t.vta", e);
}

/* The canonical text of a program, malloc'd; NULL (and a message) on error. */
static char *text_of(const vta_program_t *p) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  vta_err e;
  int rc = vta_program_write_text(p, f, &e);
  fclose(f);
  if (rc) {
    printf("  write_text: %s\n", e.msg);
    free(buf);
    return NULL;
  }
  return buf;
}

static uint8_t *binary_of(const vta_program_t *p, size_t *n) {
  uint8_t *d;
  vta_err e;
  if (vta_program_to_binary(p, &d, n, &e)) {
    printf("  to_binary: %s\n", e.msg);
    return NULL;
  }
  return d;
}

static void put_le(uint8_t *out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) out[i] = (uint8_t)(v >> (8 * i));
}

/* 16 instruction bytes from the two 64-bit words of docs/isa.md 3.1. */
static void words_to_bytes(uint64_t w0, uint64_t w1, uint8_t out[16]) {
  put_le(out, w0, 8);
  put_le(out + 8, w1, 8);
}

static void check_error_(int at, int rc, const vta_err *e, const char *prefix,
                         const char *phrase, vta_err_kind kind) {
  CHECK_MSG(rc == -1, "test line %d: expected failure", at);
  if (rc != -1) return;
  CHECK_MSG(!strncmp(e->msg, prefix, strlen(prefix)), "test line %d: expected prefix '%s' in: %s",
            at, prefix, e->msg);
  CHECK_MSG(strstr(e->msg, phrase) != NULL, "test line %d: expected '%s' in: %s", at, phrase,
            e->msg);
  CHECK_MSG(e->kind == kind, "test line %d: kind %d, expected %d (%s)", at, e->kind, kind,
            e->msg);
}

/* Parse `text` as "bad.vta": it must fail at LINE with PHRASE and KIND. */
static void bad_text_(int at, const char *text, int line, const char *phrase,
                      vta_err_kind kind) {
  vta_program_t p;
  vta_err e;
  char prefix[64];
  snprintf(prefix, sizeof prefix, "bad.vta:%d: ", line);
  int rc = vta_program_parse(&p, text, strlen(text), "bad.vta", &e);
  check_error_(at, rc, &e, prefix, phrase, kind);
  CHECK_MSG(p.nsegs == 0 && p.segs == NULL, "test line %d: program not freed", at);
  vta_program_free(&p);
}
#define BAD_TEXT(text, line, phrase) bad_text_(__LINE__, text, line, phrase, VTA_EINPUT)
#define BAD_TEXT_KIND(text, line, phrase, kind) bad_text_(__LINE__, text, line, phrase, kind)

/* ---- a sample covering every directive ------------------------------------ */

static const char *const sample =
    "# a sample bundle: every directive\n"               /* 1 */
    ".version 1   # required first\n"                    /* 2 */
    ".config default\n"                                  /* 3 */
    ".set LOG_ACC_BUFF_SIZE 17\n"                        /* 4: same as the default */
    ".meta seed 1234\n"                                  /* 5 */
    ".meta generator  alu test  # comment\n"             /* 6 */
    "\n"                                                 /* 7 */
    ".data acc auto {\n"                                 /* 8 */
    "  i32: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 -1\n"     /* 9 */
    "}\n"                                                /* 10 */
    ".data raw 0x3000 {  00 01 02 ff\n"                  /* 11 */
    "  0a0B0c i8: -128 127\n"                            /* 12 */
    "  u16: 0xbeef i16: -2 u32: 4294967295 u8: 255 }\n"  /* 13: a later tag wins */
    ".data blob auto file blob.bin\n"                    /* 14 */
    ".data out auto zero 16\n"                           /* 15 */
    ".uop uops auto {\n"                                 /* 16 */
    "  dst=0 src=0 wgt=0\n"                              /* 17 */
    "  dst=1 src=2 wgt=3   # item comment\n"             /* 18 */
    "}\n"                                                /* 19 */
    ".insn prog auto {\n"                                /* 20 */
    "  LOAD UOP sram_base=0 dram_base=@uops y_size=1 x_size=2 x_stride=2\n" /* 21 */
    "  LOAD ACC sram_base=0 dram_base=@acc y_size=1 x_size=1 x_stride=1\n"  /* 22 */
    "\n"                                                                    /* 23 */
    "  ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=100\n" /* 24 */
    "  STORE OUT sram_base=0 dram_base=@late y_size=1 x_size=1 x_stride=1\n" /* 25 */
    "  FINISH\n"                                         /* 26 */
    "}\n"                                                /* 27 */
    ".data late auto zero 16   # defined after its use\n" /* 28 */
    ".run prog 2\n"                                      /* 29 */
    ".run prog\n"                                        /* 30 */
    ".expect late {\n"                                   /* 31 */
    "  64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70 71 72 63\n" /* 32 */
    "}\n"                                                /* 33 */
    ".expect late[4] { 68 69 }\n"                        /* 34 */
    ".expect late[8:10] { 6c 6d }\n"                     /* 35 */
    ".expect blob[1] file tail.bin\n"                    /* 36: 3 bytes at offset 1 of 4 */
    ".expect out sha256 "
    "374708fff7719dd5979ec875d56cd2286f6d3cf7ec317a3b25632aab28ec37bb\n" /* 37 */
    ".expect out[4:8] sha256 "
    "df3f619804a92fdb4057192dc43dd748ea778adc52bc498ce80524c014b81119\n" /* 38 */
    ".expect raw[2] sha256 "
    "0000000000000000000000000000000000000000000000000000000000000000\n" /* 39 */
    ".expect-counter alu_counter 1\n"                    /* 40 */
    ".expect-counter gemm_counter 0x10\n";               /* 41 */

static int load_sample(vta_program_t *p) {
  static const uint8_t blob[4] = {9, 8, 7, 6};
  mkdir(tmp_path("sample"), 0700);
  write_file("sample/blob.bin", blob, 4);
  write_file("sample/tail.bin", blob + 1, 3);
  vta_err e;
  char path[512];
  snprintf(path, sizeof path, "%s", tmp_path("sample/s.vta"));
  write_str("sample/s.vta", sample);
  int rc = vta_program_load(p, path, &e);
  if (rc) printf("  load sample: %s\n", e.msg);
  return rc;
}

static void test_sample_directives(void) {
  vta_program_t p;
  if (load_sample(&p)) {
    CHECK(0);
    return;
  }
  vta_config_t def;
  vta_config_default(&def);
  CHECK(vta_config_equal(&p.cfg, &def));
  CHECK_EQ(p.nmeta, 2);
  CHECK(!strcmp(p.meta[0].key, "seed") && !strcmp(p.meta[0].value, "1234"));
  CHECK(!strcmp(p.meta[1].key, "generator") && !strcmp(p.meta[1].value, "alu test"));

  CHECK_EQ(p.nsegs, 7);
  const vta_segment_t *acc = vta_program_find(&p, "acc");
  CHECK(acc && acc->kind == VTA_SEG_DATA && acc->addr == 0x1000 && acc->size == 64);
  CHECK(acc && acc->data[4] == 1 && acc->data[60] == 0xff && acc->data[63] == 0xff);
  CHECK(acc && acc->line == 8);

  const vta_segment_t *raw = vta_program_find(&p, "raw");
  static const uint8_t raw_bytes[] = {0x00, 0x01, 0x02, 0xff, 0x0a, 0x0b, 0x0c, 0x80, 0x7f,
                                      0xef, 0xbe, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  CHECK(raw && raw->addr == 0x3000 && raw->size == sizeof raw_bytes);
  CHECK(raw && !memcmp(raw->data, raw_bytes, sizeof raw_bytes));

  const vta_segment_t *blob = vta_program_find(&p, "blob");
  CHECK(blob && blob->addr == 0x4000 && blob->size == 4 && blob->data[3] == 6);
  CHECK(blob && blob->file && !strcmp(blob->file, "blob.bin"));

  const vta_segment_t *out = vta_program_find(&p, "out");
  CHECK(out && out->addr == 0x5000 && out->size == 16 && out->data[7] == 0);

  const vta_segment_t *uops = vta_program_find(&p, "uops");
  CHECK(uops && uops->kind == VTA_SEG_UOP && uops->addr == 0x6000 && uops->size == 8);
  CHECK(uops && uops->lines && uops->lines[0] == 17 && uops->lines[1] == 18);

  const vta_segment_t *prog = vta_program_find(&p, "prog");
  CHECK(prog && prog->kind == VTA_SEG_INSN && prog->addr == 0x7000 && prog->size == 80);
  CHECK(prog && prog->lines && prog->lines[1] == 22 && prog->lines[2] == 24 &&
        prog->lines[4] == 26);
  const vta_segment_t *late = vta_program_find(&p, "late");
  CHECK(late && late->addr == 0x8000);
  if (prog) {
    vta_insn_t in;
    vta_err e;
    CHECK(vta_insn_decode(&p.cfg, prog->data + 16, &in, &e) == 0);
    CHECK_EQ(in.dram_base, 0x1000 / 64); /* @acc in ACC elements */
    CHECK(vta_insn_decode(&p.cfg, prog->data + 48, &in, &e) == 0);
    CHECK_EQ(in.opcode, VTA_OP_STORE);
    CHECK_EQ(in.dram_base, 0x8000 / 16); /* forward reference */
  }

  CHECK_EQ(p.nruns, 2);
  CHECK(!strcmp(p.runs[0].segment, "prog") && p.runs[0].count == 2 && p.runs[0].line == 29);
  CHECK(p.runs[1].count == 0);

  CHECK_EQ(p.nexpects, 9);
  const vta_expect_t *x = p.expects;
  CHECK(x[0].kind == VTA_EXPECT_BYTES && x[0].offset == 0 && x[0].size == 16 &&
        x[0].bytes[15] == 0x63 && x[0].line == 31);
  CHECK(x[1].offset == 4 && x[1].size == 2 && x[1].bytes[1] == 0x69);
  CHECK(x[2].offset == 8 && x[2].size == 2);
  CHECK(x[3].kind == VTA_EXPECT_BYTES && x[3].offset == 1 && x[3].size == 3 && x[3].file &&
        !strcmp(x[3].file, "tail.bin") && x[3].bytes[0] == 8);
  CHECK(x[4].kind == VTA_EXPECT_SHA256 && x[4].offset == 0 && x[4].size == 16 &&
        x[4].sha256[0] == 0x37 && x[4].sha256[31] == 0xbb);
  CHECK(x[5].offset == 4 && x[5].size == 4);
  CHECK(x[6].offset == 2 && x[6].size == 16); /* [OFF] sha256: to the end of raw */
  CHECK(x[7].kind == VTA_EXPECT_COUNTER && !strcmp(x[7].counter, "alu_counter") &&
        x[7].value == 1);
  CHECK(x[8].value == 16);
  vta_program_free(&p);
  vta_program_free(&p); /* twice is harmless */
}

/* ---- encodings against hand-computed bytes -------------------------------- */

static void test_encoding_by_hand(void) {
  const char *text =
      ".version 1\n"
      ".data inp 0x2000 zero 16\n"
      ".insn prog auto {\n"
      "  LOAD INP sram_base=5 dram_base=@inp y_size=2 x_size=16 x_stride=32 x_pad_0=1 push_next\n"
      "  ALU ADD uop_bgn=1 uop_end=3 iter_out=2 iter_in=4 dst_factor_out=16 dst_factor_in=1 "
      "src_factor_out=16 src_factor_in=1 use_imm=1 imm=-2 pop_prev\n"
      "  GEMM uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 wgt_factor_in=3 push_prev\n"
      "  FINISH\n"
      "}\n"
      ".uop u auto {\n"
      "  dst=1 src=2 wgt=3\n"
      "  dst=2047 src=0 wgt=1023\n"
      "}\n";
  vta_program_t p;
  vta_err e;
  if (parse(&p, text, &e)) {
    printf("  %s\n", e.msg);
    CHECK(0);
    return;
  }
  uint8_t want[4][16];
  /* LOAD (docs/isa.md 3.2): opcode 2:0, push_next 6, memory_type 9:7, sram_base 25:10,
   * dram_base 57:26 | y_size 79:64, x_size 95:80, x_stride 111:96, pads 112..127 */
  words_to_bytes(0ull | 1ull << 6 | 2ull << 7 | 5ull << 10 | (0x2000ull / 16) << 26,
                 2ull | 16ull << 16 | 32ull << 32 | 1ull << 56, want[0]);
  /* ALU (docs/isa.md 3.4): opcode 4, pop_prev 3, uop_bgn 20:8, uop_end 34:21, iter_out
   * 48:35, iter_in 62:49 | dst_fo 74:64, dst_fi 85:75, src_fo 96:86, src_fi
   * 107:97, alu_opcode 110:108, use_imm 111, imm 127:112 */
  words_to_bytes(4ull | 1ull << 3 | 1ull << 8 | 3ull << 21 | 2ull << 35 | 4ull << 49,
                 16ull | 1ull << 11 | 16ull << 22 | 1ull << 33 | 2ull << 44 | 1ull << 47 |
                     0xfffeull << 48,
                 want[1]);
  /* GEMM (docs/isa.md 3.3): push_prev 5, wgt_factor_in 127:118 */
  words_to_bytes(2ull | 1ull << 5 | 1ull << 21 | 1ull << 35 | 1ull << 49, 3ull << 54, want[2]);
  words_to_bytes(3, 0, want[3]); /* FINISH: opcode only (docs/isa.md 3.5) */
  const vta_segment_t *prog = vta_program_find(&p, "prog");
  CHECK(prog && prog->size == 64);
  for (int i = 0; prog && i < 4; i++)
    CHECK_MSG(!memcmp(prog->data + 16 * i, want[i], 16), "insn %d", i);
  /* micro-op (docs/isa.md 4): dst 10:0, src 21:11, wgt 31:22 */
  const vta_segment_t *u = vta_program_find(&p, "u");
  uint8_t uw[8];
  put_le(uw, 1u | 2u << 11 | 3u << 22, 4);
  put_le(uw + 4, 2047u | 0u << 11 | 1023u << 22, 4);
  CHECK(u && u->size == 8 && !memcmp(u->data, uw, 8));
  CHECK(u && u->data[7] == 0xff && u->data[4] == 0xff);
  vta_program_free(&p);
}

/* ---- round trip and stability --------------------------------------------- */

static void round_trip(const vta_program_t *p0) {
  char why[256] = "";
  vta_program_t p1, p2, p3;
  vta_err e;
  char *t1 = text_of(p0);
  CHECK(t1 != NULL);
  if (!t1) return;
  CHECK_MSG(vta_program_parse(&p1, t1, strlen(t1), "t1.vta", &e) == 0, "%s", e.msg);
  CHECK_MSG(vta_program_equal(p0, &p1, why, sizeof why), "text: %s", why);
  size_t n1 = 0, n2 = 0;
  uint8_t *b1 = binary_of(&p1, &n1);
  CHECK(b1 != NULL);
  CHECK_MSG(b1 && vta_program_read_binary(&p2, b1, n1, "b1.bin", &e) == 0, "%s", e.msg);
  CHECK_MSG(vta_program_equal(p0, &p2, why, sizeof why), "binary: %s", why);
  char *t2 = text_of(&p2);
  CHECK(t2 && !strcmp(t1, t2));
  CHECK_MSG(t2 && vta_program_parse(&p3, t2, strlen(t2), "t2.vta", &e) == 0, "%s", e.msg);
  uint8_t *b2 = binary_of(&p3, &n2);
  CHECK(b1 && b2 && n1 == n2 && !memcmp(b1, b2, n1));
  char *t3 = text_of(&p3);
  CHECK(t3 && t2 && !strcmp(t2, t3));
  free(t1);
  free(t2);
  free(t3);
  free(b1);
  free(b2);
  vta_program_free(&p1);
  vta_program_free(&p2);
  vta_program_free(&p3);
}

static void test_round_trip_sample(void) {
  vta_program_t p;
  if (load_sample(&p)) {
    CHECK(0);
    return;
  }
  round_trip(&p);
  vta_program_free(&p);
}

/* Every key of a vta_config.json but LOG_BLOCK and LOG_WGT_BUFF_SIZE (all are required). */
#define COMMON_KEYS                                                                        \
  "\"LOG_INP_WIDTH\": 3, \"LOG_WGT_WIDTH\": 3, \"LOG_ACC_WIDTH\": 5, \"LOG_BATCH\": 0, "     \
  "\"LOG_UOP_BUFF_SIZE\": 15, \"LOG_INP_BUFF_SIZE\": 15, \"LOG_ACC_BUFF_SIZE\": 17"

static void test_round_trip_config(void) {
  const char *cfg = "{\"TARGET\": \"tsim\", \"LOG_BLOCK\": 5, \"LOG_WGT_BUFF_SIZE\": 17, " COMMON_KEYS "}\n";
  mkdir(tmp_path("cfg"), 0700);
  write_str("cfg/vta_config.json", cfg);
  write_str("cfg/c.vta",
            ".version 1\n.config vta_config.json\n.set HW_VER 0.0.9\n.set LOG_INP_BUFF_SIZE 14\n"
            ".meta empty\n"
            ".data inp auto { 11 }\n.insn prog auto {\n"
            "  LOAD INP dram_base=@inp x_size=1 y_size=1 x_stride=1\n  FINISH\n}\n");
  vta_program_t p;
  vta_err e;
  int rc = vta_program_load(&p, tmp_path("cfg/c.vta"), &e);
  CHECK_MSG(rc == 0, "%s", e.msg);
  if (rc) return;
  CHECK(!strcmp(p.cfg.target, "tsim") && !strcmp(p.cfg.hw_ver, "0.0.9"));
  CHECK(p.cfg.log_block == 5 && p.cfg.log_wgt_buff_size == 17 && p.cfg.log_inp_buff_size == 14);
  CHECK_EQ(p.cfg.inp_elem_bytes, 32); /* derived after the .set lines */
  CHECK(p.nmeta == 1 && !strcmp(p.meta[0].value, ""));
  char *t = text_of(&p);
  CHECK(t && strstr(t, ".config default\n.set TARGET tsim\n.set HW_VER 0.0.9\n"
                       ".set LOG_BLOCK 5\n.set LOG_INP_BUFF_SIZE 14\n.set LOG_WGT_BUFF_SIZE 17\n"));
  CHECK(t && strstr(t, ".meta empty\n"));
  free(t);
  round_trip(&p);
  vta_program_free(&p);
}

static void test_canonical_form(void) {
  vta_program_t p;
  vta_err e;
  const char *text =
      ".version 1\n"
      ".data z 0x1000 zero 32\n"
      ".data d 0x2000 { 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 }\n"
      ".insn prog 0x3000 {\n  LOAD INP x_size=1 y_size=1 x_stride=1\n  FINISH\n}\n"
      ".run prog 1\n.expect d[1:3] sha256 "
      "0101010101010101010101010101010101010101010101010101010101010101\n";
  CHECK_MSG(parse(&p, text, &e) == 0, "%s", e.msg);
  char *t = text_of(&p);
  CHECK(t && !strncmp(t, ".version 1\n.config default\n\n.data z 0x00001000 zero 32\n", 52));
  CHECK(t && strstr(t, ".data d 0x00002000 {\n"
                       "  00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n  10\n}\n"));
  CHECK(t && strstr(t, "  FINISH") && strstr(t, "x_pad_1=0  # 0\n"));
  CHECK(t && strstr(t, ".run prog 1\n"));
  CHECK(t && strstr(t, ".expect d[1:3] sha256 0101"));
  /* the index comments line up */
  const char *a = t ? strstr(t, "# 0") : NULL, *b = t ? strstr(t, "# 1") : NULL;
  const char *la = a, *lb = b;
  while (la && la[-1] != '\n') la--;
  while (lb && lb[-1] != '\n') lb--;
  CHECK(a && b && a - la == b - lb);
  free(t);
  vta_program_free(&p);
}

/* ---- addresses and symbols ------------------------------------------------ */

static void test_auto_addresses(void) {
  const char *text =
      ".version 1\n"
      ".data a auto zero 16\n"         /* 0x1000 */
      ".data b auto zero 4096\n"       /* 0x2000 */
      ".data c 0x10000 zero 1\n"       /* explicit */
      ".data d auto zero 1\n"          /* 0x11000 */
      ".insn e auto {\n  FINISH\n}\n"  /* 0x12000 */
      ".data f 0x5000 zero 16\n"       /* below: does not pull auto back */
      ".data g auto zero 8192\n"       /* 0x13000, ends at a page boundary */
      ".data h auto zero 1\n";         /* 0x15000 */
  vta_program_t p;
  vta_err e;
  CHECK_MSG(parse(&p, text, &e) == 0, "%s", e.msg);
  static const uint32_t want[] = {0x1000, 0x2000, 0x10000, 0x11000, 0x12000,
                                  0x5000, 0x13000, 0x15000};
  CHECK_EQ(p.nsegs, 8);
  for (int i = 0; i < p.nsegs && i < 8; i++)
    CHECK_MSG(p.segs[i].addr == want[i], "segment %s at 0x%x", p.segs[i].name, p.segs[i].addr);
  vta_program_free(&p);
}

static void test_symbols(void) {
  const char *text =
      ".version 1\n"
      ".insn prog auto {\n"
      "  LOAD INP dram_base=@inp+2 x_size=1 y_size=1 x_stride=1\n"
      "  LOAD WGT dram_base=@wgt x_size=1 y_size=1 x_stride=1\n"
      "  LOAD ACC dram_base=@acc-1 x_size=1 y_size=1 x_stride=1\n"
      "  LOAD UOP dram_base=@uops+0x1 x_size=1 y_size=1 x_stride=1\n"
      "  STORE OUT dram_base=@out x_size=1 y_size=1 x_stride=1\n"
      "  FINISH\n"
      "}\n"
      ".data inp 0x3000 zero 64\n"
      ".data wgt 0x4000 zero 256\n"
      ".data acc 0x5000 zero 64\n"
      ".uop uops 0x6000 {\n  dst=0 src=0 wgt=0\n}\n"
      ".data out 0x7000 zero 16\n";
  vta_program_t p;
  vta_err e;
  CHECK_MSG(parse(&p, text, &e) == 0, "%s", e.msg);
  static const uint32_t want[] = {0x3000 / 16 + 2, 0x4000 / 256, 0x5000 / 64 - 1,
                                  0x6000 / 4 + 1, 0x7000 / 16};
  const vta_segment_t *prog = vta_program_find(&p, "prog");
  for (int i = 0; prog && i < 5; i++) {
    vta_insn_t in;
    CHECK(vta_insn_decode(&p.cfg, prog->data + 16 * i, &in, &e) == 0);
    CHECK_MSG(in.dram_base == want[i], "insn %d dram_base %u", i, in.dram_base);
  }
  vta_program_free(&p);

  BAD_TEXT(".version 1\n.data a 0x1010 zero 64\n.insn p auto {\n"
           "  LOAD ACC dram_base=@a x_size=1 y_size=1 x_stride=1\n}\n",
           4, "not aligned to the 64-byte ACC elements");
  BAD_TEXT(".version 1\n.data a 0x1080 zero 256\n.insn p auto {\n  FINISH\n"
           "  LOAD WGT dram_base=@a x_size=1 y_size=1 x_stride=1\n}\n",
           5, "256-byte WGT");
  BAD_TEXT(".version 1\n.data a auto zero 64\n.insn p auto {\n"
           "  LOAD INP dram_base=0 x_size=@a y_size=1 x_stride=1\n}\n",
           4, "may only stand in dram_base");
  BAD_TEXT(".version 1\n.insn p auto {\n  FINISH\n"
           "  ALU ADD uop_bgn=@p uop_end=1\n}\n",
           4, "field 'uop_bgn'");
  BAD_TEXT(".version 1\n.insn p auto {\n"
           "  LOAD INP dram_base=@nope x_size=1 y_size=1 x_stride=1\n}\n",
           3, "unknown segment '@nope'");
  BAD_TEXT(".version 1\n.data a auto zero 16\n.insn p auto {\n"
           "  LOAD INP dram_base=@a-1000 x_size=1 y_size=1 x_stride=1\n}\n",
           4, "outside 0..4294967295");
}

/* ---- errors of the text form ---------------------------------------------- */

static void test_errors_structure(void) {
  BAD_TEXT(".version 1\n.data a auto zero 4\n.foo bar\n", 3, "unknown directive '.foo'");
  BAD_TEXT(".version 1\nhello\n", 2, "expected a directive");
  BAD_TEXT(".version 1\n}\n", 2, "expected a directive");
  BAD_TEXT("# nothing\n\n", 1, "expected '.version 1'");
  BAD_TEXT("\n.data a auto zero 4\n.version 1\n", 2, "expected '.version 1' as the first");
  BAD_TEXT(".version 2\n", 1, "a newer vtasim");
  BAD_TEXT(".version 1\n.version 1\n", 2, "duplicate .version");
  BAD_TEXT(".version one\n", 1, "expected '.version 1'");
  /* a missing '}' names the line of the opening */
  BAD_TEXT(".version 1\n.data a auto {\n 00 01\n\n", 2, "missing '}'");
  BAD_TEXT(".version 1\n\n.insn p auto {\n  FINISH\n", 3, "missing '}'");
  BAD_TEXT(".version 1\n.uop u auto {\n", 2, "missing '}'");
  BAD_TEXT(".version 1\n.expect x {\n 00\n", 2, "missing '}'");
  /* a directive inside a block points at the likely missing '}' */
  BAD_TEXT(".version 1\n.data a auto {\n 00\n.run p\n", 4, "block opened on line 2");
  BAD_TEXT(".version 1\n.insn p auto {\n FINISH\n.data a auto zero 1\n}\n", 4,
           "block opened on line 2");
  BAD_TEXT(".version 1\n.insn p auto {\n FINISH\n} x\n", 4, "'}' alone");
  BAD_TEXT(".version 1\n.data a auto { 00 } 01\n", 2, "unexpected '01'");
  BAD_TEXT(".version 1\n.run p 1 extra\n", 2, "unexpected 'extra'");
  BAD_TEXT(".version 1\n.data a auto zero 4 more\n", 2, "unexpected 'more'");
  BAD_TEXT(".version 1\n.data a auto\n", 2, "expected '.data NAME ADDR zero SIZE'");
  BAD_TEXT(".version 1\n.data a auto hex 00\n", 2, "expected 'zero', 'file' or '{'");
  BAD_TEXT(".version 1\n.uop u auto\n", 2, "expected '.uop NAME ADDR {'");
  BAD_TEXT(".version 1\n.insn p auto { FINISH\n}\n", 2, "unexpected 'FINISH'");
  BAD_TEXT(".version 1\n.meta\n", 2, "expected '.meta KEY VALUE'");
  BAD_TEXT(".version 1\n.meta a$b c\n", 2, "bad meta key");
  BAD_TEXT(".version 1\n.run\n", 2, "expected '.run SEGMENT [COUNT]'");
  BAD_TEXT(".version 1\n.insn p auto {\n FINISH\n}\n.run p 0\n", 5, "at least 1");
  BAD_TEXT(".version 1\n.expect-counter gemm_counter\n", 2, "expected '.expect-counter");
  BAD_TEXT(".version 1\n.expect-counter gemm-counter 1\n", 2, "bad counter name");
  BAD_TEXT(".version 1\n.expect-counter c -1\n", 2, "non-negative");
  const char nul[] = ".version 1\n.data a auto { 00 }\n\0\n";
  vta_program_t p;
  vta_err e;
  int rc = vta_program_parse(&p, nul, sizeof nul - 1, "bad.vta", &e);
  check_error_(__LINE__, rc, &e, "bad.vta:3: ", "NUL byte", VTA_EINPUT);
}

static void test_errors_segments(void) {
  BAD_TEXT(".version 1\n.data a auto zero 4\n\n.data a auto zero 4\n", 4,
           "duplicate segment name 'a' (defined on line 2)");
  BAD_TEXT(".version 1\n.data a 0x1000 zero 32\n.data b 0x1010 zero 4\n", 3,
           "segment 'b' [0x00001010, 0x00001014) overlaps segment 'a' [0x00001000, 0x00001020)");
  BAD_TEXT(".version 1\n.insn p 0x1008 {\n FINISH\n}\n", 2, "not 16-byte aligned");
  BAD_TEXT(".version 1\n.uop u 0x1002 {\n dst=0\n}\n", 2, "not 4-byte aligned");
  BAD_TEXT(".version 1\n.data a 0 zero 4\n", 2, "address 0 is not allowed");
  BAD_TEXT(".version 1\n.data a 0x100000000 zero 4\n", 2, "beyond the 32-bit address space");
  BAD_TEXT(".version 1\n.data a 0xfffffff0 zero 32\n", 2, "does not fit in the 32-bit");
  BAD_TEXT(".version 1\n.data a 0xfffff000 zero 4096\n.data b auto zero 1\n", 3,
           "no address left for 'auto'");
  BAD_TEXT(".version 1\n.data a somewhere zero 4\n", 2, "expected an address");
  BAD_TEXT(".version 1\n.data a auto zero 1073741825\n", 2, "1 GiB");
  BAD_TEXT(".version 1\n.data a auto zero 0x100000000\n", 2, "out of range");
  BAD_TEXT(".version 1\n.data a auto zero 0\n", 2, "is empty");
  BAD_TEXT(".version 1\n.data a auto {\n}\n", 2, "is empty");
  BAD_TEXT(".version 1\n.insn p auto {\n\n}\n", 2, "at least one instruction");
  BAD_TEXT(".version 1\n.data a-b auto zero 4\n", 2, "bad segment name 'a-b'");
  BAD_TEXT(".version 1\n.data 9a auto zero 4\n", 2, "bad segment name");
  BAD_TEXT(".version 1\n.data "
           "a234567890123456789012345678901234567890123456789012345678901234 auto zero 4\n",
           2, "at most 63 characters");
  BAD_TEXT_KIND(".version 1\n.data a auto file no/such/file.bin\n", 2, "cannot open",
                VTA_EIO);
  BAD_TEXT(".version 1\n.data a auto file\n", 2, "expected a path");
}

static void test_errors_bytes(void) {
  BAD_TEXT(".version 1\n.data a auto {\n 00 zz\n}\n", 3, "bad hex byte 'zz'");
  BAD_TEXT(".version 1\n.data a auto {\n 00\n 0g\n}\n", 4, "bad hex byte '0g'");
  BAD_TEXT(".version 1\n.data a auto {\n abc\n}\n", 3, "odd number of hex digits");
  BAD_TEXT(".version 1\n.data a auto {\n 0x12\n}\n", 3, "bad hex byte '0x12'");
  BAD_TEXT(".version 1\n.data a auto {\n i8: 1 200\n}\n", 3,
           "value 200 is out of range for i8 (-128..127)");
  BAD_TEXT(".version 1\n.data a auto {\n i8: -129\n}\n", 3, "out of range for i8");
  BAD_TEXT(".version 1\n.data a auto {\n u8: -1\n}\n", 3, "out of range for u8 (0..255)");
  BAD_TEXT(".version 1\n.data a auto {\n u16: 65536\n}\n", 3, "out of range for u16");
  BAD_TEXT(".version 1\n.data a auto {\n i16: -32769\n}\n", 3, "out of range for i16");
  BAD_TEXT(".version 1\n.data a auto {\n i32: 2147483648\n}\n", 3, "out of range for i32");
  BAD_TEXT(".version 1\n.data a auto {\n u32: 4294967296\n}\n", 3, "out of range for u32");
  BAD_TEXT(".version 1\n.data a auto {\n i32: 1.5\n}\n", 3, "expected a i32 value");
  BAD_TEXT(".version 1\n.data a auto {\n i64: 1\n}\n", 3, "bad hex byte 'i64:'");
}

static void test_errors_config(void) {
  BAD_TEXT(".version 1\n.set FOO 1\n", 2, "unknown configuration key 'FOO'");
  BAD_TEXT(".version 1\n.set LOG_BLOCK four\n", 2, "LOG_BLOCK: expected an integer");
  BAD_TEXT(".version 1\n.set LOG_BLOCK 99\n", 2, "expected a small non-negative integer");
  /* derivation happens once, at the first segment; the error names the last .set */
  BAD_TEXT(".version 1\n.set LOG_BLOCK 9\n.meta a b\n.data a auto zero 4\n", 2,
           "LOG_BLOCK = 9: expected 0..6");
  BAD_TEXT(".version 1\n.set LOG_BLOCK 9\n", 2, "configuration set up to here is invalid");
  BAD_TEXT(".version 1\n.set TARGET way_too_long_a_target_name_for_vta\n", 2,
           "TARGET: expected one word");
  BAD_TEXT(".version 1\n.data a auto zero 4\n.set LOG_BLOCK 4\n", 3, ".set must come before");
  BAD_TEXT(".version 1\n.set LOG_BLOCK 4\n.config default\n", 3, ".config must come before");
  BAD_TEXT(".version 1\n.config default\n.config default\n", 3, "duplicate .config");
  BAD_TEXT(".version 1\n.config\n", 2, "expected '.config default'");
  BAD_TEXT_KIND(".version 1\n.config missing.json\n", 2, "cannot open", VTA_EIO);
  mkdir(tmp_path("badcfg"), 0700);
  write_str("badcfg/vta_config.json",
            "{\n  \"LOG_BLOCK\": 9, \"LOG_WGT_BUFF_SIZE\": 18, " COMMON_KEYS "\n}\n");
  write_str("badcfg/b.vta", ".version 1\n.config vta_config.json\n");
  vta_program_t p;
  vta_err e;
  char prefix[600];
  snprintf(prefix, sizeof prefix, "%s:2: ", tmp_path("badcfg/b.vta"));
  int rc = vta_program_load(&p, tmp_path("badcfg/b.vta"), &e);
  check_error_(__LINE__, rc, &e, prefix, "LOG_BLOCK = 9", VTA_EINPUT);
}

static void test_errors_items(void) {
  BAD_TEXT(".version 1\n.insn p auto {\n  FINISH\n  LOAD INP x_size=70000\n}\n", 4,
           "does not fit in 16 bits");
  BAD_TEXT(".version 1\n.insn p auto {\n  FINISH\n  JUMP 3\n}\n", 4, "unknown instruction 'JUMP'");
  BAD_TEXT(".version 1\n.insn p auto {\n  LOAD INP bogus=1\n}\n", 3, "no field 'bogus'");
  BAD_TEXT(".version 1\n.insn p auto {\n  ALU ADD imm=40000\n}\n", 3, "imm");
  BAD_TEXT(".version 1\n.uop u auto {\n  dst=0\n  dst=4096\n}\n", 4, "does not fit in 11 bits");
  BAD_TEXT(".version 1\n.uop u auto {\n  foo=1\n}\n", 3, "expected dst=N src=N wgt=N");
}

static void test_errors_runs_expects(void) {
  const char *head = ".version 1\n.data d auto zero 16\n.insn p auto {\n FINISH\n FINISH\n}\n";
  char buf[1024];
#define WITH(tail) (snprintf(buf, sizeof buf, "%s%s", head, tail), buf)
  BAD_TEXT(WITH(".run d\n"), 7, "a data segment (expected an insn segment)");
  BAD_TEXT(WITH(".run p 3\n"), 7, "holds only 2");
  BAD_TEXT(WITH(".run q\n"), 7, "'q', which is not defined");
  BAD_TEXT(WITH(".expect d[15] { 00 00 }\n"), 7, "beyond the end of the segment (16 bytes)");
  BAD_TEXT(WITH("\n.expect d[0:17] sha256 "
                "0000000000000000000000000000000000000000000000000000000000000000\n"),
           8, "[0, 17) of 'd' goes beyond the end");
  BAD_TEXT(WITH(".expect d[16] sha256 "
                "0000000000000000000000000000000000000000000000000000000000000000\n"),
           7, "at or beyond the end of segment 'd'");
  BAD_TEXT(WITH(".expect q { 00 }\n"), 7, "'q', which is not defined");
  BAD_TEXT(WITH(".expect q sha256 "
                "0000000000000000000000000000000000000000000000000000000000000000\n"),
           7, "'q', which is not defined");
  BAD_TEXT(WITH(".expect d[0:4] { 00 01 02 }\n"), 7, "is 4 bytes, but 3 bytes are given");
  BAD_TEXT(WITH(".expect d[4:4] { 00 }\n"), 7, "is empty");
  BAD_TEXT(WITH(".expect d[4 { 00 }\n"), 7, "bad region 'd[4'");
  BAD_TEXT(WITH(".expect d[x] { 00 }\n"), 7, "bad region");
  BAD_TEXT(WITH(".expect d sha256 1234\n"), 7, "64 hex digits");
  BAD_TEXT(WITH(".expect d sha256 "
                "000000000000000000000000000000000000000000000000000000000000000g\n"),
           7, "expected 64 hex digits");
  BAD_TEXT(WITH(".expect d {\n}\n"), 7, "covers no bytes");
  BAD_TEXT(WITH(".expect d\n"), 7, "expected '.expect SEGMENT[OFF] {'");
  BAD_TEXT(WITH(".expect d md5 00\n"), 7, "expected '{', 'file' or 'sha256'");
  BAD_TEXT_KIND(WITH(".expect d file nothing.bin\n"), 7, "cannot open", VTA_EIO);
#undef WITH
}

/* Lines of any length: no fixed line buffer truncates them. */
static void test_long_lines(void) {
  size_t digits = 200000;
  char *text = malloc(digits + 8192);
  int n = sprintf(text, ".version 1\n.meta long ");
  memset(text + n, 'x', 5000);
  n += 5000;
  n += sprintf(text + n, "\n.data big auto {\n  ");
  for (size_t i = 0; i < digits; i++) text[n + i] = "0123456789abcdef"[i % 16];
  n += (int)digits;
  sprintf(text + n, "\n}\n");
  vta_program_t p;
  vta_err e;
  CHECK_MSG(parse(&p, text, &e) == 0, "%s", e.msg);
  CHECK(p.nmeta == 1 && strlen(p.meta[0].value) == 5000);
  CHECK(p.nsegs == 1 && p.segs[0].size == digits / 2 && p.segs[0].data[1] == 0x23 &&
        p.segs[0].data[digits / 2 - 1] == 0xef);
  vta_program_free(&p);
  /* an instruction line beyond the instruction parser's limit is an error */
  n = sprintf(text, ".version 1\n.insn p auto {\n  FINISH\n  LOAD INP sram_base=");
  memset(text + n, '0', 3000);
  sprintf(text + n + 3000, "1\n}\n");
  BAD_TEXT(text, 4, "longer than");
  /* and so is a hex run with a bad digit far into it, shown shortened */
  n = sprintf(text, ".version 1\n.data a auto {\n");
  memset(text + n, 'a', 4000);
  sprintf(text + n + 4000, "q\n}\n");
  BAD_TEXT(text, 3, "...");
  free(text);
}

/* ---- building in code and validation -------------------------------------- */

static void test_build_in_code(void) {
  vta_program_t p;
  vta_err e;
  vta_program_init(&p);
  uint8_t insns[32] = {0};
  insns[0] = 0; /* LOAD UOP with x_size 0: a NOP */
  insns[16] = 3; /* FINISH */
  CHECK(vta_program_add_segment(&p, "data", VTA_SEG_DATA, 0, NULL, 100, &e) != NULL);
  vta_segment_t *s = vta_program_add_segment(&p, "prog", VTA_SEG_INSN, 0, insns, 32, &e);
  CHECK(s && s->addr == 0x2000 && s->data != insns && s->data[16] == 3);
  CHECK(vta_program_add_run(&p, "prog", 0, &e) == 0);
  CHECK(vta_program_add_run(&p, "prog", 2, &e) == 0);
  uint8_t sha[32] = {1};
  CHECK(vta_program_add_expect_bytes(&p, "data", 96, "abcd", 4, &e) == 0);
  CHECK(vta_program_add_expect_sha256(&p, "data", 0, 100, sha, &e) == 0);
  CHECK(vta_program_add_expect_counter(&p, "gemm_counter", 7, &e) == 0);
  CHECK(vta_program_add_meta(&p, "k", "v w", &e) == 0);
  CHECK_MSG(vta_program_validate(&p, &e) == 0, "%s", e.msg);
  round_trip(&p);

  /* add-time refusals */
  CHECK(!vta_program_add_segment(&p, "x", VTA_SEG_DATA, 0x2010, NULL, 4, &e));
  CHECK_CONTAINS(e.msg, "overlaps segment 'prog'");
  CHECK(!vta_program_add_segment(&p, "data", VTA_SEG_DATA, 0, NULL, 4, &e));
  CHECK_CONTAINS(e.msg, "duplicate segment name 'data'");
  CHECK(!vta_program_add_segment(&p, "x", VTA_SEG_INSN, 0x9008, NULL, 16, &e));
  CHECK_CONTAINS(e.msg, "not 16-byte aligned");
  CHECK(!vta_program_add_segment(&p, "x", VTA_SEG_UOP, 0x9000, NULL, 6, &e));
  CHECK_CONTAINS(e.msg, "not a multiple of 4");
  CHECK(!vta_program_add_segment(&p, "x", VTA_SEG_DATA, 0, NULL, 0, &e));
  CHECK_CONTAINS(e.msg, "is empty");
  CHECK(!vta_program_add_segment(&p, "x", VTA_SEG_DATA, 0, NULL, (1u << 30) + 1, &e));
  CHECK_CONTAINS(e.msg, "1 GiB");
  CHECK(vta_program_add_expect_bytes(&p, "data", 0, "", 0, &e) == -1);
  CHECK_CONTAINS(e.msg, "covers no bytes");
  CHECK(vta_program_add_meta(&p, "k", " padded", &e) == -1);
  CHECK(vta_program_add_meta(&p, "k", "a # b", &e) == -1);
  CHECK(vta_program_add_meta(&p, "k", "two\nlines", &e) == -1);
  CHECK(vta_program_add_run(&p, "bad name", 1, &e) == -1);
  CHECK_EQ(p.nsegs, 2);

  /* validate-time refusals, each undone after its check */
  CHECK(vta_program_add_run(&p, "prog", 3, &e) == 0);
  CHECK(vta_program_validate(&p, &e) == -1);
  CHECK_CONTAINS(e.msg, "run 3 of 3 instructions, but segment 'prog' holds only 2");
  p.runs[2].count = 1;
  snprintf(p.runs[2].segment, sizeof p.runs[2].segment, "data");
  CHECK(vta_program_validate(&p, &e) == -1);
  CHECK_CONTAINS(e.msg, "a data segment");
  p.nruns = 2;
  p.expects[0].offset = 97;
  CHECK(vta_program_validate(&p, &e) == -1);
  CHECK_CONTAINS(e.msg, "[97, 101) of 'data' goes beyond the end");
  p.expects[0].offset = 96;
  s = vta_program_find(&p, "prog");
  s->data[16] = 7; /* opcode 7 */
  CHECK(vta_program_validate(&p, &e) == -1);
  CHECK_CONTAINS(e.msg, "segment 'prog' instruction 1 (byte offset 0x10): unknown opcode 7");
  char *t = NULL; /* nothing invalid is written */
  size_t tn = 0;
  FILE *f = open_memstream(&t, &tn);
  CHECK(vta_program_write_text(&p, f, &e) == -1);
  fclose(f);
  CHECK_EQ(tn, 0);
  free(t);
  s->data[16] = 3;
  p.cfg.log_block = 5;
  CHECK(vta_program_validate(&p, &e) == -1);
  CHECK_CONTAINS(e.msg, "stale");
  CHECK(vta_config_derive(&p.cfg, &e) == 0);
  CHECK(vta_program_validate(&p, &e) == 0);
  s = vta_program_find(&p, "data");
  s->addr = 0x2010; /* moved onto prog behind the API's back */
  CHECK(vta_program_validate(&p, &e) == -1);
  CHECK_CONTAINS(e.msg, "overlaps");
  vta_program_free(&p);
}

/* ---- the binary container ------------------------------------------------- */

static uint8_t *sample_binary(size_t *n) {
  vta_program_t p;
  if (load_sample(&p)) return NULL;
  uint8_t *b = binary_of(&p, n);
  vta_program_free(&p);
  return b;
}

/* Read an exact-size copy, so that ASan sees any read past the end. */
static int read_copy(const uint8_t *d, size_t n, vta_err *e) {
  uint8_t *copy = malloc(n ? n : 1);
  memcpy(copy, d, n);
  vta_program_t p;
  int rc = vta_program_read_binary(&p, copy, n, "t.bin", e);
  vta_program_free(&p);
  free(copy);
  return rc;
}

/* The END record of a current (version 2) container: 8 header bytes and
 * the 16-byte XXH3-128 of everything before it. */
#define END_BYTES 24
static void reseal(uint8_t *d, size_t n) { vta_xxh128(d, n - END_BYTES, d + n - 16); }

static void test_binary_layout(void) {
  size_t n;
  uint8_t *b = sample_binary(&n);
  if (!b) {
    CHECK(0);
    return;
  }
  CHECK(!memcmp(b, "VTASIMB\0", 8));
  CHECK(b[8] == 2 && b[9] == 0 && b[10] == 0 && b[11] == 0); /* version 2 */
  CHECK(b[12] == 1 && b[13] == 0); /* CONFIG first */
  CHECK(b[16] == 9 * 4 + 2 + 3 + 2 + 5 && b[20] == 3); /* its length; LOG_INP_WIDTH */
  CHECK(b[n - 24] == 0 && b[n - 20] == 16); /* END, 16 bytes */
  uint8_t sum[16];
  vta_xxh128(b, n - 24, sum);
  CHECK(!memcmp(sum, b + n - 16, 16));
  CHECK(vta_program_is_binary(b, n) && !vta_program_is_binary(b, 7));
  /* a zero-filled segment stores no bytes */
  vta_program_t p;
  vta_err e;
  vta_program_init(&p);
  vta_program_add_segment(&p, "z", VTA_SEG_DATA, 0, NULL, 1u << 20, &e);
  size_t zn;
  uint8_t *z = binary_of(&p, &zn);
  CHECK(z && zn < 200);
  free(z);
  vta_program_free(&p);
  free(b);
}

static void test_binary_load_file(void) {
  size_t n;
  uint8_t *b = sample_binary(&n);
  if (!b) {
    CHECK(0);
    return;
  }
  write_file("s.bin", b, n);
  vta_program_t p, q;
  vta_err e;
  CHECK_MSG(vta_program_load(&p, tmp_path("s.bin"), &e) == 0, "%s", e.msg);
  CHECK(load_sample(&q) == 0);
  char why[256] = "";
  CHECK_MSG(vta_program_equal(&p, &q, why, sizeof why), "%s", why);
  CHECK(p.source && strstr(p.source, "s.bin"));
  FILE *f = fopen(tmp_path("s2.bin"), "wb");
  CHECK(f && vta_program_write_binary(&p, f, &e) == 0);
  if (f) fclose(f);
  vta_program_free(&q);
  CHECK(vta_program_load(&q, tmp_path("s2.bin"), &e) == 0);
  CHECK(vta_program_equal(&p, &q, NULL, 0));
  vta_program_free(&p);
  vta_program_free(&q);
  free(b);
}

/* A large segment (its buffer takes the huge-page path) comes back byte for
 * byte through a file, and a flipped byte deep inside it is caught. */
static void test_binary_large_segment(void) {
  enum { SIZE = 5u << 20 };
  uint8_t *d = malloc(SIZE);
  CHECK(d != NULL);
  if (!d) return;
  for (uint32_t i = 0; i < SIZE; i++) d[i] = (uint8_t)(i * 2654435761u >> 24);
  vta_program_t p, q;
  vta_err e;
  vta_program_init(&p);
  vta_segment_t *seg = vta_program_add_segment(&p, "big", VTA_SEG_DATA, 0x1000, d, SIZE, &e);
  CHECK_MSG(seg != NULL, "%s", e.msg);
  size_t n;
  uint8_t *b = binary_of(&p, &n);
  CHECK(b != NULL && n > SIZE);
  if (b) {
    write_file("big.vtb", b, n);
    CHECK_MSG(vta_program_load(&q, tmp_path("big.vtb"), &e) == 0, "%s", e.msg);
    CHECK(q.nsegs == 1 && q.segs[0].size == SIZE && !memcmp(q.segs[0].data, d, SIZE));
    vta_program_free(&q);
    b[12 + SIZE / 2 + 100] ^= 0x04; /* inside the segment's bytes */
    write_file("big.vtb", b, n);
    CHECK(vta_program_load(&q, tmp_path("big.vtb"), &e) == -1);
    CHECK_CONTAINS(e.msg, "big.vtb: byte offset ");
    CHECK_CONTAINS(e.msg, ": checksum mismatch: the XXH3-128 in the END record");
    free(b);
  }
  vta_program_free(&p);
  free(d);
}

static void test_binary_truncated(void) {
  size_t n;
  uint8_t *b = sample_binary(&n);
  if (!b) {
    CHECK(0);
    return;
  }
  vta_err e;
  int failures = 0, offsets = 0;
  for (size_t len = 0; len < n; len++) {
    int rc = read_copy(b, len, &e);
    failures += rc == -1 && e.kind == VTA_EINPUT && !strncmp(e.msg, "t.bin: byte offset ", 19);
    offsets += strstr(e.msg, "truncated") != NULL;
    if (rc != -1 || strncmp(e.msg, "t.bin: byte offset ", 19))
      printf("  prefix %zu: rc %d: %s\n", len, rc, rc ? e.msg : "(accepted)");
  }
  CHECK_EQ(failures, n);
  CHECK_EQ(offsets, n);
  CHECK(read_copy(b, n, &e) == 0);
  read_copy(b, 30, &e);
  CHECK_CONTAINS(e.msg, "t.bin: byte offset 16: truncated: the CONFIG record declares 48 "
                        "payload bytes but only 10 remain");
  read_copy(b, 12, &e);
  CHECK_CONTAINS(e.msg, "byte offset 12: truncated: expected another record");
  read_copy(b, 5, &e);
  CHECK_CONTAINS(e.msg, "expected the 8-byte magic");
  free(b);
}

static void test_binary_flipped(void) {
  size_t n;
  uint8_t *b = sample_binary(&n);
  if (!b) {
    CHECK(0);
    return;
  }
  static const uint8_t masks[] = {0x01, 0x80, 0xff};
  vta_err e;
  int clean = 0, total = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t m = 0; m < sizeof masks; m++) {
      b[i] ^= masks[m];
      int rc = read_copy(b, n, &e);
      b[i] ^= masks[m];
      total++;
      clean += rc == -1 && e.kind == VTA_EINPUT && !strncmp(e.msg, "t.bin: ", 7);
    }
  CHECK_EQ(clean, total); /* the checksum catches every single corruption */
  b[100] ^= 1;
  read_copy(b, n, &e);
  CHECK_CONTAINS(e.msg, "checksum mismatch");
  free(b);
}

/* Corruptions with a valid checksum reach the record decoder: whatever they
 * do, the reader must fail cleanly or return a program that validates. */
static void test_binary_resealed(void) {
  size_t n;
  uint8_t *b = sample_binary(&n);
  if (!b) {
    CHECK(0);
    return;
  }
  static const uint8_t masks[] = {0x01, 0x02, 0x10, 0x80, 0xff};
  vta_err e;
  int bad = 0, ok = 0;
  for (size_t i = 12; i < n - END_BYTES; i++)
    for (size_t m = 0; m < sizeof masks; m++) {
      b[i] ^= masks[m];
      reseal(b, n);
      int rc = read_copy(b, n, &e);
      b[i] ^= masks[m];
      if (rc == 0) {
        ok++;
      } else if (e.kind == VTA_EINPUT && !strncmp(e.msg, "t.bin: ", 7)) {
        bad++;
      } else {
        printf("  byte %zu ^ 0x%02x: kind %d: %s\n", i, masks[m], e.kind, e.msg);
      }
    }
  CHECK(ok > 0 && bad > 0);
  CHECK_EQ(ok + bad, (int)((n - 12 - END_BYTES) * sizeof masks));
  reseal(b, n);
  CHECK(read_copy(b, n, &e) == 0);
  free(b);
}

/* Hand-made containers for the cases a flip rarely reaches. */
typedef struct {
  uint8_t d[512];
  size_t n;
} mk_t;

static void mk_u32(mk_t *m, uint32_t v) {
  put_le(m->d + m->n, v, 4);
  m->n += 4;
}

static void mk_str(mk_t *m, const char *s) {
  put_le(m->d + m->n, strlen(s), 2);
  memcpy(m->d + m->n + 2, s, strlen(s));
  m->n += 2 + strlen(s);
}

static void mk_header(mk_t *m, uint32_t version) {
  memcpy(m->d, "VTASIMB", 8);
  m->n = 8;
  mk_u32(m, version);
  static const uint32_t cfg[9] = {3, 3, 5, 0, 4, 15, 15, 18, 17};
  mk_u32(m, 1);
  mk_u32(m, 9 * 4 + 5 + 7);
  for (int i = 0; i < 9; i++) mk_u32(m, cfg[i]);
  mk_str(m, "sim");
  mk_str(m, "0.0.2");
}

/* An END record with a SHA-256 (v1) or an XXH3-128; mk_end: the one the
 * header's version calls for. */
static void mk_end_as(mk_t *m, int v1) {
  mk_u32(m, 0);
  mk_u32(m, v1 ? 32 : 16);
  if (v1) vta_sha256(m->d, m->n - 8, m->d + m->n);
  else vta_xxh128(m->d, m->n - 8, m->d + m->n);
  m->n += v1 ? 32 : 16;
}

static void mk_end(mk_t *m) { mk_end_as(m, m->d[8] == 1); }

static void bad_binary_(int at, const mk_t *m, const char *phrase) {
  vta_err e;
  int rc = read_copy(m->d, m->n, &e);
  check_error_(at, rc, &e, "t.bin: ", phrase, VTA_EINPUT);
}
#define BAD_BINARY(m, phrase) bad_binary_(__LINE__, m, phrase)

static void test_binary_crafted(void) {
  mk_t m;
  vta_err e;
  mk_header(&m, 2);
  mk_end(&m);
  CHECK_MSG(read_copy(m.d, m.n, &e) == 0, "%s", e.msg); /* the empty program */
  m.d[m.n - 1] ^= 0x40;
  BAD_BINARY(&m, "checksum mismatch: the XXH3-128 in the END record");

  /* version 1 (SHA-256 in END) is still read */
  mk_header(&m, 1);
  mk_end(&m);
  CHECK_MSG(read_copy(m.d, m.n, &e) == 0, "%s", e.msg);
  CHECK(m.n == 12 + 8 + 48 + 40);
  m.d[20] ^= 0x01; /* inside CONFIG: a changed LOG_INP_WIDTH */
  BAD_BINARY(&m, "byte offset 76: checksum mismatch: the SHA-256 in the END record does not "
                 "match the bytes before it (the file is corrupted)");
  mk_header(&m, 1); /* a version 1 container with a version 2 END record */
  mk_end_as(&m, 0);
  BAD_BINARY(&m, "byte offset 72: the END record of a version 1 container must hold a "
                 "32-byte SHA-256, not 16 bytes");
  mk_header(&m, 2); /* and the other way round */
  mk_end_as(&m, 1);
  BAD_BINARY(&m, "the END record of a version 2 container must hold a 16-byte XXH3-128, "
                 "not 32 bytes");

  mk_header(&m, 3);
  mk_end(&m);
  BAD_BINARY(&m, "byte offset 8: format version 3 is not supported: this vtasim reads "
                 "versions 1 to 2 (a newer vtasim wrote it)");
  mk_header(&m, 0);
  mk_end(&m);
  BAD_BINARY(&m, "format version 0");

  mk_header(&m, 2);
  m.d[0] = 'X';
  BAD_BINARY(&m, "byte offset 0: expected the magic");

  mk_header(&m, 2);
  size_t rec = m.n;
  mk_u32(&m, 9);
  mk_u32(&m, 0);
  mk_end(&m);
  char want[80];
  snprintf(want, sizeof want, "byte offset %zu: unknown record type 9", rec);
  BAD_BINARY(&m, want);

  mk_header(&m, 2);
  mk_end(&m);
  m.d[m.n++] = 0;
  BAD_BINARY(&m, "1 unexpected bytes after the END record");

  m.n = 0; /* no CONFIG first */
  memcpy(m.d, "VTASIMB", 8);
  m.n = 8;
  mk_u32(&m, 2);
  mk_end(&m);
  BAD_BINARY(&m, "expected the CONFIG record first, found END");

  mk_header(&m, 2); /* two CONFIG records */
  memcpy(m.d + m.n, m.d + 12, 56);
  m.n += 56;
  mk_end(&m);
  BAD_BINARY(&m, "a second CONFIG record");

  mk_header(&m, 2); /* a huge zero-filled segment is refused before allocation */
  mk_u32(&m, 3);
  mk_u32(&m, 16 + 3);
  mk_u32(&m, VTA_SEG_DATA);
  mk_u32(&m, 0x1000);
  mk_u32(&m, 0x7fffffff);
  mk_u32(&m, 1);
  mk_str(&m, "z");
  mk_end(&m);
  BAD_BINARY(&m, "more than the 1 GiB limit");

  mk_header(&m, 2); /* a segment claiming more bytes than its record holds */
  mk_u32(&m, 3);
  mk_u32(&m, 16 + 3 + 2);
  mk_u32(&m, VTA_SEG_DATA);
  mk_u32(&m, 0x1000);
  mk_u32(&m, 1000);
  mk_u32(&m, 0);
  mk_str(&m, "d");
  m.d[m.n++] = 1;
  m.d[m.n++] = 2;
  mk_end(&m);
  BAD_BINARY(&m, "the SEGMENT record ends before its segment bytes (expected 1000 bytes, 2 left)");

  mk_header(&m, 2); /* a name longer than a record allows */
  mk_u32(&m, 4);
  mk_u32(&m, 4 + 2);
  mk_u32(&m, 0);
  put_le(m.d + m.n, 300, 2);
  m.n += 2;
  mk_end(&m);
  BAD_BINARY(&m, "run segment is 300 bytes, at most 63 allowed");

  mk_header(&m, 2); /* unknown segment flags */
  mk_u32(&m, 3);
  mk_u32(&m, 16 + 3);
  mk_u32(&m, VTA_SEG_DATA);
  mk_u32(&m, 0x1000);
  mk_u32(&m, 4);
  mk_u32(&m, 6);
  mk_str(&m, "z");
  mk_end(&m);
  BAD_BINARY(&m, "unknown segment flags 0x6");

  mk_header(&m, 2); /* validation runs last: a run of a missing segment */
  mk_u32(&m, 4);
  mk_u32(&m, 4 + 3);
  mk_u32(&m, 0);
  mk_str(&m, "p");
  mk_end(&m);
  BAD_BINARY(&m, "t.bin: run 1 names segment 'p', which is not defined");

  mk_header(&m, 2); /* a bad configuration value */
  put_le(m.d + 20 + 16, 9, 4); /* LOG_BLOCK */
  mk_end(&m);
  BAD_BINARY(&m, "LOG_BLOCK = 9");
}

/* ---- raw disassembly ------------------------------------------------------ */

static char *disasm(int insns, const vta_config_t *cfg, const uint8_t *d, size_t n,
                    vta_err *e, int *rc) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  *rc = insns ? vta_disasm_insns(cfg, d, n, f, "raw.bin", e)
              : vta_disasm_uops(cfg, d, n, f, "raw.bin", e);
  fclose(f);
  return buf;
}

static void test_disasm(void) {
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_err e;
  int rc;
  uint8_t d[48] = {0};
  words_to_bytes(0ull | 2ull << 7 | (0x100ull << 26), 1ull | 16ull << 16 | 16ull << 32, d);
  d[16] = 3;
  char *out = disasm(1, &cfg, d, 32, &e, &rc);
  CHECK_EQ(rc, 0);
  CHECK(out && strstr(out, "LOAD INP sram_base=0 dram_base=256 y_size=1 x_size=16 x_stride=16 "
                           "y_pad_0=0 y_pad_1=0 x_pad_0=0 x_pad_1=0  # 0\n"));
  CHECK(out && strstr(out, "\nFINISH ") && strstr(out, "# 1\n"));
  free(out);

  out = disasm(1, &cfg, d, 33, &e, &rc);
  CHECK(rc == -1 && out && !*out);
  CHECK_CONTAINS(e.msg, "raw.bin: 33 bytes is not a whole number of 16-byte instructions "
                        "(1 trailing byte)");
  free(out);
  out = disasm(1, &cfg, d, 47, &e, &rc);
  CHECK_CONTAINS(e.msg, "(15 trailing bytes)");
  free(out);

  d[32] = 7; /* opcode 7 at index 2 */
  out = disasm(1, &cfg, d, 48, &e, &rc);
  CHECK(rc == -1 && out && !*out); /* nothing half-written */
  CHECK_CONTAINS(e.msg, "raw.bin: instruction 2 at byte offset 0x20: unknown opcode 7");
  CHECK_EQ(e.kind, VTA_EINPUT);
  free(out);
  d[32] = 3;
  d[40] = 1; /* FINISH with an operand bit */
  out = disasm(1, &cfg, d, 48, &e, &rc);
  CHECK_CONTAINS(e.msg,
                 "instruction 2 at byte offset 0x20: FINISH instruction has reserved bit 64");
  free(out);

  uint8_t u[8];
  put_le(u, 5u | 6u << 11 | 7u << 22, 4);
  put_le(u + 4, 0xffffffffu, 4);
  out = disasm(0, &cfg, u, 8, &e, &rc);
  CHECK(rc == 0 && out && !strncmp(out, "dst=5 src=6 wgt=7           # 0\n", 32) &&
        strstr(out, "\ndst=2047 src=2047 wgt=1023  # 1\n"));
  free(out);
  out = disasm(0, &cfg, u, 6, &e, &rc);
  CHECK_CONTAINS(e.msg, "raw.bin: 6 bytes is not a whole number of 4-byte micro-ops "
                        "(2 trailing bytes)");
  free(out);
  /* a smaller weight buffer leaves the top uop bit reserved */
  CHECK(vta_config_set(&cfg, "LOG_WGT_BUFF_SIZE", 17, &e) == 0 && vta_config_derive(&cfg, &e) == 0);
  out = disasm(0, &cfg, u, 8, &e, &rc);
  CHECK(rc == -1);
  CHECK_CONTAINS(e.msg, "raw.bin: micro-op 1 at byte offset 0x4: uop 0xffffffff has reserved bits");
  free(out);
}

static const char *hex_of(const uint8_t *d, size_t n) {
  static char hex[2 * 64 + 1];
  for (size_t i = 0; i < n; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
  return hex;
}

/* Known answers: SHA-256 from FIPS 180-2 (appendix B: one block, two
 * blocks, a million 'a'; and the empty message), XXH3-128 from xxHash's
 * published sanity vectors (the canonical form `xxhsum -H2` prints). */
static void test_digests(void) {
  static const struct {
    const char *msg;
    const char *sha256;
  } kat[] = {
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
  };
  uint8_t d[32];
  for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
    vta_sha256(kat[i].msg, strlen(kat[i].msg), d);
    CHECK_MSG(!strcmp(hex_of(d, 32), kat[i].sha256), "sha256(\"%s\") = %s", kat[i].msg,
              hex_of(d, 32));
  }
  char *million = malloc(1000000);
  CHECK(million != NULL);
  if (million) {
    memset(million, 'a', 1000000);
    vta_sha256(million, 1000000, d);
    CHECK(!strcmp(hex_of(d, 32),
                  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    free(million);
  }
  vta_xxh128("", 0, d);
  CHECK(!strcmp(hex_of(d, 16), "99aa06d3014798d86001c324468d497f"));
  vta_xxh128("abc", 3, d);
  CHECK(!strcmp(hex_of(d, 16), "06b05ab6733a618578af5f94892f3950"));
}

/* The example of docs/trace-format.md parses and round-trips. */
static void test_doc_example(void) {
  const char *paths[] = {"docs/trace-format.md", "../docs/trace-format.md",
                         "../../docs/trace-format.md"};
  uint8_t *md = NULL;
  for (size_t i = 0; i < 3 && !md; i++) {
    FILE *f = fopen(paths[i], "rb");
    if (!f) continue;
    md = calloc(1, 1 << 20);
    size_t n = fread(md, 1, (1 << 20) - 1, f);
    md[n] = 0;
    fclose(f);
  }
  if (!md) {
    printf("  docs/trace-format.md not found from the working directory; skipped\n");
    return;
  }
  const char *start = strstr((char *)md, "```vta\n");
  CHECK(start != NULL);
  if (start) {
    start += 7;
    const char *end = strstr(start, "```");
    vta_program_t p;
    vta_err e;
    CHECK(end && vta_program_parse(&p, start, (size_t)(end - start), "example.vta", &e) == 0);
    if (end && p.nsegs) {
      CHECK(p.nruns == 1 && p.nexpects >= 2);
      round_trip(&p);
    } else {
      printf("  %s\n", e.msg);
    }
    vta_program_free(&p);
  }
  free(md);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/vtasim_test_program_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(test_sample_directives);
  RUN(test_encoding_by_hand);
  RUN(test_round_trip_sample);
  RUN(test_round_trip_config);
  RUN(test_canonical_form);
  RUN(test_auto_addresses);
  RUN(test_symbols);
  RUN(test_errors_structure);
  RUN(test_errors_segments);
  RUN(test_errors_bytes);
  RUN(test_errors_config);
  RUN(test_errors_items);
  RUN(test_errors_runs_expects);
  RUN(test_long_lines);
  RUN(test_build_in_code);
  RUN(test_binary_layout);
  RUN(test_binary_load_file);
  RUN(test_binary_large_segment);
  RUN(test_binary_truncated);
  RUN(test_binary_flipped);
  RUN(test_binary_resealed);
  RUN(test_binary_crafted);
  RUN(test_disasm);
  RUN(test_digests);
  RUN(test_doc_example);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) printf("  could not remove %s\n", tmpdir);
  return TEST_SUMMARY();
}
