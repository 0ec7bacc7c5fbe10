/*
 * cl_int.h - compiler-lite internals shared by its files: micro-op kernels
 * (cl_uop.c), the runtime emulation (cl_emit.c), the statement tree and the
 * passes over it (cl_ir.c), the bundle assembly (cl_job.c) and the helpers
 * the two schedules (cl_gemm.c, cl_conv2d.c) and the tiler (cl_tiling.c)
 * share.  Nothing here is public API; tests/test_compiler.c uses it to test
 * the runtime rules directly.
 */
#ifndef VTA_CL_INT_H
#define VTA_CL_INT_H

#include <stdint.h>

#include "vta_cl.h"
#include "vta_isa.h"

/* Pipeline stages, numbered as TVM's queue ids (docs/isa.md 1.3). */
enum { CL_STAGE_NONE = 0, CL_STAGE_LOAD = 1, CL_STAGE_COMPUTE = 2, CL_STAGE_STORE = 3 };

/* ---- micro-op kernels ---------------------------------------------------- */

typedef struct cl_loop {
  uint32_t extent, dst, src, wgt;
} cl_loop_t;

/*
 * A recorded micro-op kernel (the runtime's UopKernel).  Identity is the
 * call site plus the one captured variable (the virtual-thread index, +1),
 * exactly the runtime's (static handle, signature) key.
 */
typedef struct cl_kernel {
  int site, key;
  int mode; /* 0 GEMM, 1 ALU */
  int reset;
  uint32_t alu_op, use_imm;
  int32_t imm;
  int nloops;
  cl_loop_t loop[2];
  vta_uop_t *uops;
  uint32_t nuops, cap;
  uint32_t sram_begin, sram_end; /* resident when they differ */
} cl_kernel_t;

/* A loop nest around a uop push, outer first: coefficient of each index. */
typedef struct cl_nest {
  int n;
  cl_loop_t l[8];
} cl_nest_t;

void cl_nest_add(cl_nest_t *n, uint32_t extent, uint32_t dst, uint32_t src, uint32_t wgt);

/*
 * FoldUopLoop on a GEMM uop push inside `nest`: loops of extent 1 do not
 * exist (TE drops them), the two outermost become the kernel's loops and the
 * rest are unrolled into uops.  Checks the runtime's VerifyDep rule.
 */
int cl_kernel_gemm(cl_kernel_t *k, const cl_nest_t *nest, int reset, uint32_t dst,
                   uint32_t src, uint32_t wgt, vta_err *err);
/*
 * InjectALUIntrin: loops over whole elements (outer first, dst/src
 * coefficients), flattened where strides chain, at most two loops left.
 */
int cl_kernel_alu(cl_kernel_t *k, const cl_nest_t *nest, uint32_t op, int use_imm,
                  int32_t imm, uint32_t dst, uint32_t src, vta_err *err);
void cl_kernel_clear(cl_kernel_t *k);

/* ---- the runtime's CommandQueue ---------------------------------------- */

typedef struct cl_rt {
  const vta_config_t *cfg;
  vta_err *err;
  vta_insn_t *insn;
  uint32_t ninsn, cap;
  uint32_t max_insns;
  int pend_prev[4], pend_next[4];
  /* every kernel ever recorded (the UopKernelMap lives for the process) */
  cl_kernel_t **kern;
  int nkern, kcap;
  /* the uop SRAM ring: kernels resident, ordered by sram_begin */
  cl_kernel_t **cache;
  int ncache, ccap;
  uint32_t cache_idx, q_begin, q_end;
  uint32_t uop_phys; /* device address of the uop DRAM buffer */
  int evicted;
  int synced;
} cl_rt_t;

int cl_rt_init(cl_rt_t *rt, const vta_config_t *cfg, uint32_t uop_phys, vta_err *err);
void cl_rt_free(cl_rt_t *rt);
/* The kernel for (site, key); *fresh = 1 when it must be recorded now. */
cl_kernel_t *cl_rt_kernel(cl_rt_t *rt, int site, int key, int *fresh);
/* VTALoadBuffer2D / VTAStoreBuffer2D; dram is the element index (phys / elem bytes + offset). */
int cl_rt_load(cl_rt_t *rt, uint32_t mem, uint32_t sram, uint32_t dram, uint32_t x_size,
               uint32_t y_size, uint32_t x_stride, uint32_t x_pad0, uint32_t y_pad0,
               uint32_t x_pad1, uint32_t y_pad1);
int cl_rt_store(cl_rt_t *rt, uint32_t sram, uint32_t dram, uint32_t x_size, uint32_t y_size,
                uint32_t x_stride);
int cl_rt_dep_push(cl_rt_t *rt, int from, int to);
int cl_rt_dep_pop(cl_rt_t *rt, int from, int to);
int cl_rt_push_gemm(cl_rt_t *rt, cl_kernel_t *k);
int cl_rt_push_alu(cl_rt_t *rt, cl_kernel_t *k);
/* VTASynchronize: the epilogue of docs/isa.md 8.5 and FINISH. */
int cl_rt_sync(cl_rt_t *rt);
/* Kernels in the order ReadBarrier lays them out in DRAM. */
uint32_t cl_rt_uop_words(const cl_rt_t *rt);

int cl_insn_kind(const vta_insn_t *in);

/* ---- statement tree ------------------------------------------------------ */

typedef enum { CL_SEQ, CL_FOR, CL_BLOCK, CL_VTHREAD, CL_OP, CL_PUSH, CL_POP, CL_SYNC } cl_kind_t;

typedef struct cl_node cl_node_t;
typedef struct cl_list {
  cl_node_t **v;
  int n, cap;
} cl_list_t;

struct cl_node {
  cl_kind_t kind;
  int a, b;       /* FOR: var, extent; BLOCK: stage; VTHREAD: threads; OP: id; PUSH/POP: from, to */
  cl_list_t kids; /* SEQ: children; FOR, BLOCK, VTHREAD: the body in kids.v[0] */
  /* Statements the sync pass inserts around the node.  For a BLOCK they go
   * inside the coproc scope, around its body (TVM inserts at op->body). */
  cl_list_t pre, post;
};

typedef struct cl_ir {
  cl_node_t **all;
  int n, cap;
  int oom;
} cl_ir_t;

cl_node_t *cl_ir_node(cl_ir_t *ir, cl_kind_t kind, int a, int b);
void cl_ir_add(cl_ir_t *ir, cl_node_t *parent, cl_node_t *kid);
/* A loop, or just its body when the extent is 1 (TE emits no such loop). */
cl_node_t *cl_ir_loop(cl_ir_t *ir, int var, int extent, cl_node_t *body);
/* A coproc scope holding one operation. */
cl_node_t *cl_ir_block(cl_ir_t *ir, int stage, int op);
void cl_ir_free(cl_ir_t *ir);

/*
 * LiftAttrScope("coproc_scope"): flatten nested sequences and merge
 * consecutive scopes of the same stage into one.
 */
void cl_ir_lift(cl_ir_t *ir, cl_node_t *root);
/*
 * CoProcSync: dependency push/pop between scopes of different stages,
 * loop-carried pairs, the initial push / final pop of the outermost level,
 * and vta.coproc_sync after the function body.  `bare` says the function
 * body is the root node itself (no allocation or virtual-thread scope
 * around it), in which case the final pops land after the sync.
 */
int cl_ir_sync(cl_ir_t *ir, cl_node_t *root, int bare, cl_node_t **top);

/* Executes operations: env holds the loop variables, thread the vthread index. */
typedef int (*cl_exec_fn)(void *ctx, int op, const int *env, int thread, cl_rt_t *rt,
                          vta_err *err);
/*
 * Run the tree with InjectVirtualThread's semantics: inside a virtual-thread
 * scope every coproc scope and every bare push/pop is replicated per thread,
 * loops are not.
 */
int cl_ir_run(const cl_node_t *top, int nvars, cl_exec_fn fn, void *ctx, cl_rt_t *rt,
              vta_err *err);
/* The tree, indented, for debugging. */
void cl_ir_dump(const cl_node_t *n, int depth, FILE *f);

/* ---- DMA patterns -------------------------------------------------------- */

/* One dimension of a copy region, in elements of the memory type. */
typedef struct cl_dim {
  uint32_t extent, stride;
} cl_dim_t;

/*
 * InjectDMAIntrin's 2-D pattern on a region (outer first; extent-1 dims are
 * ignored, as TE emits no loop for them).  Contiguous dims fold; fails when
 * more than two groups remain (TVM: "cannot detect 2d pattern").
 */
int cl_dma_2d(const cl_dim_t *dims, int n, uint32_t *x_size, uint32_t *y_size,
              uint32_t *x_stride);

/* ---- bundle assembly (cl_job.c) ----------------------------------------- */

/* The operations of a schedule's blocks, shared by GEMM and conv2d: the
 * reduction (reset, GEMM), the epilogue, and the DMAs. */
enum { OP_INIT = 0, OP_GEMM, OP_ALU_BIAS, OP_SHR, OP_MAX, OP_MIN,
       OP_LOAD_INP, OP_LOAD_WGT, OP_LOAD_BIAS, OP_STORE, OP_LOAD_RES, OP_ALU_RES, OP_ROUND };
/* The optional epilogue steps (flags of the two functions below). */
enum { CL_EPI_BIAS = 1, CL_EPI_RESIDUAL = 2, CL_EPI_ROUND = 4 };

/* Append the per-tile epilogue every operator ends with (docs/isa.md 10): the
 * optional bias (ACC load, ALU ADD), the optional rounding (ALU ADD imm), SHR, the optional residual (ACC load,
 * ALU ADD), MAX, MIN, then the store.  epi_flags: CL_EPI_*. */
void cl_ir_add_epilogue(cl_ir_t *ir, cl_node_t *tile, int epi_flags);
/* Wrap the loop nest in `vt` virtual threads when vt > 1.  *bare says
 * whether the function body is a bare loop, which decides where the final
 * dependency pop lands relative to the sync (docs/isa.md 8.5). */
cl_node_t *cl_ir_wrap_vthreads(cl_ir_t *ir, cl_node_t *root, int vt, int *bare);
/* The tile both operators lower to: initialise the accumulators; for the
 * reduction variable var_i over ti steps LOAD INP, LOAD WGT, GEMM; then the
 * epilogue (docs/isa.md 10) with the steps epi_flags (CL_EPI_*) asks for. */
cl_node_t *cl_ir_gemm_tile(cl_ir_t *ir, int var_i, int ti, int epi_flags);

#define CL_MAX_SEGS 5

typedef struct cl_job {
  const vta_config_t *cfg;
  struct {
    const char *name;
    uint8_t *data; /* owned by the caller */
    uint32_t size;
    uint32_t phys; /* set by cl_job_build before the tree runs */
  } seg[CL_MAX_SEGS];
  int nseg;
  int out_seg;
  const uint8_t *expect;
  cl_node_t *root;
  int bare;
  int nvars;
  cl_exec_fn exec;
  void *ctx;
  const char *meta[16][2];
  int nmeta;
  char seed[32], range[16]; /* storage for the meta values below */
} cl_job_t;

/* The segments every operator has: inp, wgt, the optional int32 bias (NULL
 * for none) and the zero-filled out, whose expected bytes are `expect`. */
void cl_job_set_tensors(cl_job_t *job, const vta_config_t *cfg, uint8_t *inp, size_t ninp,
                        uint8_t *wgt, size_t nwgt, uint8_t *bias, size_t nbias,
                        uint8_t *zero, size_t nout, const uint8_t *expect);
/* Another input segment, placed before "out". */
void cl_job_add_input(cl_job_t *job, const char *name, uint8_t *data, size_t size);
/* The .meta lines every bundle records: generator, op, shape, schedule,
 * epilogue, seed and data range. */
void cl_job_set_meta(cl_job_t *job, const char *op, const vta_cl_report_t *rep,
                     uint64_t seed, int range);

/* A new job (*job initialised) for the loop nest `root`, vt virtual threads
 * of it, its variables evaluated by exec(ctx, ...); -1 when building the IR
 * ran out of memory. */
int cl_job_plan(cl_job_t *job, cl_ir_t *ir, cl_node_t *root, int vt, int nvars,
                cl_exec_fn exec, void *ctx, vta_err *err);
int cl_job_build(cl_job_t *job, cl_ir_t *ir, vta_program_t *p, vta_cl_report_t *rep,
                 vta_err *err);

/* ---- the rules a schedule must satisfy (cl_check.c) ------------------------- */

/* compiler-lite handles 8-bit inp/wgt/out lanes and 32-bit acc lanes. */
int cl_check_config(const vta_config_t *cfg, vta_err *err);
int cl_check_epilogue(const vta_cl_epilogue_t *e, vta_err *err);
/* VTA produces whole BLOCK_OUT-channel blocks. */
int cl_check_out_channels(const vta_config_t *cfg, int out_channels, vta_err *err);
/* The data range of --range: values in [-range, range-1], int8. */
int cl_check_range(int range, vta_err *err);
/* A DRAM tensor must fit one segment. */
int cl_check_tensor(const char *what, uint64_t bytes, vta_err *err);
/* The tile sizes of the schedules, as the messages name them. */
enum { CL_TILE_B, CL_TILE_IC, CL_TILE_OC, CL_TILE_H, CL_TILE_W };
/* Tile size `which` must divide the `total` blocks (rows, columns) it tiles. */
int cl_check_tile(int which, int tile, uint32_t total, vta_err *err);
/* "needs N entries (detail), M available" for a scratchpad. */
int cl_buffer_err(vta_err *err, const char *buffer, uint64_t need, uint32_t avail,
                  const char *detail);
/* The 14-bit loop-count and 16-bit DMA fields. */
#define CL_ITER_MAX ((1u << VTA_LOOP_ITER_BITS) - 1)
#define CL_SIZE_MAX ((1u << VTA_MEMOP_SIZE_BITS) - 1)
#define CL_STRIDE_MAX ((1u << VTA_MEMOP_STRIDE_BITS) - 1)
#define CL_PAD_MAX ((1u << VTA_MEMOP_PAD_BITS) - 1)
/* Instructions one run may hold: the runtime syncs before VTA_MAX_XFER. */
#define CL_MAX_INSNS (((1u << 25) / VTA_INS_BYTES) - 4)

int8_t *cl_random_i8(uint64_t seed, uint64_t stream, size_t n, int range);
int32_t *cl_random_bias(uint64_t seed, size_t n, int range);
/* ResNet's host operators (cl_net.c) on a network whose input and layers
 * are set; c_last: the last layer's channels.  Host operator h's seed. */
void cl_net_resnet_host(vta_cl_net_t *n, int c_last);
uint64_t cl_net_host_seed(const vta_cl_net_t *n, int h);

/* What the tiler compares between valid schedules. */
typedef struct cl_cost {
  uint64_t traffic; /* DRAM bytes moved (loads and stores) */
  uint64_t insns;   /* instructions, estimated */
  uint64_t tile;    /* output elements per tile */
  uint64_t red;     /* reduction blocks per tile */
} cl_cost_t;

/* Full validation of a schedule (the public check); cost may be NULL. */
int cl_gemm_validate(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, cl_cost_t *cost,
                     vta_err *err);
int cl_conv2d_validate(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                       cl_cost_t *cost, vta_err *err);
/* Shape rules only (block divisibility, positive sizes). */
int cl_gemm_shape(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, vta_err *err);
int cl_conv2d_shape(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p, vta_err *err);

/* ---- what the two schedules share (cl_op.c) ------------------------------- */

/*
 * The part of a planned schedule that GEMM and conv2d have alike: both lower
 * to the same tile (cl_ir_gemm_tile) with the same epilogue, so the
 * scratchpad budget, the epilogue's kernels, the cost, the report and the
 * bundle's assembly depend on these figures only.  gemm_t and conv_t embed
 * one, filled by their plan.
 */
typedef struct cl_op {
  const char *name; /* "gemm" or "conv2d", the .meta op */
  const vta_config_t *cfg;
  vta_cl_epilogue_t epi;
  vta_cl_store_t store;
  uint64_t seed;
  int range;
  uint32_t vt;    /* virtual threads */
  uint32_t ib;    /* reduction tile, in BLOCK_IN blocks */
  uint32_t ti;    /* reduction steps per output tile */
  uint64_t tiles; /* output tiles, all threads */
  /* scratchpad entries per thread: input, weights, the output tile, the
   * bias, the residual operand (sc); acc holds res + bias + sc */
  uint32_t inp_sz, wgt_sz, res_sz, bias_sz, sc_sz, acc_sz;
  const cl_job_t *job; /* the segments' addresses, once cl_op_build places them */
  int seg_bias, seg_res, seg_out;
} cl_op_t;

/* What both TVM tutorials' schedules share: per-element stores, the
 * requantizing epilogue (shift 8, clip to [0, 127]); and the data of
 * seed 1 in the full int8 range. */
void cl_tutorial_defaults(vta_cl_store_t *store, vta_cl_epilogue_t *epi, uint64_t *seed,
                          int *range);
/* o's identity and epilogue, everything else zero. */
void cl_op_init(cl_op_t *o, const char *name, const vta_config_t *cfg,
                const vta_cl_epilogue_t *epi, vta_cl_store_t store, uint64_t seed, int range);
/* The epilogue steps o has (CL_EPI_*). */
int cl_op_epi_flags(const cl_op_t *o);
/* DRAM element index of a segment's first element (docs/isa.md 2.3: base
 * registers are 0, dram_base holds phys / elem_bytes). */
uint32_t cl_op_dram(const cl_op_t *o, int seg, uint32_t elem_bytes);
/* With `to` output-channel tiles (noc blocks / ob), two threads need an even count. */
int cl_op_check_threads(const cl_op_t *o, uint32_t to, uint32_t noc, uint32_t ob, vta_err *err);
/* Every scratchpad holds vt threads' tiles; the details name the tile's
 * factors in the messages of inp, wgt and acc. */
int cl_op_check_sram(const cl_op_t *o, const char *inp_detail, const char *wgt_detail,
                     const char *acc_detail, vta_err *err);

/* Builds the micro-op kernel of operation `op` for virtual thread t. */
typedef int (*cl_kernel_fn)(const void *ctx, int op, uint32_t t, cl_kernel_t *k,
                            vta_err *err);
/* The uop buffer must hold every distinct kernel of every thread (each
 * thread's kernels differ, docs/isa.md 8.6); the last thread's are the largest. */
int cl_op_check_uops(const cl_op_t *o, cl_kernel_fn kernel, const void *ctx, vta_err *err);
/* The epilogue's ALU kernel for op (OP_ALU_BIAS, OP_ALU_RES, OP_SHR, OP_MAX,
 * OP_MIN) over the element nest n of the accumulator tile at acc. */
int cl_op_alu_kernel(const cl_op_t *o, int op, const cl_nest_t *n, uint32_t acc,
                     cl_kernel_t *k, vta_err *err);
/* A compute operation of thread t: its kernel (recorded by `kernel` the
 * first time) pushed as GEMM or ALU. */
int cl_op_exec_compute(const cl_op_t *o, int op, int t, cl_kernel_fn kernel, const void *ctx,
                       cl_rt_t *rt, vta_err *err);
/* The tiler's figures for o; fails when the stream would not fit one run. */
int cl_op_cost(const cl_op_t *o, cl_cost_t *cost, vta_err *err);

/* The start of every operator's build: rep (or local when NULL) cleared, out
 * an empty program (what a failed build leaves); returns the report to fill. */
vta_cl_report_t *cl_build_begin(vta_cl_report_t *rep, vta_cl_report_t *local,
                                vta_program_t *out);
/* The report lines every operator shares: the epilogue, the scratchpad
 * entries and the tiles. */
void cl_op_report(const cl_op_t *o, vta_cl_report_t *rep);

/* The tensors of one build, row-major: the operands (the seed's random
 * ones, or copies of given ones, so that one free path serves both), the
 * reference output; and their packed images, the DRAM segments. */
typedef struct cl_tensors {
  int8_t *x, *k, *ref;
  int32_t *bias;          /* NULL without epi.bias */
  const int8_t *residual; /* the caller's; NULL without epi.residual */
  int8_t *px, *pk, *py;   /* packed x, k and ref */
  uint8_t *pb, *pr, *zero; /* packed bias and residual (int32); zero: "out" before the run */
  size_t nx, nk, ny;      /* bytes of x and px, k and pk, ref and py and zero */
  size_t nb, nr;          /* bytes of pb and pr */
} cl_tensors_t;

/* nx input, nk weight and ny output elements, m output channels; d: given
 * tensors (conv2d; NULL: the seed's). */
int cl_tensors_new(cl_tensors_t *t, const cl_op_t *o, size_t nx, size_t nk, size_t ny, int m,
                   const vta_cl_conv2d_data_t *d, vta_err *err);
void cl_tensors_free(cl_tensors_t *t);

/* One output-tile loop of an operator's nest: its variable and extent. */
typedef struct cl_loopvar {
  int var, extent;
} cl_loopvar_t;
/*
 * The bundle: the tile (cl_ir_gemm_tile, reduction variable var_i) inside
 * the `nloops` output-tile loops (outermost first), run by exec(ctx, ...)
 * with nvars variables on t's packed tensors as segments, with the meta
 * lines.  o->job and the segment indices are set while the tree runs.
 */
int cl_op_build(cl_op_t *o, const cl_tensors_t *t, const cl_loopvar_t *loops, int nloops,
                int var_i, int nvars, cl_exec_fn exec, void *ctx, vta_program_t *out,
                vta_cl_report_t *rep, vta_err *err);

/* cl_net.c, shared with the JSON descriptions (cl_netdesc.c): a layer's
 * default requantizing shift from its reduction size, and TVM's workload
 * numbering of the distinct convolution shapes. */
int cl_net_default_shift(int c, int kh, int kw);
void cl_net_number_workloads(vta_cl_net_t *n);

#endif
