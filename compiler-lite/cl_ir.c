/*
 * cl_ir.c - the statement tree a schedule lowers to, and the TVM passes
 * that decide the instruction stream's shape, modelled on it:
 *
 *   LiftAttrScope("coproc_scope")  consecutive scopes of one stage merge;
 *   CoProcSync (CoProcInstDepDetector)  dep_push/dep_pop between scopes of
 *     different stages, loop-carried pairs, initial push / final pop;
 *   InjectVirtualThread  applied while running the tree: with "cthread",
 *     every coproc scope and every bare push/pop is replicated per thread;
 *   InjectDMAIntrin's 2-D pattern detection (cl_dma_2d).
 *
 * CoProcSync runs before InjectVirtualThread in TVM, so the sync pass sees
 * a single thread and the replication happens afterwards, as here.
 */
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

/* ---- tree ---------------------------------------------------------------- */

static int list_add(cl_list_t *l, cl_node_t *n) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 4;
    cl_node_t **v = realloc(l->v, (size_t)cap * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = n;
  return 0;
}

static int list_insert0(cl_list_t *l, cl_node_t *n) {
  if (list_add(l, n)) return -1;
  memmove(&l->v[1], &l->v[0], (size_t)(l->n - 1) * sizeof *l->v);
  l->v[0] = n;
  return 0;
}

cl_node_t *cl_ir_node(cl_ir_t *ir, cl_kind_t kind, int a, int b) {
  if (ir->oom) return NULL;
  cl_node_t *n = calloc(1, sizeof *n);
  if (!n || ir->n == ir->cap) {
    int cap = ir->cap ? ir->cap * 2 : 64;
    cl_node_t **v = n ? realloc(ir->all, (size_t)cap * sizeof *v) : NULL;
    if (!v) {
      free(n);
      ir->oom = 1;
      return NULL;
    }
    ir->all = v;
    ir->cap = cap;
  }
  ir->all[ir->n++] = n;
  n->kind = kind;
  n->a = a;
  n->b = b;
  return n;
}

void cl_ir_add(cl_ir_t *ir, cl_node_t *parent, cl_node_t *kid) {
  if (!parent || !kid || list_add(&parent->kids, kid)) ir->oom = 1;
}

cl_node_t *cl_ir_loop(cl_ir_t *ir, int var, int extent, cl_node_t *body) {
  if (extent <= 1) return body;
  cl_node_t *f = cl_ir_node(ir, CL_FOR, var, extent);
  cl_ir_add(ir, f, body);
  return f;
}

cl_node_t *cl_ir_block(cl_ir_t *ir, int stage, int op) {
  cl_node_t *b = cl_ir_node(ir, CL_BLOCK, stage, 0);
  cl_node_t *body = cl_ir_node(ir, CL_SEQ, 0, 0);
  cl_ir_add(ir, body, cl_ir_node(ir, CL_OP, op, 0));
  cl_ir_add(ir, b, body);
  return b;
}

void cl_ir_free(cl_ir_t *ir) {
  for (int i = 0; i < ir->n; i++) {
    free(ir->all[i]->kids.v);
    free(ir->all[i]->pre.v);
    free(ir->all[i]->post.v);
    free(ir->all[i]);
  }
  free(ir->all);
  memset(ir, 0, sizeof *ir);
}

/* ---- LiftAttrScope("coproc_scope") -------------------------------------- */

/* Children of a sequence with nested sequences spliced in. */
static void flatten_into(cl_ir_t *ir, cl_list_t *out, const cl_node_t *seq) {
  for (int i = 0; i < seq->kids.n; i++) {
    cl_node_t *k = seq->kids.v[i];
    if (k->kind == CL_SEQ) flatten_into(ir, out, k);
    else if (list_add(out, k)) ir->oom = 1;
  }
}

void cl_ir_lift(cl_ir_t *ir, cl_node_t *n) {
  for (int i = 0; i < n->kids.n; i++) cl_ir_lift(ir, n->kids.v[i]);
  if (n->kind != CL_SEQ) return;
  cl_list_t flat = {0};
  flatten_into(ir, &flat, n);
  cl_list_t merged = {0};
  for (int i = 0; i < flat.n; i++) {
    cl_node_t *k = flat.v[i];
    cl_node_t *prev = merged.n ? merged.v[merged.n - 1] : NULL;
    if (prev && k->kind == CL_BLOCK && prev->kind == CL_BLOCK && prev->a == k->a) {
      /* one scope, bodies back to back */
      cl_node_t *body = cl_ir_node(ir, CL_SEQ, 0, 0);
      cl_ir_add(ir, body, prev->kids.v[0]);
      cl_ir_add(ir, body, k->kids.v[0]);
      cl_list_t ops = {0};
      if (body) flatten_into(ir, &ops, body);
      if (body) {
        free(body->kids.v);
        body->kids = ops;
      }
      prev->kids.v[0] = body;
      continue;
    }
    if (list_add(&merged, k)) ir->oom = 1;
  }
  free(flat.v);
  free(n->kids.v);
  n->kids = merged;
}

/* ---- CoProcSync ---------------------------------------------------------- */

typedef struct {
  int from, to;
} pair_t;

#define MAXP 8

typedef struct {
  cl_node_t *node;
  unsigned enter, exit; /* stage sets, bit s for stage s */
  pair_t pop[MAXP];     /* pops performed at entry, not matched inside */
  int npop;
  pair_t push[MAXP];    /* pushes performed at exit */
  int npush;
} state_t;

typedef struct {
  cl_ir_t *ir;
  state_t first, last, curr;
} sync_t;

static int has(const pair_t *v, int n, pair_t p) {
  for (int i = 0; i < n; i++)
    if (v[i].from == p.from && v[i].to == p.to) return 1;
  return 0;
}

static void addp(pair_t *v, int *n, pair_t p) {
  if (*n < MAXP) v[(*n)++] = p;
}

static void emit(sync_t *s, cl_list_t *where, cl_kind_t kind, pair_t p) {
  cl_node_t *n = cl_ir_node(s->ir, kind, p.from, p.to);
  if (!n || list_add(where, n)) s->ir->oom = 1;
}

/* InjectSync(prev, next): the push after prev and the pop before next that
 * order two consecutive scopes, reconciling pushes/pops they already carry. */
static void inject(sync_t *s, const state_t *prev, const state_t *next, pair_t *out_push,
                   int *nout_push, pair_t *out_pop, int *nout_pop) {
  *nout_push = *nout_pop = 0;
  int pe = __builtin_popcount(prev->exit), ne = __builtin_popcount(next->enter);
  if (prev->npush == 0 && next->npop == 0 && pe == 1 && ne == 1) {
    pair_t p = {__builtin_ctz(prev->exit), __builtin_ctz(next->enter)};
    if (p.from != p.to) {
      emit(s, &prev->node->post, CL_PUSH, p);
      emit(s, &next->node->pre, CL_POP, p);
      addp(out_push, nout_push, p);
      addp(out_pop, nout_pop, p);
    }
    return;
  }
  pair_t vpush[MAXP], vpop[MAXP], pend[MAXP];
  int npush = prev->npush, npop = next->npop, npend = 0;
  memcpy(vpush, prev->push, sizeof vpush);
  memcpy(vpop, next->pop, sizeof vpop);
  for (int f = 1; f <= 3; f++)
    for (int t = 1; t <= 3; t++)
      if ((prev->exit >> f & 1) && (next->enter >> t & 1) && f != t)
        addp(pend, &npend, (pair_t){f, t});
  cl_list_t after = {0}, before = {0};
  for (int i = 0; i < npend; i++) {
    if (!has(prev->push, prev->npush, pend[i])) {
      addp(vpush, &npush, pend[i]);
      emit(s, &after, CL_PUSH, pend[i]);
    }
    if (!has(next->pop, next->npop, pend[i])) {
      addp(vpop, &npop, pend[i]);
      emit(s, &before, CL_POP, pend[i]);
    }
  }
  /* a push nobody pops is consumed right away; a pop nobody feeds gets a push */
  for (int i = 0; i < npush; i++) {
    if (!has(vpop, npop, vpush[i])) emit(s, &after, CL_POP, vpush[i]);
    else addp(out_push, nout_push, vpush[i]);
  }
  for (int i = 0; i < npop; i++) {
    if (!has(vpush, npush, vpop[i])) emit(s, &before, CL_PUSH, vpop[i]);
    else addp(out_pop, nout_pop, vpop[i]);
  }
  for (int i = 0; i < after.n; i++)
    if (list_add(&prev->node->post, after.v[i])) s->ir->oom = 1;
  for (int i = 0; i < before.n; i++)
    if (list_add(&next->node->pre, before.v[i])) s->ir->oom = 1;
  free(after.v);
  free(before.v);
}

static void update(sync_t *s) {
  if (s->last.node) {
    pair_t a[MAXP], b[MAXP];
    int na, nb;
    inject(s, &s->last, &s->curr, a, &na, b, &nb);
    s->last = s->curr;
  } else {
    s->first = s->curr;
    s->last = s->curr;
  }
}

static void visit(sync_t *s, cl_node_t *n) {
  switch (n->kind) {
  case CL_BLOCK:
    memset(&s->curr, 0, sizeof s->curr);
    s->curr.node = n;
    s->curr.enter = s->curr.exit = 1u << n->a;
    update(s);
    return;
  case CL_FOR: {
    state_t first = s->first, last = s->last;
    memset(&s->first, 0, sizeof s->first);
    memset(&s->last, 0, sizeof s->last);
    visit(s, n->kids.v[0]);
    memset(&s->curr, 0, sizeof s->curr);
    if (s->last.node) {
      /* the loop-carried pair: last scope of iteration i -> first of i+1 */
      s->curr.node = n;
      inject(s, &s->last, &s->first, s->curr.push, &s->curr.npush, s->curr.pop,
             &s->curr.npop);
      s->curr.enter = s->first.enter;
      s->curr.exit = s->last.exit;
    }
    s->first = first;
    s->last = last;
    if (s->curr.node) update(s);
    return;
  }
  case CL_SEQ:
  case CL_VTHREAD:
    for (int i = 0; i < n->kids.n; i++) visit(s, n->kids.v[i]);
    return;
  default:
    return;
  }
}

int cl_ir_sync(cl_ir_t *ir, cl_node_t *root, int bare, cl_node_t **top) {
  sync_t s;
  memset(&s, 0, sizeof s);
  s.ir = ir;
  visit(&s, root);
  if (s.last.node) {
    for (int i = 0; i < s.first.npop; i++) emit(&s, &s.first.node->pre, CL_PUSH, s.first.pop[i]);
    for (int i = 0; i < s.last.npush; i++) emit(&s, &s.last.node->post, CL_POP, s.last.push[i]);
  }
  cl_node_t *sync = cl_ir_node(ir, CL_SYNC, 0, 0);
  if (bare) {
    /* the sync planner inserted after the body before the detector did */
    if (!sync || list_insert0(&root->post, sync)) ir->oom = 1;
    *top = root;
  } else {
    cl_node_t *seq = cl_ir_node(ir, CL_SEQ, 0, 0);
    cl_ir_add(ir, seq, root);
    cl_ir_add(ir, seq, sync);
    *top = seq;
  }
  return ir->oom ? -1 : 0;
}

/* ---- execution ----------------------------------------------------------- */

typedef struct {
  int *env;
  int nthreads;
  cl_exec_fn fn;
  void *ctx;
  cl_rt_t *rt;
  vta_err *err;
} run_t;

static int run_node(run_t *r, const cl_node_t *n, int thread);

static int run_dep(run_t *r, const cl_node_t *n, int thread) {
  int reps = thread < 0 ? r->nthreads : 1; /* a bare Evaluate is unrolled per thread */
  for (int i = 0; i < reps; i++) {
    int rc = 0;
    if (n->kind == CL_PUSH) rc = cl_rt_dep_push(r->rt, n->a, n->b);
    else if (n->kind == CL_POP) rc = cl_rt_dep_pop(r->rt, n->a, n->b);
    else if (i == 0) rc = cl_rt_sync(r->rt);
    if (rc) return -1;
  }
  return 0;
}

static int run_list(run_t *r, const cl_list_t *l, int thread) {
  for (int i = 0; i < l->n; i++)
    if (run_node(r, l->v[i], thread)) return -1;
  return 0;
}

static int run_node(run_t *r, const cl_node_t *n, int thread) {
  if (n->kind == CL_PUSH || n->kind == CL_POP || n->kind == CL_SYNC)
    return run_dep(r, n, thread);
  if (n->kind != CL_BLOCK && run_list(r, &n->pre, thread)) return -1;
  switch (n->kind) {
  case CL_SEQ:
    if (run_list(r, &n->kids, thread)) return -1;
    break;
  case CL_FOR:
    for (int i = 0; i < n->b; i++) {
      r->env[n->a] = i;
      if (run_node(r, n->kids.v[0], thread)) return -1;
    }
    r->env[n->a] = 0;
    break;
  case CL_VTHREAD: {
    int saved = r->nthreads;
    r->nthreads = n->b;
    int rc = run_node(r, n->kids.v[0], thread);
    r->nthreads = saved;
    if (rc) return -1;
    break;
  }
  case CL_BLOCK: {
    int reps = thread < 0 ? r->nthreads : 1;
    for (int t = 0; t < reps; t++) {
      int tt = thread < 0 ? t : thread;
      if (run_list(r, &n->pre, tt) || run_node(r, n->kids.v[0], tt) ||
          run_list(r, &n->post, tt))
        return -1;
    }
    break;
  }
  case CL_OP:
    if (r->fn(r->ctx, n->a, r->env, thread < 0 ? 0 : thread, r->rt, r->err)) return -1;
    break;
  default:
    break;
  }
  if (n->kind != CL_BLOCK && run_list(r, &n->post, thread)) return -1;
  return 0;
}

int cl_ir_run(const cl_node_t *top, int nvars, cl_exec_fn fn, void *ctx, cl_rt_t *rt,
              vta_err *err) {
  int env[16] = {0};
  if (nvars > 16) return vta_errf(err, VTA_EINPUT, "internal: too many loop variables");
  run_t r = {env, 1, fn, ctx, rt, err};
  return run_node(&r, top, -1);
}

static const char *const kind_names[] = {"seq", "for", "block", "vthread",
                                         "op",  "push", "pop",  "sync"};

void cl_ir_dump(const cl_node_t *n, int depth, FILE *f) {
  for (int i = 0; i < n->pre.n; i++) cl_ir_dump(n->pre.v[i], depth, f);
  fprintf(f, "%*s%s %d %d\n", depth * 2, "", kind_names[n->kind], n->a, n->b);
  for (int i = 0; i < n->kids.n; i++) cl_ir_dump(n->kids.v[i], depth + 1, f);
  for (int i = 0; i < n->post.n; i++) cl_ir_dump(n->post.v[i], depth, f);
}

/* ---- InjectDMAIntrin's 2-D pattern ---------------------------------------- */

int cl_dma_2d(const cl_dim_t *dims, int n, uint32_t *x_size, uint32_t *y_size,
              uint32_t *x_stride) {
  cl_dim_t d[8];
  int m = 0;
  for (int i = 0; i < n && m < 8; i++)
    if (dims[i].extent > 1) d[m++] = dims[i];
  if (m == 0) {
    *x_size = *y_size = *x_stride = 1;
    return 0;
  }
  /* groups of contiguous dims, innermost first; the first group starts at
   * the element itself, so a strided innermost dim leaves x = 1 */
  cl_dim_t g[8];
  int ng = 0, i = m - 1;
  if (d[i].stride != 1) g[ng++] = (cl_dim_t){1, 1};
  while (i >= 0) {
    cl_dim_t cur = d[i--];
    while (i >= 0 && d[i].stride == cur.extent * cur.stride) cur.extent *= d[i--].extent;
    g[ng++] = cur;
  }
  if (ng == 1) {
    *x_size = g[0].extent;
    *x_stride = g[0].extent;
    *y_size = 1;
    return 0;
  }
  if (ng == 2) {
    *x_size = g[0].extent;
    *x_stride = g[1].stride;
    *y_size = g[1].extent;
    return 0;
  }
  return -1;
}
