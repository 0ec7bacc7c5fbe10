/*
 * tests/cli/net_ref.c MANIFEST OUT - the naive reference of a network
 * manifest (docs/network.md), written for the test and sharing nothing with
 * compiler-lite or the simulator: it reads the raw input, weights and biases
 * the manifest lists and computes every layer with plain loops on NCHW
 * tensors (zero padding, int32 accumulation, bias, optional rounding,
 * arithmetic shift right, + residual, clip, low 8 bits) and the `add` lines
 * (a + b, clip), then writes the last layer's output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 64
typedef struct { char name[64]; int c, h, w; int8_t *d; } tensor;
static tensor t[MAXT];
static int nt;
static char dir[4096];

static void *slurp(const char *name, size_t want) {
  char p[8400];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "rb");
  if (!f) { fprintf(stderr, "net_ref: cannot open %s\n", p); exit(2); }
  void *b = malloc(want);
  if (!b || fread(b, 1, want, f) != want) { fprintf(stderr, "net_ref: %s is short\n", p); exit(2); }
  fclose(f);
  return b;
}

static tensor *find(const char *name) {
  for (int i = 0; i < nt; i++)
    if (!strcmp(t[i].name, name)) return &t[i];
  fprintf(stderr, "net_ref: no tensor %s\n", name);
  exit(2);
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: net_ref MANIFEST OUT\n"); return 2; }
  snprintf(dir, sizeof dir, "%s", argv[1]);
  char *sl = strrchr(dir, '/');
  if (sl) *sl = 0; else strcpy(dir, ".");
  FILE *m = fopen(argv[1], "r");
  if (!m) return 2;
  char line[2048];
  while (fgets(line, sizeof line, m)) {
    char kw[16], a[256];
    int n, c, h, w;
    if (sscanf(line, "%15s", kw) != 1 || kw[0] == '#') continue;
    if (!strcmp(kw, "input") && sscanf(line, "input %255s %d %d %d %d", a, &n, &c, &h, &w) == 5) {
      if (n != 1) { fprintf(stderr, "net_ref: batch 1 only\n"); return 2; }
      t[nt] = (tensor){"input", c, h, w, slurp(a, (size_t)c * h * w)};
      nt++;
    } else if (!strcmp(kw, "add")) {
      char name[64], bundle[256], an[64], bn[64];
      int C, H, W, LO, HI;
      if (sscanf(line, "add %63s %255s %63s %63s %d %d %d %d %d", name, bundle, an, bn, &C, &H,
                 &W, &LO, &HI) != 9) { fprintf(stderr, "net_ref: bad add line\n"); return 2; }
      tensor *a = find(an), *b = find(bn);
      size_t len = (size_t)C * H * W;
      int8_t *y = malloc(len);
      for (size_t i = 0; i < len; i++) {
        int v = a->d[i] + b->d[i];
        y[i] = (int8_t)(v < LO ? LO : v > HI ? HI : v);
      }
      snprintf(t[nt].name, sizeof t[nt].name, "%s", name);
      t[nt].c = C; t[nt].h = H; t[nt].w = W; t[nt].d = y;
      nt++;
    } else if (!strcmp(kw, "layer")) {
      char name[64], bundle[256], in[64], res[64], wf[256], bf[256];
      int C, H, W, O, KH, KW, P, S, SH, LO, HI, RND;
      if (sscanf(line, "layer %63s %255s %63s %63s %255s %255s %d %d %d %d %d %d %d %d %d %d %d %d",
                 name, bundle, in, res, wf, bf, &C, &H, &W, &O, &KH, &KW, &P, &S, &SH, &LO,
                 &HI, &RND) != 18) { fprintf(stderr, "net_ref: bad layer line\n"); return 2; }
      tensor *x = find(in), *r = strcmp(res, "-") ? find(res) : NULL;
      int OH = (H + 2 * P - KH) / S + 1, OW = (W + 2 * P - KW) / S + 1;
      int8_t *k = slurp(wf, (size_t)O * C * KH * KW);
      uint8_t *bb = slurp(bf, (size_t)O * 4);
      int8_t *y = malloc((size_t)O * OH * OW);
      for (int o = 0; o < O; o++) {
        int32_t bias = (int32_t)((uint32_t)bb[4 * o] | (uint32_t)bb[4 * o + 1] << 8 |
                                 (uint32_t)bb[4 * o + 2] << 16 | (uint32_t)bb[4 * o + 3] << 24);
        for (int oy = 0; oy < OH; oy++)
          for (int ox = 0; ox < OW; ox++) {
            int64_t acc = 0; /* the sums stay far below 2^31 here; checked below */
            for (int ci = 0; ci < C; ci++)
              for (int dy = 0; dy < KH; dy++)
                for (int dx = 0; dx < KW; dx++) {
                  int iy = oy * S + dy - P, ix = ox * S + dx - P;
                  if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                    acc += (int64_t)x->d[((size_t)ci * H + iy) * W + ix] *
                           k[(((size_t)o * C + ci) * KH + dy) * KW + dx];
                }
            acc += bias;
            if (RND && SH > 0) acc += (int64_t)1 << (SH - 1);
            if (acc > INT32_MAX || acc < INT32_MIN) { fprintf(stderr, "net_ref: overflow\n"); return 2; }
            int64_t v = acc >= 0 ? acc >> SH : -((-acc + (1 << SH) - 1) >> SH); /* floor */
            if (r) v += r->d[((size_t)o * OH + oy) * OW + ox];
            if (v < LO) v = LO;
            if (v > HI) v = HI;
            y[((size_t)o * OH + oy) * OW + ox] = (int8_t)v;
          }
      }
      free(k);
      free(bb);
      snprintf(t[nt].name, sizeof t[nt].name, "%s", name);
      t[nt].c = O; t[nt].h = OH; t[nt].w = OW; t[nt].d = y;
      nt++;
    }
  }
  fclose(m);
  if (!nt) return 2;
  tensor *last = &t[nt - 1];
  FILE *o = fopen(argv[2], "wb");
  if (!o || fwrite(last->d, 1, (size_t)last->c * last->h * last->w, o) != (size_t)last->c * last->h * last->w)
    return 2;
  fclose(o);
  return 0;
}
