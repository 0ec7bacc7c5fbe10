// compute.v - the compute unit: LOAD UOP and LOAD ACC (through its tensor
// DMA, read clients uop and acc), GEMM, ALU and FINISH (docs/microarch.md
// 6.2-6.5, 6.7).  It owns the uop and acc scratchpads and writes out: every
// GEMM (not reset) and ALU result writes acc and the low OUT_WIDTH bits of
// each lane into out (docs/isa.md 2.1, decision 12.1); a reset GEMM writes acc = 0.
//
// Unit skeleton (section 4, unit_skeleton.v): start when idle and l2g
// (pop_prev) and s2g (pop_next) hold the tokens it pops; push g2l
// (push_prev) and g2s (push_next) at D.  What the instruction is, the kinds
// of model/cycle.h: K_SYNC a sync NOP (and loads of other memory types,
// which the C model rejects), S and D = S+1; K_DMA the load DMA (LOAD
// UOP/ACC); K_PIPE the GEMM/ALU pipeline (GEMM, ALU); K_FINISH, S and
// D = S+1, D the finish pulse.
//
// The head instruction's fields carry their ISA names (isa/vta_isa.h:
// opcode, mem_type, uop_bgn, iter_out, dst_factor_out, alu_opcode ...);
// the pipeline's registers of an instruction are those names with _q.
//
// The GEMM/ALU pipeline, uop i issued in cycle X = S + 2 + k*i (k = 1, or 2
// for a vector ALU op whose one acc read port reads src, then dst):
//
//   X    P0  read uop[u]                       (loops iter_out, iter_in, uop)
//   X+1  P1  indices = uop fields + loop offsets; read inp, wgt and acc[dst]
//            (GEMM, ALU imm) or acc[src] (vector ALU)
//   X+2  PB  vector ALU only: read acc[dst]; src arrives
//   +1   P2  acc[dst] arrives (GEMM: inp, wgt arrive: dot products)
//   +1   P3  result = acc + dot, or ALU(acc[dst], imm or acc[src])
//   +1   P4  write acc[dst] (and out[dst]); UCNT counts it
//
// so results are written in S + 6 + k*i + (k-1) and D = S + k*N + PIPE_DONE
// (PIPE_DONE = 6: the cycle k+4 after the last issue; S+6 when N = 0).  The
// acc operands follow the sequential semantics of docs/isa.md 6.4: an operand that
// arrives in cycle A from a read presented in A-1 misses the writes of A-1
// (kept one cycle in the prev_wb registers) and of A onwards (the current
// write port), so each operand register takes the newest of them for its
// row until it is used.
module compute (
  input  wire                 clk,
  input  wire                 clr,
  input  wire                 run,
  input  wire [INJECT_W-1:0]  inject,      // planted bug (VTA_INJECT builds): uop_bound,
                                           // alu_opcode, pipe_slip, pad_row
  input  wire [QWORD_W-1:0]   head,
  input  wire                 q_empty,
  output wire                 q_pop,
  input  wire                 l2g_nz,
  input  wire                 s2g_nz,
  output wire                 pop_l2g,
  output wire                 pop_s2g,
  output wire                 push_g2l,
  output wire                 push_g2s,
  input  wire [WORD_W-1:0]    win_mask,
  // read client uop or acc
  output wire                 req_valid,
  output wire [RD_ID_W-1:0]   req_client,
  output wire [WORD_W-1:0]    req_addr,
  output wire [WORD_W-1:0]    req_bytes,
  output wire [BEATS_W-1:0]   req_beats,
  input  wire                 grant,
  input  wire                 m_rvalid,
  input  wire [RD_ID_W-1:0]   m_rid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  // uop scratchpad: LOAD UOP writes slots of a beat, the pipeline reads
  output wire [BUS_BYTES/UOP_ELEM_BYTES-1:0] uop_we,
  output wire [WORD_W-1:0]    uop_widx,
  output wire                 uop_re,
  output wire [WORD_W-1:0]    uop_ridx,
  input  wire [UOP_ELEM_BYTES*8-1:0] uop_rdata,
  // inp and wgt read ports (one read enable)
  output wire                 inp_wgt_re,
  output wire [WORD_W-1:0]    inp_ridx,
  output wire [WORD_W-1:0]    wgt_ridx,
  input  wire [INP_ELEM_BYTES*8-1:0] inp_rdata,
  input  wire [WGT_ELEM_BYTES*8-1:0] wgt_rdata,
  // acc read and write ports, out write port
  output wire                 acc_re,
  output wire [WORD_W-1:0]    acc_ridx,
  input  wire [ACC_ELEM_BYTES*8-1:0] acc_rdata,
  output wire                 acc_we,
  output wire [WORD_W-1:0]    acc_widx,
  output wire [ACC_ELEM_BYTES*8-1:0] acc_wdata,
  output wire                 out_we,
  output wire [WORD_W-1:0]    out_widx,
  output wire [OUT_ELEM_BYTES*8-1:0] out_wdata,
  // events, and what the counters of vcr.v add this cycle (add_<counter>)
  output wire                 ev_start,
  output wire                 ev_done,
  output wire [QIDX_W-1:0]    ev_idx,
  output wire                 finish,
  output wire [CAT_W-1:0]     cat,
  output wire [WORD_W-1:0]    add_acc_load_nbytes,
  output wire [WORD_W-1:0]    add_uop_load_nbytes,
  output wire [WORD_W-1:0]    add_gemm_counter,
  output wire [WORD_W-1:0]    add_alu_counter,
  output wire                 add_gemm_uops,
  output wire                 add_gemm_reset_uops,
  output wire                 add_alu_uops,
  output wire [ALU_SLOTS_W-1:0] add_alu_slots,
  output wire                 add_ucnt
);
`include "vta_params.vh"
  localparam integer LANES       = BATCH * BLOCK_OUT;    // acc/out lanes
  localparam integer ACC_ELEM_W  = ACC_ELEM_BYTES * 8;   // an acc row's bits
  localparam integer OUT_ELEM_W  = OUT_ELEM_BYTES * 8;   // an out row's bits
  localparam integer ROW_W       = SRAM_IDX_W;           // a scratchpad row
  localparam integer UOP_COUNT_W = 2 * WORD_W;           // the uops of an instruction
  localparam integer SHIFT_W     = $clog2(ALU_W);        // an ALU shift amount
  localparam integer KIND_W  = 2;
  localparam integer DRAIN_W = $clog2(PIPE_DONE + 1);
  // the instruction kinds of model/cycle.h (less K_STORE, the store unit's)
  localparam [KIND_W-1:0] K_SYNC = 0, K_DMA = 1, K_PIPE = 2, K_FINISH = 3;
  localparam [UOP_IDX_W-1:0] UOP_IDX_ONE = 1;
  localparam [LOOP_W-1:0]    LOOP_ONE = 1, LOOP_ZERO = 0;
  localparam [ROW_W-1:0]     ROW_ZERO = 0;
  // cycles from the last issue (or, N = 0, from S) to D, less one: k = 1, k = 2
  localparam integer         ISSUE_TO_DONE_K1 = PIPE_DONE - 2, ISSUE_TO_DONE_K2 = PIPE_DONE - 1;
  localparam [DRAIN_W-1:0]   DRAIN_K1 = ISSUE_TO_DONE_K1[DRAIN_W-1:0],
                             DRAIN_K2 = ISSUE_TO_DONE_K2[DRAIN_W-1:0],
                             DRAIN_N0 = ISSUE_TO_DONE_K2[DRAIN_W-1:0],
                             DRAIN_ONE = 1, DRAIN_ZERO = 0;
  localparam [ALU_SLOTS_W-1:0] SLOTS_0 = 0, SLOTS_1 = 1, SLOTS_2 = 2;
  localparam [ALU_OP_W-1:0]  ALU_OP_BIT0 = 1;
  localparam [SHIFT_W-1:0]   SHIFT_ONE = 1;

  // a scratchpad row as a WORD_W-bit index
  function [WORD_W-1:0] row_index(input [ROW_W-1:0] r);
    row_index = {{(WORD_W-ROW_W){1'b0}}, r};
  endfunction

  // ---- the head instruction ----------------------------------------------------
  wire [OPCODE_BITS-1:0]          opcode;
  wire [MEM_TYPE_W-1:0]           mem_type;
  wire [INSN_MEM_X_SIZE_W-1:0]    x_size;
  wire [INSN_MEM_Y_SIZE_W-1:0]    y_size;
  wire [INSN_MEM_SRAM_BASE_W-1:0] sram_base;
  wire [INSN_MEM_DRAM_BASE_W-1:0] dram_base;
  wire [INSN_MEM_X_STRIDE_W-1:0]  x_stride;
  wire [PAD_W-1:0]                y_pad_0, y_pad_1, x_pad_0, x_pad_1;
  wire                            pop_prev, pop_next, push_prev, push_next, reset_reg, use_imm;
  wire [UOP_IDX_W-1:0]            uop_bgn, uop_end;
  wire [LOOP_W-1:0]               iter_out, iter_in;
  wire [ROW_W-1:0]                dst_factor_out, dst_factor_in, src_factor_out, src_factor_in,
                                  wgt_factor_out, wgt_factor_in;
  wire [ALU_OP_W-1:0]             alu_opcode;
  wire [IMM_W-1:0]                imm;
  /* verilator lint_off PINCONNECTEMPTY */
  insn_decode u_dec (
    .insn(head[INSN_W-1:0]), .opcode(opcode), .pop_prev(pop_prev), .pop_next(pop_next),
    .push_prev(push_prev), .push_next(push_next), .unit(), .mem_type(mem_type),
    .sram_base(sram_base), .dram_base(dram_base), .y_size(y_size), .x_size(x_size),
    .x_stride(x_stride), .y_pad_0(y_pad_0), .y_pad_1(y_pad_1), .x_pad_0(x_pad_0),
    .x_pad_1(x_pad_1), .reset_reg(reset_reg), .uop_bgn(uop_bgn), .uop_end(uop_end),
    .iter_out(iter_out), .iter_in(iter_in), .dst_factor_out(dst_factor_out),
    .dst_factor_in(dst_factor_in), .src_factor_out(src_factor_out),
    .src_factor_in(src_factor_in), .wgt_factor_out(wgt_factor_out),
    .wgt_factor_in(wgt_factor_in), .alu_opcode(alu_opcode), .use_imm(use_imm), .imm(imm));
  /* verilator lint_on PINCONNECTEMPTY */
  wire        is_alu   = opcode == OP_ALU[OPCODE_BITS-1:0];
  wire        is_gemm  = opcode == OP_GEMM[OPCODE_BITS-1:0];
  wire        is_load  = opcode == OP_LOAD[OPCODE_BITS-1:0];
  wire        load_uop = is_load && mem_type == MEM_UOP[MEM_TYPE_W-1:0] && |x_size;
  wire        load_acc = is_load && mem_type == MEM_ACC[MEM_TYPE_W-1:0] && |x_size;
  wire [KIND_W-1:0] kind = (load_uop || load_acc) ? K_DMA : (is_alu || is_gemm) ? K_PIPE
                         : opcode == OP_FINISH[OPCODE_BITS-1:0] ? K_FINISH : K_SYNC;
  // N = iter_out * iter_in * (uop_end - uop_bgn), in UOP_COUNT_W bits
  function [UOP_COUNT_W-1:0] uop_total(input [LOOP_W-1:0] outer, input [LOOP_W-1:0] inner,
                                       input [UOP_IDX_W-1:0] first,
                                       input [UOP_IDX_W-1:0] bound);
    uop_total = {{(UOP_COUNT_W-LOOP_W){1'b0}}, outer} * {{(UOP_COUNT_W-LOOP_W){1'b0}}, inner}
              * (bound > first ? {{(UOP_COUNT_W-UOP_IDX_W){1'b0}}, bound - first}
                               : {UOP_COUNT_W{1'b0}});
  endfunction

  // ---- skeleton ------------------------------------------------------------------
  reg [KIND_W-1:0] kind_q;
  wire             dma_done, dma_acted, pipe_done, start, done, busy;
  /* verilator lint_off PINCONNECTEMPTY */
  unit_skeleton #(.USE_PREV(1), .USE_NEXT(1), .Q_PREV(Q_L2G), .Q_NEXT(Q_S2G)) u_skel (
    .clk(clk), .clr(clr), .run(run), .q_empty(q_empty), .head_idx(head[QIDX_LSB +: QIDX_W]),
    .pop_prev(pop_prev), .pop_next(pop_next), .push_prev(push_prev), .push_next(push_next),
    .prev_nz(l2g_nz), .next_nz(s2g_nz),
    .at_done(kind_q == K_SYNC || kind_q == K_FINISH || (kind_q == K_DMA && dma_done) ||
             (kind_q == K_PIPE && pipe_done)),
    .acted(kind_q != K_DMA || dma_acted), .start(start), .done(done), .busy(busy),
    .pop_prev_o(pop_l2g), .pop_next_o(pop_s2g), .push_prev_o(push_g2l),
    .push_next_o(push_g2s), .idx(ev_idx), .cat(cat));
  /* verilator lint_on PINCONNECTEMPTY */

  assign q_pop    = done;
  assign finish   = done && kind_q == K_FINISH;
  assign ev_start = start;
  assign ev_done  = done;
  // The head's uop counts (and load_elems, LOAD UOP/ACC's elements) are used
  // only in its start cycle (S): formed only then (the same values where they
  // are used; a simulator skips the multiplications in the other cycles).
  // uop_count is N; the loops issue loop_uop_count uops, up to loop_uop_end.
  reg [UOP_COUNT_W-1:0] uop_count, loop_uop_count;
  reg [UOP_IDX_W-1:0]   loop_uop_end;
  reg [WORD_W-1:0]      load_elems;
  always @(*) begin
    uop_count      = {UOP_COUNT_W{1'b0}};
    loop_uop_count = uop_count;
    loop_uop_end   = uop_end;
    load_elems     = {WORD_W{1'b0}};
    if (start) begin
      uop_count      = uop_total(iter_out, iter_in, uop_bgn, uop_end);
      // planted bug uop_bound: the uop loop ends at uop_end - 1 (N' uops)
      if (inject == INJECT_UOP_BOUND[INJECT_W-1:0] && |uop_count)
        loop_uop_end = uop_end - UOP_IDX_ONE;
      loop_uop_count = uop_total(iter_out, iter_in, uop_bgn, loop_uop_end);
      load_elems     = {{(WORD_W-INSN_MEM_X_SIZE_W){1'b0}}, x_size}
                     * {{(WORD_W-INSN_MEM_Y_SIZE_W){1'b0}}, y_size};
    end
  end
  assign add_uop_load_nbytes = (start && load_uop) ? load_elems << LOG_UOP_ELEM_BYTES
                                                   : {WORD_W{1'b0}};
  assign add_acc_load_nbytes = (start && load_acc) ? load_elems << LOG_ACC_ELEM_BYTES
                                                   : {WORD_W{1'b0}};
  assign add_gemm_counter = (start && is_gemm && !reset_reg) ? uop_count[WORD_W-1:0]
                                                             : {WORD_W{1'b0}};
  assign add_alu_counter  = (start && is_alu) ? uop_count[WORD_W-1:0] : {WORD_W{1'b0}};
  /* verilator lint_off UNUSEDSIGNAL */
  // rows wrap at the scratchpad depth, as in hardware
  wire unused_ok = &{1'b0, prev_wb_row_q[ROW_W-1:LOG_ACC_DEPTH],
                     p3_src_row_q[ROW_W-1:LOG_ACC_DEPTH], uop_count[UOP_COUNT_W-1:WORD_W]};
  /* verilator lint_on UNUSEDSIGNAL */

  always @(posedge clk) begin
    if (start) kind_q <= kind;
  end

  // ---- LOAD UOP / LOAD ACC ---------------------------------------------------------
  reg         dma_uop_q;
  wire        dma_we;
  wire [WORD_W-1:0] dma_idx;
  wire [ACC_ELEM_W-1:0] dma_wdata;
  always @(posedge clk) begin
    if (start) dma_uop_q <= load_uop;
  end
  dma_rd #(.MAX_ELEM_BYTES(ACC_ELEM_BYTES), .UOP_SLOTS(BUS_BYTES / UOP_ELEM_BYTES)) u_dma (
    .clk(clk), .clr(clr), .start(start && kind == K_DMA),
    .client(load_uop ? RD_UOP[RD_ID_W-1:0] : RD_ACC[RD_ID_W-1:0]),
    .log_e(load_uop ? LOG_UOP_ELEM_BYTES[LOG_E_W-1:0] : LOG_ACC_ELEM_BYTES[LOG_E_W-1:0]),
    .is_uop(load_uop), .sram_base(sram_base), .dram_base(dram_base),
    .y_size(y_size), .x_size(x_size), .x_stride(x_stride),
    .y_pad_0(y_pad_0), .y_pad_1(y_pad_1), .x_pad_0(x_pad_0), .x_pad_1(x_pad_1),
    .win_mask(win_mask), .pad_up(inject == INJECT_PAD_ROW[INJECT_W-1:0]),
    .req_valid(req_valid), .req_addr(req_addr), .req_bytes(req_bytes), .req_beats(req_beats),
    .grant(grant), .m_rvalid(m_rvalid), .m_rid(m_rid), .m_rdata(m_rdata),
    .wr_en(dma_we), .wr_idx(dma_idx), .wr_data(dma_wdata),
    .uop_we(uop_we), .uop_idx(uop_widx), .done(dma_done), .acted(dma_acted));
  assign req_client = dma_uop_q ? RD_UOP[RD_ID_W-1:0] : RD_ACC[RD_ID_W-1:0];

  // ---- GEMM / ALU: the instruction and its loops -------------------------------------
  // (the loop position: out_pos_q of iter_out, in_pos_q of iter_in, uop_pos_q
  // from uop_bgn; each index's loop offsets kept as running sums:
  // <dst|src|wgt>_off_out_q = out_pos * factor_out, _off_in_q = in_pos * factor_in)
  reg         alu_q, vector_alu_q, reset_reg_q, use_imm_q, pipe_slip_q;
  reg [ALU_OP_W-1:0]  alu_opcode_q;
  reg [ALU_W-1:0]     imm_q;
  reg [UOP_IDX_W-1:0] uop_bgn_q, loop_uop_end_q, uop_pos_q, uop_pos_d;
  reg [LOOP_W-1:0]    iter_out_q, iter_in_q, in_pos_q, in_pos_d, out_pos_q, out_pos_d;
  reg [ROW_W-1:0]     dst_factor_out_q, dst_factor_in_q, src_factor_out_q, src_factor_in_q,
                      wgt_factor_out_q, wgt_factor_in_q;
  reg                 issuing_q, issuing_d, wait_q, wait_d, draining_q, draining_d;
  reg [DRAIN_W-1:0]   drain_q, drain_d;
  reg [ROW_W-1:0]     dst_off_out_q, dst_off_out_d, dst_off_in_q, dst_off_in_d;
  reg [ROW_W-1:0]     src_off_out_q, src_off_out_d, src_off_in_q, src_off_in_d;
  reg [ROW_W-1:0]     wgt_off_out_q, wgt_off_out_d, wgt_off_in_q, wgt_off_in_d;

  wire pipe_start = start && kind == K_PIPE;
  wire issue      = busy && kind_q == K_PIPE && issuing_q && !wait_q;
  assign pipe_done = draining_q && drain_q == DRAIN_ZERO;
  assign uop_re    = issue;
  assign uop_ridx  = {{(WORD_W-UOP_IDX_W){1'b0}}, uop_pos_q};
  assign add_gemm_uops       = issue && !alu_q;
  assign add_gemm_reset_uops = issue && !alu_q && reset_reg_q;
  assign add_alu_uops        = issue && alu_q;
  assign add_alu_slots       = (issue && alu_q) ? (vector_alu_q ? SLOTS_2 : SLOTS_1) : SLOTS_0;

  always @(*) begin
    issuing_d = issuing_q; wait_d = wait_q; draining_d = draining_q; drain_d = drain_q;
    uop_pos_d = uop_pos_q; in_pos_d = in_pos_q; out_pos_d = out_pos_q;
    dst_off_out_d = dst_off_out_q; dst_off_in_d = dst_off_in_q;
    src_off_out_d = src_off_out_q; src_off_in_d = src_off_in_q;
    wgt_off_out_d = wgt_off_out_q; wgt_off_in_d = wgt_off_in_q;
    if (wait_q) wait_d = 1'b0;
    if (draining_q && drain_q != DRAIN_ZERO) drain_d = drain_q - DRAIN_ONE;
    if (issue) begin
      wait_d = vector_alu_q;
      if (uop_pos_q + UOP_IDX_ONE != loop_uop_end_q) begin
        uop_pos_d = uop_pos_q + UOP_IDX_ONE;
      end else begin
        uop_pos_d = uop_bgn_q;
        if (in_pos_q + LOOP_ONE != iter_in_q) begin
          in_pos_d = in_pos_q + LOOP_ONE;
          dst_off_in_d = dst_off_in_q + dst_factor_in_q;
          src_off_in_d = src_off_in_q + src_factor_in_q;
          wgt_off_in_d = wgt_off_in_q + wgt_factor_in_q;
        end else begin
          in_pos_d = LOOP_ZERO;
          dst_off_in_d = ROW_ZERO; src_off_in_d = ROW_ZERO; wgt_off_in_d = ROW_ZERO;
          if (out_pos_q + LOOP_ONE != iter_out_q) begin
            out_pos_d = out_pos_q + LOOP_ONE;
            dst_off_out_d = dst_off_out_q + dst_factor_out_q;
            src_off_out_d = src_off_out_q + src_factor_out_q;
            wgt_off_out_d = wgt_off_out_q + wgt_factor_out_q;
          end else begin
            issuing_d  = 1'b0;          // the last uop: D = X + k + 4 (+1: pipe_slip)
            draining_d = 1'b1;
            drain_d    = (vector_alu_q ? DRAIN_K2 : DRAIN_K1)
                       + (pipe_slip_q ? DRAIN_ONE : DRAIN_ZERO);
          end
        end
      end
    end
    if (pipe_done) draining_d = 1'b0;
    if (pipe_start) begin
      issuing_d  = |loop_uop_count;
      wait_d     = 1'b1;               // first issue at S+2
      draining_d = ~|loop_uop_count;   // N = 0: D = S + PIPE_DONE (+1: pipe_slip)
      drain_d    = DRAIN_N0 + ((is_gemm && inject == INJECT_PIPE_SLIP[INJECT_W-1:0])
                               ? DRAIN_ONE : DRAIN_ZERO);
      uop_pos_d = uop_bgn; in_pos_d = LOOP_ZERO; out_pos_d = LOOP_ZERO;
      dst_off_out_d = ROW_ZERO; dst_off_in_d = ROW_ZERO; src_off_out_d = ROW_ZERO;
      src_off_in_d = ROW_ZERO; wgt_off_out_d = ROW_ZERO; wgt_off_in_d = ROW_ZERO;
    end
  end

  always @(posedge clk) begin
    if (clr) begin
      issuing_q  <= 1'b0;
      draining_q <= 1'b0;
    end else begin
      issuing_q  <= issuing_d;
      draining_q <= draining_d;
    end
  end

  always @(posedge clk) begin
    wait_q <= wait_d; drain_q <= drain_d;
    uop_pos_q <= uop_pos_d; in_pos_q <= in_pos_d; out_pos_q <= out_pos_d;
    dst_off_out_q <= dst_off_out_d; dst_off_in_q <= dst_off_in_d;
    src_off_out_q <= src_off_out_d; src_off_in_q <= src_off_in_d;
    wgt_off_out_q <= wgt_off_out_d; wgt_off_in_q <= wgt_off_in_d;
    if (pipe_start) begin
      alu_q            <= is_alu;
      vector_alu_q     <= is_alu && !use_imm;
      reset_reg_q      <= is_gemm && reset_reg;
      use_imm_q        <= use_imm;
      // planted bug alu_opcode: bit 0 of the ALU opcode is lost
      alu_opcode_q     <= inject == INJECT_ALU_OPCODE[INJECT_W-1:0] ? alu_opcode & ~ALU_OP_BIT0
                                                                    : alu_opcode;
      pipe_slip_q      <= is_gemm && inject == INJECT_PIPE_SLIP[INJECT_W-1:0];
      imm_q            <= {{(ALU_W-IMM_W){imm[IMM_W-1]}}, imm};
      uop_bgn_q        <= uop_bgn;
      loop_uop_end_q   <= loop_uop_end;
      iter_out_q       <= iter_out;
      iter_in_q        <= iter_in;
      dst_factor_out_q <= dst_factor_out;
      dst_factor_in_q  <= dst_factor_in;
      src_factor_out_q <= src_factor_out;
      src_factor_in_q  <= src_factor_in;
      wgt_factor_out_q <= is_alu ? ROW_ZERO : wgt_factor_out;
      wgt_factor_in_q  <= is_alu ? ROW_ZERO : wgt_factor_in;
    end
  end

  // ---- the pipeline ----------------------------------------------------------------
  reg                  p1_valid_q, pb_valid_q, p2_valid_q, p3_valid_q, p4_valid_q;
  reg [ROW_W-1:0]      p1_dst_off_q, p1_src_off_q, p1_wgt_off_q;
  reg [ROW_W-1:0]      pb_row_q, p2_row_q, p3_row_q, p4_row_q;
  reg                  p4_out_we_q;
  reg [ACC_ELEM_W-1:0] p4_result_q;
  reg [ACC_ELEM_W-1:0] acc_dst_q, acc_src_q;  // acc operands (dst, and src for a vector ALU op)
  reg [ALU_W*LANES-1:0] dot_q;                // GEMM dot products, ALU_W bits per lane
  reg                  prev_wb_valid_q;       // the write-back of the previous cycle
  reg [ROW_W-1:0]      prev_wb_row_q;
  reg [ACC_ELEM_W-1:0] prev_wb_result_q;

  // P1: indices (the uop's fields plus the loop offsets)
  wire [ROW_W-1:0] uop_dst_row = {{(ROW_W-UOP_DST_W){1'b0}}, uop_rdata[UOP_DST_LSB +: UOP_DST_W]}
                               + p1_dst_off_q;
  wire [ROW_W-1:0] uop_src_row = {{(ROW_W-UOP_SRC_W){1'b0}}, uop_rdata[UOP_SRC_LSB +: UOP_SRC_W]}
                               + p1_src_off_q;
  wire [ROW_W-1:0] uop_wgt_row = {{(ROW_W-UOP_WGT_W){1'b0}}, uop_rdata[UOP_WGT_LSB +: UOP_WGT_W]}
                               + p1_wgt_off_q;
  // (a GEMM with reset_reg writes zeros: it reads no inp/wgt and forms no
  // dot products)
  wire   mac_uop    = !alu_q && !reset_reg_q;
  assign inp_wgt_re = p1_valid_q && mac_uop;
  assign inp_ridx   = row_index(uop_src_row);
  assign wgt_ridx   = row_index(uop_wgt_row);
  assign acc_re     = p1_valid_q || pb_valid_q;
  assign acc_ridx   = row_index(pb_valid_q ? pb_row_q : (vector_alu_q ? uop_src_row : uop_dst_row));

  // The write-back stage: P4, or with planted bug pipe_slip (GEMM) a P5
  // register stage after it.
  reg                  p5_valid_q, p5_out_we_q;
  reg [ROW_W-1:0]      p5_row_q;
  reg [ACC_ELEM_W-1:0] p5_result_q;
  reg [OUT_ELEM_W-1:0] p4_out_q, p5_out_q;
  wire                  wb_valid  = pipe_slip_q ? p5_valid_q : p4_valid_q;
  wire [ROW_W-1:0]      wb_row    = pipe_slip_q ? p5_row_q : p4_row_q;
  wire [ACC_ELEM_W-1:0] wb_result = pipe_slip_q ? p5_result_q : p4_result_q;
  wire [OUT_ELEM_W-1:0] wb_out    = pipe_slip_q ? p5_out_q : p4_out_q;
  wire                  wb_out_we = pipe_slip_q ? p5_out_we_q : p4_out_we_q;
  // The acc write port of this cycle: the write-back stage or a LOAD ACC row.
  assign acc_we    = wb_valid || (dma_we && !dma_uop_q);
  assign acc_widx  = wb_valid ? row_index(wb_row) : dma_idx;
  assign acc_wdata = wb_valid ? wb_result : dma_wdata;
  // Forwarding looks at the pipeline's own write-back only: a LOAD ACC's
  // rows all land before D and compute starts nothing before D+1, so no
  // GEMM/ALU operand read can miss one (and the operands stay independent
  // of the memory's R channel).  Rows compared as acc rows (*_acc_row,
  // LOG_ACC_DEPTH bits).
  wire [LOG_ACC_DEPTH-1:0] wb_acc_row      = wb_row[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] prev_wb_acc_row = prev_wb_row_q[LOG_ACC_DEPTH-1:0];
  // dst operand: arrives in P2 (read in the previous cycle), used in P3
  wire [LOG_ACC_DEPTH-1:0] p2_row = p2_row_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p3_row = p3_row_q[LOG_ACC_DEPTH-1:0];
  // (with pipe_slip, P4 holds a result not yet written: the newest of all)
  wire [LOG_ACC_DEPTH-1:0] p4_row = p4_row_q[LOG_ACC_DEPTH-1:0];
  wire                     p4_in_flight = pipe_slip_q && p4_valid_q;
  // src operand (vector ALU): arrives in PB, held through P2, used in P3;
  // its row travels with it (the next uop's P1 overlaps this one's P2)
  reg  [ROW_W-1:0]         pb_src_row_q, p2_src_row_q, p3_src_row_q;
  wire [LOG_ACC_DEPTH-1:0] pb_src_row = pb_src_row_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p2_src_row = p2_src_row_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p3_src_row = p3_src_row_q[LOG_ACC_DEPTH-1:0];
  // The forwarding decisions: is the newest value of an operand's row the
  // in-flight P4 result (pipe_slip), the current write-back or the previous
  // cycle's (prev_wb)?  One-bit selects, newest first; each 512-bit operand
  // is then one selection, formed only in the stage that holds a uop (a
  // simulator copies one source, and nothing in the other cycles; the
  // registers keep their value while nothing uses them).
  wire p2_dst_from_p4   = p4_in_flight    && p4_row          == p2_row;
  wire p2_dst_from_wb   = wb_valid        && wb_acc_row      == p2_row;
  wire p2_dst_from_prev = prev_wb_valid_q && prev_wb_acc_row == p2_row;
  wire p2_src_from_wb   = wb_valid        && wb_acc_row      == p2_src_row;
  wire pb_src_from_wb   = wb_valid        && wb_acc_row      == pb_src_row;
  wire pb_src_from_prev = prev_wb_valid_q && prev_wb_acc_row == pb_src_row;
  wire p3_dst_from_p4   = p4_in_flight    && p4_row          == p3_row;
  wire p3_dst_from_wb   = wb_valid        && wb_acc_row      == p3_row;
  wire p3_src_from_wb   = wb_valid        && wb_acc_row      == p3_src_row;
  reg [ACC_ELEM_W-1:0] acc_dst_d, acc_src_d;
  /*verilator tracing_off*/
  // (P3's operands and lane temporaries are locals of a simulator's
  // evaluation, not traced state: waves show acc_dst_q, acc_src_q and the
  // results)
  reg [ACC_ELEM_W-1:0] acc_dst_use, acc_src_use;
  /*verilator tracing_on*/
  always @(*) begin
    acc_dst_d   = acc_dst_q;
    acc_src_d   = acc_src_q;
    acc_dst_use = acc_dst_q;
    acc_src_use = acc_src_q;
    if (p2_valid_q) begin
      if (p2_dst_from_p4)        acc_dst_d = p4_result_q;
      else if (p2_dst_from_wb)   acc_dst_d = wb_result;
      else if (p2_dst_from_prev) acc_dst_d = prev_wb_result_q;
      else                       acc_dst_d = acc_rdata;
      if (p2_src_from_wb)        acc_src_d = wb_result;
    end
    if (pb_valid_q) begin
      if (pb_src_from_wb)        acc_src_d = wb_result;
      else if (pb_src_from_prev) acc_src_d = prev_wb_result_q;
      else                       acc_src_d = acc_rdata;
    end
    if (p3_valid_q) begin
      if (p3_dst_from_p4)        acc_dst_use = p4_result_q;
      else if (p3_dst_from_wb)   acc_dst_use = wb_result;
      if (p3_src_from_wb)        acc_src_use = wb_result;
    end
  end

  // P2: the dot products (mac_array.v), only when an accumulating GEMM uop
  // (not reset_reg) is in P2 (the same hardware; a simulator skips the
  // multiplications in other cycles).
  // The weight tile comes in the weight scratchpad's order (wgt_tile.vh).
  wire [ALU_W*LANES-1:0] dot;
  mac_array u_mac (.en(p2_valid_q && mac_uop), .inp(inp_rdata), .wgt(wgt_rdata), .dot(dot));

  // P3: the results, lane by lane
  reg [ACC_ELEM_W-1:0] result;
  reg [OUT_ELEM_W-1:0] result_out;
  /*verilator tracing_off*/
  integer lane;
  reg [ALU_W-1:0] lane_a, lane_b, lane_result;
  // (kept apart: inside ?: an unsigned arm makes >>> logical)
  reg signed [ALU_W-1:0] lane_a_signed, lane_asr;
  /*verilator tracing_on*/
  always @(*) begin
    result = p4_result_q;
    result_out = p4_out_q;
    lane_a = {ALU_W{1'b0}}; lane_b = lane_a; lane_result = lane_a;
    lane_a_signed = lane_a; lane_asr = lane_a;
    // (as for the dot products; and a GEMM uop forms none of the ALU's
    // operands: one path per kind of uop, the same results)
    if (p3_valid_q && !alu_q && reset_reg_q) begin
      result     = {ACC_ELEM_W{1'b0}};
      result_out = {OUT_ELEM_W{1'b0}};
    end else if (p3_valid_q && !alu_q) begin
      // the lanes' sums, then their low OUT_WIDTH bits (two passes: a
      // simulator adds the lanes as one vector)
      for (lane = 0; lane < LANES; lane = lane + 1) begin
        lane_a = {{(ALU_W-ACC_WIDTH){acc_dst_use[lane*ACC_WIDTH+ACC_WIDTH-1]}},
                  acc_dst_use[lane*ACC_WIDTH +: ACC_WIDTH]};
        lane_result = lane_a + dot_q[lane*ALU_W +: ALU_W];
        result[lane*ACC_WIDTH +: ACC_WIDTH] = lane_result[ACC_WIDTH-1:0];
      end
      for (lane = 0; lane < LANES; lane = lane + 1)
        result_out[lane*OUT_WIDTH +: OUT_WIDTH] = result[lane*ACC_WIDTH +: OUT_WIDTH];
    end else if (p3_valid_q) begin
      for (lane = 0; lane < LANES; lane = lane + 1) begin
        lane_a = {{(ALU_W-ACC_WIDTH){acc_dst_use[lane*ACC_WIDTH+ACC_WIDTH-1]}},
                  acc_dst_use[lane*ACC_WIDTH +: ACC_WIDTH]};
        lane_b = use_imm_q ? imm_q
               : {{(ALU_W-ACC_WIDTH){acc_src_use[lane*ACC_WIDTH+ACC_WIDTH-1]}},
                  acc_src_use[lane*ACC_WIDTH +: ACC_WIDTH]};
        lane_a_signed = lane_a;
        lane_asr      = lane_a_signed >>> lane_b[SHIFT_W-1:0];
        case (alu_opcode_q)
          ALU_MIN[ALU_OP_W-1:0]: lane_result = $signed(lane_a) < $signed(lane_b) ? lane_a : lane_b;
          ALU_MAX[ALU_OP_W-1:0]: lane_result = $signed(lane_a) > $signed(lane_b) ? lane_a : lane_b;
          ALU_ADD[ALU_OP_W-1:0]: lane_result = lane_a + lane_b;
          ALU_SHR[ALU_OP_W-1:0]: lane_result = lane_b[ALU_W-1]
                                             ? lane_a << ((~lane_b[SHIFT_W-1:0]) + SHIFT_ONE)
                                             : lane_asr;
          default:      lane_result = lane_a;   // MUL is not part of the contract (docs/isa.md 12.4)
        endcase
        result[lane*ACC_WIDTH +: ACC_WIDTH]     = lane_result[ACC_WIDTH-1:0];
        result_out[lane*OUT_WIDTH +: OUT_WIDTH] = lane_result[OUT_WIDTH-1:0];
      end
    end
  end
  assign out_we    = wb_valid && wb_out_we;
  assign out_widx  = row_index(wb_row);
  assign out_wdata = wb_out;
  assign add_ucnt  = wb_valid;

  always @(posedge clk) begin
    if (clr) begin
      p1_valid_q <= 1'b0; pb_valid_q <= 1'b0; p2_valid_q <= 1'b0; p3_valid_q <= 1'b0;
      p4_valid_q <= 1'b0; p5_valid_q <= 1'b0;
      prev_wb_valid_q <= 1'b0;
    end else begin
      p1_valid_q <= issue;
      pb_valid_q <= p1_valid_q && vector_alu_q;
      p2_valid_q <= (p1_valid_q && !vector_alu_q) || pb_valid_q;
      p3_valid_q <= p2_valid_q;
      p4_valid_q <= p3_valid_q;
      p5_valid_q <= p4_valid_q && pipe_slip_q;
      prev_wb_valid_q <= wb_valid;
    end
  end

  always @(posedge clk) begin
    p1_dst_off_q <= dst_off_out_q + dst_off_in_q;
    p1_src_off_q <= src_off_out_q + src_off_in_q;
    p1_wgt_off_q <= wgt_off_out_q + wgt_off_in_q;
    pb_row_q     <= uop_dst_row;
    pb_src_row_q <= uop_src_row;
    p2_src_row_q <= pb_src_row_q;
    p3_src_row_q <= p2_src_row_q;
    p2_row_q     <= pb_valid_q ? pb_row_q : uop_dst_row;
    p3_row_q     <= p2_row_q;
    p4_row_q     <= p3_row_q;
    p4_out_we_q  <= alu_q || !reset_reg_q;
  end

  // The wide pipeline registers load only in the cycles their stage holds a
  // uop: their value is used only in the next stage of that uop (acc_dst_q,
  // acc_src_q in P3, dot_q and the results in P3 and P4, prev_wb_* when
  // prev_wb_valid_q).
  always @(posedge clk) begin
    if (p2_valid_q) acc_dst_q <= acc_dst_d;
    if (pb_valid_q || p2_valid_q) acc_src_q <= acc_src_d;
    if (p2_valid_q && mac_uop) dot_q <= dot;
    if (p3_valid_q) begin
      p4_result_q <= result;
      p4_out_q    <= result_out;
    end
    if (p4_valid_q && pipe_slip_q) begin
      p5_row_q    <= p4_row_q;
      p5_result_q <= p4_result_q;
      p5_out_q    <= p4_out_q;
      p5_out_we_q <= p4_out_we_q;
    end
    if (wb_valid) begin
      prev_wb_row_q    <= wb_row;
      prev_wb_result_q <= wb_result;
    end
  end
endmodule
