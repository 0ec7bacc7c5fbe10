// compute.v - the compute unit: LOAD UOP and LOAD ACC (through its tensor
// DMA, read clients uop and acc), GEMM, ALU and FINISH (docs/microarch.md
// 6.2-6.5, 6.7).  It owns the uop and acc scratchpads and writes out: every
// GEMM (not reset) and ALU result writes acc and the low OUT_WIDTH bits of
// each lane into out (spec 2.1, decision 12.1); a reset GEMM writes acc = 0.
//
// Unit skeleton (section 4, unit_skeleton.v): start when idle and l2g
// (pop_prev) and s2g (pop_next) hold the tokens it pops; push g2l
// (push_prev) and g2s (push_next) at D.  Sync NOPs (and loads of other memory types, which the
// C model rejects) take S and D = S+1; FINISH too, and D is the finish pulse.
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
// (PIPE_DONE = 6: the cycle k+4 after the last issue; S+6 when N = 0).  The acc operands follow
// the sequential semantics of spec 6.4: an operand that arrives in cycle A
// from a read presented in A-1 misses the writes of A-1 (kept one cycle in
// the h1 register) and of A onwards (the current write port), so each operand
// register takes the newest of them for its row until it is used.
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
  // inp and wgt read ports
  output wire                 sp_re,
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
  // events and counters
  output wire                 ev_start,
  output wire                 ev_done,
  output wire [QIDX_W-1:0]    ev_idx,
  output wire                 finish,
  output wire [CAT_W-1:0]     cat,
  output wire [WORD_W-1:0]    st_acc,
  output wire [WORD_W-1:0]    st_uop,
  output wire [WORD_W-1:0]    st_gemm,
  output wire [WORD_W-1:0]    st_alu,
  output wire                 c_gemm_uop,
  output wire                 c_gemm_reset,
  output wire                 c_alu_uop,
  output wire [ALU_SLOTS_W-1:0] c_alu_slots,
  output wire                 c_ucnt
);
`include "vta_params.vh"
  localparam integer LANES = BATCH * BLOCK_OUT;          // acc/out lanes
  localparam integer AWD   = ACC_ELEM_BYTES * 8;
  localparam integer OWD   = OUT_ELEM_BYTES * 8;
  localparam integer RW    = SRAM_IDX_W;                 // scratchpad rows
  localparam integer N_W   = 2 * WORD_W;                 // uops of an instruction
  localparam integer SH_W  = $clog2(ALU_W);              // an ALU shift amount
  localparam integer KIND_W  = 2;
  localparam integer DRAIN_W = $clog2(PIPE_DONE + 1);
  localparam [KIND_W-1:0] K_SYNC = 0, K_DMA = 1, K_PIPE = 2, K_FINISH = 3;
  localparam [UOP_IDX_W-1:0] U_ONE = 1;
  localparam [LOOP_W-1:0]    L_ONE = 1, L_ZERO = 0;
  localparam [RW-1:0]        R_ZERO = 0;
  // cycles from the last issue (or, N = 0, from S) to D, less one
  localparam integer         DK1 = PIPE_DONE - 2, DK2 = PIPE_DONE - 1;
  localparam [DRAIN_W-1:0]   DRAIN_K1 = DK1[DRAIN_W-1:0], DRAIN_K2 = DK2[DRAIN_W-1:0],
                             DRAIN_N0 = DK2[DRAIN_W-1:0], DRAIN_ONE = 1, DRAIN_ZERO = 0;
  localparam [ALU_SLOTS_W-1:0] SLOTS_0 = 0, SLOTS_1 = 1, SLOTS_2 = 2;
  localparam [ALU_OP_W-1:0]  ALU_OP_BIT0 = 1;
  localparam [SH_W-1:0]      SH_ONE = 1;

  // a scratchpad row as a WORD_W-bit index
  function [WORD_W-1:0] widx(input [RW-1:0] r);
    widx = {{(WORD_W-RW){1'b0}}, r};
  endfunction

  // ---- the head instruction ----------------------------------------------------
  wire [OPCODE_BITS-1:0]          opc;
  wire [MEM_TYPE_W-1:0]           mty;
  wire [INSN_MEM_X_SIZE_W-1:0]    x_size;
  wire [INSN_MEM_Y_SIZE_W-1:0]    y_size;
  wire [INSN_MEM_SRAM_BASE_W-1:0] sram_base;
  wire [INSN_MEM_DRAM_BASE_W-1:0] dram_base;
  wire [INSN_MEM_X_STRIDE_W-1:0]  x_stride;
  wire [PAD_W-1:0]                y_pad_0, y_pad_1, x_pad_0, x_pad_1;
  wire                            pop_prev, pop_next, push_prev, push_next, h_reset, h_useimm;
  wire [UOP_IDX_W-1:0]            h_ubgn, h_uend;
  wire [LOOP_W-1:0]               h_iout, h_iin;
  wire [RW-1:0]                   h_dfo, h_dfi, h_sfo, h_sfi, h_wfo, h_wfi;
  wire [ALU_OP_W-1:0]             h_aop;
  wire [IMM_W-1:0]                h_imm;
  /* verilator lint_off PINCONNECTEMPTY */
  insn_decode u_dec (
    .insn(head[INSN_W-1:0]), .opcode(opc), .pop_prev(pop_prev), .pop_next(pop_next),
    .push_prev(push_prev), .push_next(push_next), .unit(), .mem_type(mty),
    .sram_base(sram_base), .dram_base(dram_base), .y_size(y_size), .x_size(x_size),
    .x_stride(x_stride), .y_pad_0(y_pad_0), .y_pad_1(y_pad_1), .x_pad_0(x_pad_0),
    .x_pad_1(x_pad_1), .reset_reg(h_reset), .uop_bgn(h_ubgn), .uop_end(h_uend),
    .iter_out(h_iout), .iter_in(h_iin), .dst_factor_out(h_dfo), .dst_factor_in(h_dfi),
    .src_factor_out(h_sfo), .src_factor_in(h_sfi), .wgt_factor_out(h_wfo),
    .wgt_factor_in(h_wfi), .alu_opcode(h_aop), .use_imm(h_useimm), .imm(h_imm));
  /* verilator lint_on PINCONNECTEMPTY */
  wire        is_alu   = opc == OP_ALU[OPCODE_BITS-1:0];
  wire        is_gemm  = opc == OP_GEMM[OPCODE_BITS-1:0];
  wire        is_load  = opc == OP_LOAD[OPCODE_BITS-1:0];
  wire        ld_uop   = is_load && mty == MEM_UOP[MEM_TYPE_W-1:0] && |x_size;
  wire        ld_acc   = is_load && mty == MEM_ACC[MEM_TYPE_W-1:0] && |x_size;
  wire [KIND_W-1:0] kind = (ld_uop || ld_acc) ? K_DMA : (is_alu || is_gemm) ? K_PIPE
                         : opc == OP_FINISH[OPCODE_BITS-1:0] ? K_FINISH : K_SYNC;
  // N = iter_out * iter_in * (uop_end - uop_bgn), in N_W bits
  function [N_W-1:0] uops(input [LOOP_W-1:0] iout, input [LOOP_W-1:0] iin,
                          input [UOP_IDX_W-1:0] bgn, input [UOP_IDX_W-1:0] nd);
    uops = {{(N_W-LOOP_W){1'b0}}, iout} * {{(N_W-LOOP_W){1'b0}}, iin}
         * (nd > bgn ? {{(N_W-UOP_IDX_W){1'b0}}, nd - bgn} : {N_W{1'b0}});
  endfunction

  // ---- skeleton ------------------------------------------------------------------
  reg [KIND_W-1:0] kind_q;
  wire             dma_done, dma_act, pipe_done, start, done, busy;
  /* verilator lint_off PINCONNECTEMPTY */
  unit_skeleton #(.USE_PREV(1), .USE_NEXT(1), .Q_PREV(Q_L2G), .Q_NEXT(Q_S2G)) u_skel (
    .clk(clk), .clr(clr), .run(run), .q_empty(q_empty), .head_idx(head[QIDX_LSB +: QIDX_W]),
    .pop_prev(pop_prev), .pop_next(pop_next), .push_prev(push_prev), .push_next(push_next),
    .prev_nz(l2g_nz), .next_nz(s2g_nz),
    .fin(kind_q == K_SYNC || kind_q == K_FINISH || (kind_q == K_DMA && dma_done) ||
         (kind_q == K_PIPE && pipe_done)),
    .act(kind_q != K_DMA || dma_act), .start(start), .done(done), .busy(busy),
    .pop_prev_o(pop_l2g), .pop_next_o(pop_s2g), .push_prev_o(push_g2l),
    .push_next_o(push_g2s), .idx(ev_idx), .cat(cat));
  /* verilator lint_on PINCONNECTEMPTY */

  assign q_pop    = done;
  assign finish   = done && kind_q == K_FINISH;
  assign ev_start = start;
  assign ev_done  = done;
  // The head's uop counts (and xy, LOAD UOP/ACC's elements) are used only in
  // its start cycle (S): formed only then (the same values where they are
  // used; a simulator skips the multiplications in the other cycles).
  reg [N_W-1:0]       h_n, e_n;
  reg [UOP_IDX_W-1:0] e_uend;
  reg [WORD_W-1:0]    xy;
  always @(*) begin
    h_n    = {N_W{1'b0}};
    e_n    = h_n;
    e_uend = h_uend;
    xy     = {WORD_W{1'b0}};
    if (start) begin
      h_n    = uops(h_iout, h_iin, h_ubgn, h_uend);
      // planted bug uop_bound: the uop loop ends at uop_end - 1 (N' uops)
      if (inject == INJECT_UOP_BOUND[INJECT_W-1:0] && |h_n) e_uend = h_uend - U_ONE;
      e_n    = uops(h_iout, h_iin, h_ubgn, e_uend);
      xy     = {{(WORD_W-INSN_MEM_X_SIZE_W){1'b0}}, x_size}
             * {{(WORD_W-INSN_MEM_Y_SIZE_W){1'b0}}, y_size};
    end
  end
  assign st_uop   = (start && ld_uop) ? xy << LOG_UOP_ELEM_BYTES : {WORD_W{1'b0}};
  assign st_acc   = (start && ld_acc) ? xy << LOG_ACC_ELEM_BYTES : {WORD_W{1'b0}};
  assign st_gemm  = (start && is_gemm && !h_reset) ? h_n[WORD_W-1:0] : {WORD_W{1'b0}};
  assign st_alu   = (start && is_alu) ? h_n[WORD_W-1:0] : {WORD_W{1'b0}};
  /* verilator lint_off UNUSEDSIGNAL */
  // rows wrap at the scratchpad depth, as in hardware
  wire unused_ok = &{1'b0, h1_row_q[RW-1:LOG_ACC_DEPTH], p3_srow_q[RW-1:LOG_ACC_DEPTH],
                     h_n[N_W-1:WORD_W]};
  /* verilator lint_on UNUSEDSIGNAL */

  always @(posedge clk) begin
    if (start) kind_q <= kind;
  end

  // ---- LOAD UOP / LOAD ACC ---------------------------------------------------------
  reg         dma_uop_q;
  wire        dma_we;
  wire [WORD_W-1:0] dma_idx;
  wire [AWD-1:0] dma_wdata;
  always @(posedge clk) begin
    if (start) dma_uop_q <= ld_uop;
  end
  dma_rd #(.EB(ACC_ELEM_BYTES), .NS(BUS_BYTES / UOP_ELEM_BYTES)) u_dma (
    .clk(clk), .clr(clr), .start(start && kind == K_DMA),
    .client(ld_uop ? RD_UOP[RD_ID_W-1:0] : RD_ACC[RD_ID_W-1:0]),
    .log_e(ld_uop ? LOG_UOP_ELEM_BYTES[LOG_E_W-1:0] : LOG_ACC_ELEM_BYTES[LOG_E_W-1:0]),
    .is_uop(ld_uop), .sram_base(sram_base), .dram_base(dram_base),
    .y_size(y_size), .x_size(x_size), .x_stride(x_stride),
    .y_pad_0(y_pad_0), .y_pad_1(y_pad_1), .x_pad_0(x_pad_0), .x_pad_1(x_pad_1),
    .win_mask(win_mask), .pad_up(inject == INJECT_PAD_ROW[INJECT_W-1:0]),
    .req_valid(req_valid), .req_addr(req_addr), .req_bytes(req_bytes), .req_beats(req_beats),
    .grant(grant), .m_rvalid(m_rvalid), .m_rid(m_rid), .m_rdata(m_rdata),
    .wr_en(dma_we), .wr_idx(dma_idx), .wr_data(dma_wdata),
    .uop_we(uop_we), .uop_idx(uop_widx), .done(dma_done), .act(dma_act));
  assign req_client = dma_uop_q ? RD_UOP[RD_ID_W-1:0] : RD_ACC[RD_ID_W-1:0];

  // ---- GEMM / ALU: the instruction and its loops -------------------------------------
  reg         alu_q, k2_q, reset_q, useimm_q, slip_q;
  reg [ALU_OP_W-1:0]  aop_q;
  reg [ALU_W-1:0]     imm_q;
  reg [UOP_IDX_W-1:0] ubgn_q, uend_q, u_q, u_d;
  reg [LOOP_W-1:0]    iout_q, iin_q, j_q, j_d, i_q, i_d;
  reg [RW-1:0]        dfo_q, dfi_q, sfo_q, sfi_q, wfo_q, wfi_q;
  reg                 iss_q, iss_d, wait_q, wait_d, dact_q, dact_d;
  reg [DRAIN_W-1:0]   drain_q, drain_d;
  reg [RW-1:0]        dout_q, dout_d, din_q, din_d, sout_q, sout_d, sin_q, sin_d;
  reg [RW-1:0]        wout_q, wout_d, win_q, win_d;

  wire pstart = start && kind == K_PIPE;
  wire issue  = busy && kind_q == K_PIPE && iss_q && !wait_q;
  assign pipe_done = dact_q && drain_q == DRAIN_ZERO;
  assign uop_re    = issue;
  assign uop_ridx  = {{(WORD_W-UOP_IDX_W){1'b0}}, u_q};
  assign c_gemm_uop   = issue && !alu_q;
  assign c_gemm_reset = issue && !alu_q && reset_q;
  assign c_alu_uop    = issue && alu_q;
  assign c_alu_slots  = (issue && alu_q) ? (k2_q ? SLOTS_2 : SLOTS_1) : SLOTS_0;

  always @(*) begin
    iss_d = iss_q; wait_d = wait_q; dact_d = dact_q; drain_d = drain_q;
    u_d = u_q; j_d = j_q; i_d = i_q;
    dout_d = dout_q; din_d = din_q; sout_d = sout_q; sin_d = sin_q; wout_d = wout_q; win_d = win_q;
    if (wait_q) wait_d = 1'b0;
    if (dact_q && drain_q != DRAIN_ZERO) drain_d = drain_q - DRAIN_ONE;
    if (issue) begin
      wait_d = k2_q;
      if (u_q + U_ONE != uend_q) begin
        u_d = u_q + U_ONE;
      end else begin
        u_d = ubgn_q;
        if (j_q + L_ONE != iin_q) begin
          j_d = j_q + L_ONE;
          din_d = din_q + dfi_q; sin_d = sin_q + sfi_q; win_d = win_q + wfi_q;
        end else begin
          j_d = L_ZERO;
          din_d = R_ZERO; sin_d = R_ZERO; win_d = R_ZERO;
          if (i_q + L_ONE != iout_q) begin
            i_d = i_q + L_ONE;
            dout_d = dout_q + dfo_q; sout_d = sout_q + sfo_q; wout_d = wout_q + wfo_q;
          end else begin
            iss_d   = 1'b0;          // the last uop: D = X + k + 4 (+1: pipe_slip)
            dact_d  = 1'b1;
            drain_d = (k2_q ? DRAIN_K2 : DRAIN_K1) + (slip_q ? DRAIN_ONE : DRAIN_ZERO);
          end
        end
      end
    end
    if (pipe_done) dact_d = 1'b0;
    if (pstart) begin
      iss_d   = |e_n;
      wait_d  = 1'b1;               // first issue at S+2
      dact_d  = ~|e_n;              // N = 0: D = S + PIPE_DONE (+1: pipe_slip)
      drain_d = DRAIN_N0 + ((is_gemm && inject == INJECT_PIPE_SLIP[INJECT_W-1:0])
                            ? DRAIN_ONE : DRAIN_ZERO);
      u_d = h_ubgn; j_d = L_ZERO; i_d = L_ZERO;
      dout_d = R_ZERO; din_d = R_ZERO; sout_d = R_ZERO; sin_d = R_ZERO; wout_d = R_ZERO;
      win_d = R_ZERO;
    end
  end

  always @(posedge clk) begin
    if (clr) begin
      iss_q  <= 1'b0;
      dact_q <= 1'b0;
    end else begin
      iss_q  <= iss_d;
      dact_q <= dact_d;
    end
  end

  always @(posedge clk) begin
    wait_q <= wait_d; drain_q <= drain_d;
    u_q <= u_d; j_q <= j_d; i_q <= i_d;
    dout_q <= dout_d; din_q <= din_d; sout_q <= sout_d; sin_q <= sin_d;
    wout_q <= wout_d; win_q <= win_d;
    if (pstart) begin
      alu_q    <= is_alu;
      k2_q     <= is_alu && !h_useimm;
      reset_q  <= is_gemm && h_reset;
      useimm_q <= h_useimm;
      // planted bug alu_opcode: bit 0 of the ALU opcode is lost
      aop_q    <= inject == INJECT_ALU_OPCODE[INJECT_W-1:0] ? h_aop & ~ALU_OP_BIT0 : h_aop;
      slip_q   <= is_gemm && inject == INJECT_PIPE_SLIP[INJECT_W-1:0];
      imm_q    <= {{(ALU_W-IMM_W){h_imm[IMM_W-1]}}, h_imm};
      ubgn_q   <= h_ubgn;
      uend_q   <= e_uend;
      iout_q   <= h_iout;
      iin_q    <= h_iin;
      dfo_q    <= h_dfo;
      dfi_q    <= h_dfi;
      sfo_q    <= h_sfo;
      sfi_q    <= h_sfi;
      wfo_q    <= is_alu ? R_ZERO : h_wfo;
      wfi_q    <= is_alu ? R_ZERO : h_wfi;
    end
  end

  // ---- the pipeline ----------------------------------------------------------------
  reg          p1_v_q, pb_v_q, p2_v_q, p3_v_q, p4_v_q;
  reg [RW-1:0]   p1_do_q, p1_so_q, p1_wo_q;
  reg [RW-1:0]   pb_row_q, p2_row_q, p3_row_q, p4_row_q;
  reg          p4_wout_q;
  reg [AWD-1:0] p4_res_q;
  reg [AWD-1:0] op_q, src_q;        // acc operands (dst, and src for a vector ALU op)
  reg [ALU_W*LANES-1:0] dot_q;      // GEMM dot products, ALU_W bits per lane
  reg          h1_we_q;             // the write-back of the previous cycle
  reg [RW-1:0]   h1_row_q;
  reg [AWD-1:0] h1_data_q;

  // P1: indices
  wire [RW-1:0] u_dst = {{(RW-UOP_DST_W){1'b0}}, uop_rdata[UOP_DST_LSB +: UOP_DST_W]} + p1_do_q;
  wire [RW-1:0] u_src = {{(RW-UOP_SRC_W){1'b0}}, uop_rdata[UOP_SRC_LSB +: UOP_SRC_W]} + p1_so_q;
  wire [RW-1:0] u_wgt = {{(RW-UOP_WGT_W){1'b0}}, uop_rdata[UOP_WGT_LSB +: UOP_WGT_W]} + p1_wo_q;
  // (a GEMM with reset_reg writes zeros: it reads no inp/wgt and forms no
  // dot products)
  wire   mac_uop  = !alu_q && !reset_q;
  assign sp_re    = p1_v_q && mac_uop;
  assign inp_ridx = widx(u_src);
  assign wgt_ridx = widx(u_wgt);
  assign acc_re   = p1_v_q || pb_v_q;
  assign acc_ridx = widx(pb_v_q ? pb_row_q : (k2_q ? u_src : u_dst));

  // The write-back stage: P4, or with planted bug pipe_slip (GEMM) a P5
  // register stage after it.
  reg          p5_v_q, p5_wout_q;
  reg [RW-1:0]   p5_row_q;
  reg [AWD-1:0] p5_res_q;
  reg [OWD-1:0] p4_out_q, p5_out_q;
  wire          wb_v    = slip_q ? p5_v_q : p4_v_q;
  wire [RW-1:0]   wb_row  = slip_q ? p5_row_q : p4_row_q;
  wire [AWD-1:0] wb_res = slip_q ? p5_res_q : p4_res_q;
  wire [OWD-1:0] wb_out = slip_q ? p5_out_q : p4_out_q;
  wire          wb_wout = slip_q ? p5_wout_q : p4_wout_q;
  // The acc write port of this cycle: the write-back stage or a LOAD ACC row.
  assign acc_we    = wb_v || (dma_we && !dma_uop_q);
  assign acc_widx  = wb_v ? widx(wb_row) : dma_idx;
  assign acc_wdata = wb_v ? wb_res : dma_wdata;
  // Forwarding looks at the pipeline's own write-back only: a LOAD ACC's
  // rows all land before D and compute starts nothing before D+1, so no
  // GEMM/ALU operand read can miss one (and the operands stay independent
  // of the memory's R channel).
  wire [LOG_ACC_DEPTH-1:0] cur_row = wb_row[LOG_ACC_DEPTH-1:0];

  wire [LOG_ACC_DEPTH-1:0] h1_row = h1_row_q[LOG_ACC_DEPTH-1:0];
  // dst operand: arrives in P2 (read in the previous cycle), used in P3
  wire [LOG_ACC_DEPTH-1:0] p2_row = p2_row_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p3_row = p3_row_q[LOG_ACC_DEPTH-1:0];
  // (with pipe_slip, P4 holds a result not yet written: the newest of all)
  wire [LOG_ACC_DEPTH-1:0] p4_row = p4_row_q[LOG_ACC_DEPTH-1:0];
  wire           p4_fly    = slip_q && p4_v_q;
  // src operand (vector ALU): arrives in PB, held through P2, used in P3;
  // its row travels with it (the next uop's P1 overlaps this one's P2)
  reg  [RW-1:0]    pb_srow_q, p2_srow_q, p3_srow_q;
  wire [LOG_ACC_DEPTH-1:0] pb_srow = pb_srow_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p2_srow = p2_srow_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p3_srow = p3_srow_q[LOG_ACC_DEPTH-1:0];
  // The forwarding decisions: is the newest value of an operand's row the
  // in-flight P4 result (pipe_slip), the current write-back or the previous
  // cycle's (h1)?  One-bit selects, newest first; each 512-bit operand is
  // then one selection, formed only in the stage that holds a uop (a
  // simulator copies one source, and nothing in the other cycles; the
  // registers keep their value while nothing uses them).
  wire p2_f4 = p4_fly  && p4_row  == p2_row;
  wire p2_fw = wb_v    && cur_row == p2_row;
  wire p2_fh = h1_we_q && h1_row  == p2_row;
  wire p2_sw = wb_v    && cur_row == p2_srow;
  wire pb_sw = wb_v    && cur_row == pb_srow;
  wire pb_sh = h1_we_q && h1_row  == pb_srow;
  wire p3_f4 = p4_fly  && p4_row  == p3_row;
  wire p3_fw = wb_v    && cur_row == p3_row;
  wire p3_sw = wb_v    && cur_row == p3_srow;
  reg [AWD-1:0] op_d, src_d;
  /*verilator tracing_off*/
  // (P3's operands and lane temporaries are locals of a simulator's
  // evaluation, not traced state: waves show op_q, src_q and the results)
  reg [AWD-1:0] op_use, src_use;
  /*verilator tracing_on*/
  always @(*) begin
    op_d    = op_q;
    src_d   = src_q;
    op_use  = op_q;
    src_use = src_q;
    if (p2_v_q) begin
      if (p2_f4)      op_d = p4_res_q;
      else if (p2_fw) op_d = wb_res;
      else if (p2_fh) op_d = h1_data_q;
      else            op_d = acc_rdata;
      if (p2_sw)      src_d = wb_res;
    end
    if (pb_v_q) begin
      if (pb_sw)      src_d = wb_res;
      else if (pb_sh) src_d = h1_data_q;
      else            src_d = acc_rdata;
    end
    if (p3_v_q) begin
      if (p3_f4)      op_use = p4_res_q;
      else if (p3_fw) op_use = wb_res;
      if (p3_sw)      src_use = wb_res;
    end
  end

  // P2: the dot products (mac_array.v), only when an accumulating GEMM uop
  // (not reset_reg) is in P2 (the same hardware; a simulator skips the
  // multiplications in other cycles).
  // The weight tile comes in the weight scratchpad's order (wgt_tile.vh).
  wire [ALU_W*LANES-1:0] dot;
  mac_array u_mac (.en(p2_v_q && mac_uop), .inp(inp_rdata), .wgt(wgt_rdata), .dot(dot));

  // P3: the results, lane by lane
  reg [AWD-1:0] res;
  reg [OWD-1:0] res_out;
  /*verilator tracing_off*/
  integer l;
  reg [ALU_W-1:0] la, lb, lr;
  reg signed [ALU_W-1:0] la_s, asr;    // kept apart: inside ?: an unsigned arm makes >>> logical
  /*verilator tracing_on*/
  always @(*) begin
    res = p4_res_q;
    res_out = p4_out_q;
    la = {ALU_W{1'b0}}; lb = la; lr = la; la_s = la; asr = la;
    // (as for the dot products; and a GEMM uop forms none of the ALU's
    // operands: one path per kind of uop, the same results)
    if (p3_v_q && !alu_q && reset_q) begin
      res     = {AWD{1'b0}};
      res_out = {OWD{1'b0}};
    end else if (p3_v_q && !alu_q) begin
      // the lanes' sums, then their low OUT_WIDTH bits (two passes: a
      // simulator adds the lanes as one vector)
      for (l = 0; l < LANES; l = l + 1) begin
        la = {{(ALU_W-ACC_WIDTH){op_use[l*ACC_WIDTH+ACC_WIDTH-1]}}, op_use[l*ACC_WIDTH +: ACC_WIDTH]};
        lr = la + dot_q[l*ALU_W +: ALU_W];
        res[l*ACC_WIDTH +: ACC_WIDTH] = lr[ACC_WIDTH-1:0];
      end
      for (l = 0; l < LANES; l = l + 1)
        res_out[l*OUT_WIDTH +: OUT_WIDTH] = res[l*ACC_WIDTH +: OUT_WIDTH];
    end else if (p3_v_q) begin
      for (l = 0; l < LANES; l = l + 1) begin
        la = {{(ALU_W-ACC_WIDTH){op_use[l*ACC_WIDTH+ACC_WIDTH-1]}}, op_use[l*ACC_WIDTH +: ACC_WIDTH]};
        lb = useimm_q ? imm_q
           : {{(ALU_W-ACC_WIDTH){src_use[l*ACC_WIDTH+ACC_WIDTH-1]}}, src_use[l*ACC_WIDTH +: ACC_WIDTH]};
        la_s = la;
        asr  = la_s >>> lb[SH_W-1:0];
        case (aop_q)
          ALU_MIN[ALU_OP_W-1:0]: lr = ($signed(la) < $signed(lb)) ? la : lb;
          ALU_MAX[ALU_OP_W-1:0]: lr = ($signed(la) > $signed(lb)) ? la : lb;
          ALU_ADD[ALU_OP_W-1:0]: lr = la + lb;
          ALU_SHR[ALU_OP_W-1:0]: lr = lb[ALU_W-1] ? la << ((~lb[SH_W-1:0]) + SH_ONE) : asr;
          default:      lr = la;   // MUL is not part of the contract (spec 12.4)
        endcase
        res[l*ACC_WIDTH +: ACC_WIDTH]     = lr[ACC_WIDTH-1:0];
        res_out[l*OUT_WIDTH +: OUT_WIDTH] = lr[OUT_WIDTH-1:0];
      end
    end
  end
  assign out_we    = wb_v && wb_wout;
  assign out_widx  = widx(wb_row);
  assign out_wdata = wb_out;
  assign c_ucnt    = wb_v;

  always @(posedge clk) begin
    if (clr) begin
      p1_v_q <= 1'b0; pb_v_q <= 1'b0; p2_v_q <= 1'b0; p3_v_q <= 1'b0; p4_v_q <= 1'b0;
      p5_v_q <= 1'b0;
      h1_we_q <= 1'b0;
    end else begin
      p1_v_q <= issue;
      pb_v_q <= p1_v_q && k2_q;
      p2_v_q <= (p1_v_q && !k2_q) || pb_v_q;
      p3_v_q <= p2_v_q;
      p4_v_q <= p3_v_q;
      p5_v_q <= p4_v_q && slip_q;
      h1_we_q <= wb_v;
    end
  end

  always @(posedge clk) begin
    p1_do_q <= dout_q + din_q;
    p1_so_q <= sout_q + sin_q;
    p1_wo_q <= wout_q + win_q;
    pb_row_q <= u_dst;
    pb_srow_q <= u_src;
    p2_srow_q <= pb_srow_q;
    p3_srow_q <= p2_srow_q;
    p2_row_q <= pb_v_q ? pb_row_q : u_dst;
    p3_row_q <= p2_row_q;
    p4_row_q <= p3_row_q;
    p4_wout_q <= alu_q || !reset_q;
  end

  // The wide pipeline registers load only in the cycles their stage holds a
  // uop: their value is used only in the next stage of that uop (op_q, src_q
  // in P3, dot_q and the results in P3 and P4, h1 when h1_we_q).
  always @(posedge clk) begin
    if (p2_v_q) op_q <= op_d;
    if (pb_v_q || p2_v_q) src_q <= src_d;
    if (p2_v_q && mac_uop) dot_q <= dot;
    if (p3_v_q) begin
      p4_res_q <= res;
      p4_out_q <= res_out;
    end
    if (p4_v_q && slip_q) begin
      p5_row_q  <= p4_row_q;
      p5_res_q  <= p4_res_q;
      p5_out_q  <= p4_out_q;
      p5_wout_q <= p4_wout_q;
    end
    if (wb_v) begin
      h1_row_q  <= wb_row;
      h1_data_q <= wb_res;
    end
  end
endmodule
