// compute.v - the compute unit: LOAD UOP and LOAD ACC (through its tensor
// DMA, read clients uop and acc), GEMM, ALU and FINISH (docs/microarch.md
// 6.2-6.5, 6.7).  It owns the uop and acc scratchpads and writes out: every
// GEMM (not reset) and ALU result writes acc and the low OUT_WIDTH bits of
// each lane into out (spec 2.1, decision 12.1); a reset GEMM writes acc = 0.
//
// Unit skeleton (section 4): start when idle and l2g (pop_prev) and s2g
// (pop_next) hold the tokens it pops; push g2l (push_prev) and g2s
// (push_next) at D.  Sync NOPs (and loads of other memory types, which the
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
// so results are written in S + 6 + k*i + (k-1) and D = S + k*N + 6 (the
// cycle k+4 after the last issue; S+6 when N = 0).  The acc operands follow
// the sequential semantics of spec 6.4: an operand that arrives in cycle A
// from a read presented in A-1 misses the writes of A-1 (kept one cycle in
// the h1 register) and of A onwards (the current write port), so each operand
// register takes the newest of them for its row until it is used.
module compute (
  input  wire          clk,
  input  wire          clr,
  input  wire          run,
  input  wire [2:0]    inject,      // planted bug (VTA_INJECT builds): uop_bound,
                                    // alu_opcode, pipe_slip, pad_row
  input  wire [159:0]  head,
  input  wire          q_empty,
  output wire          q_pop,
  input  wire          l2g_nz,
  input  wire          s2g_nz,
  output wire          pop_l2g,
  output wire          pop_s2g,
  output wire          push_g2l,
  output wire          push_g2s,
  input  wire [31:0]   win_mask,
  // read client uop or acc
  output wire          req_valid,
  output wire [2:0]    req_client,
  output wire [31:0]   req_addr,
  output wire [31:0]   req_bytes,
  output wire [8:0]    req_beats,
  input  wire          grant,
  input  wire          m_rvalid,
  input  wire [2:0]    m_rid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  // uop scratchpad: LOAD UOP writes slots of a beat, the pipeline reads
  output wire [BUS_BYTES/4-1:0] uop_we,
  output wire [31:0]   uop_widx,
  output wire          uop_re,
  output wire [31:0]   uop_ridx,
  input  wire [31:0]   uop_rdata,
  // inp and wgt read ports
  output wire          sp_re,
  output wire [31:0]   inp_ridx,
  output wire [31:0]   wgt_ridx,
  input  wire [INP_ELEM_BYTES*8-1:0] inp_rdata,
  input  wire [WGT_ELEM_BYTES*8-1:0] wgt_rdata,
  // acc read and write ports, out write port
  output wire          acc_re,
  output wire [31:0]   acc_ridx,
  input  wire [ACC_ELEM_BYTES*8-1:0] acc_rdata,
  output wire          acc_we,
  output wire [31:0]   acc_widx,
  output wire [ACC_ELEM_BYTES*8-1:0] acc_wdata,
  output wire          out_we,
  output wire [31:0]   out_widx,
  output wire [OUT_ELEM_BYTES*8-1:0] out_wdata,
  // events and counters
  output wire          ev_start,
  output wire          ev_done,
  output wire [31:0]   ev_idx,
  output wire          finish,
  output reg  [2:0]    cat,
  output wire [31:0]   st_acc,
  output wire [31:0]   st_uop,
  output wire [31:0]   st_gemm,
  output wire [31:0]   st_alu,
  output wire          c_gemm_uop,
  output wire          c_gemm_reset,
  output wire          c_alu_uop,
  output wire [1:0]    c_alu_slots,
  output wire          c_ucnt
);
`include "vta_params.vh"
  localparam integer LANES = BATCH * BLOCK_OUT;          // acc/out lanes
  localparam integer AWD   = ACC_ELEM_BYTES * 8;
  localparam integer OWD   = OUT_ELEM_BYTES * 8;
  localparam [2:0] K_SYNC = 3'd0, K_DMA = 3'd1, K_PIPE = 3'd2, K_FINISH = 3'd3;

  function [31:0] fld(input [127:0] w, input integer lsb, input integer width);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [127:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
      t   = w >> lsb;
      fld = t[31:0] & ((width >= 32) ? 32'hFFFF_FFFF : ((32'd1 << width) - 32'd1));
    end
  endfunction

  // ---- the head instruction ----------------------------------------------------
  wire [127:0] insn = head[127:0];
  wire [2:0]  opc      = insn[INSN_OPCODE_LSB +: 3];
  wire [2:0]  mty      = insn[INSN_MEM_MEMORY_TYPE_LSB +: 3];
  wire [15:0] x_size   = insn[INSN_MEM_X_SIZE_LSB +: 16];
  wire [15:0] y_size   = insn[INSN_MEM_Y_SIZE_LSB +: 16];
  wire        is_alu   = opc == OP_ALU[2:0];
  wire        is_gemm  = opc == OP_GEMM[2:0];
  wire        pop_prev = insn[INSN_POP_PREV_LSB];
  wire        pop_next = insn[INSN_POP_NEXT_LSB];
  wire        ld_uop   = opc == OP_LOAD[2:0] && mty == MEM_UOP[2:0] && x_size != 16'd0;
  wire        ld_acc   = opc == OP_LOAD[2:0] && mty == MEM_ACC[2:0] && x_size != 16'd0;
  wire [2:0]  kind     = (ld_uop || ld_acc) ? K_DMA : (is_alu || is_gemm) ? K_PIPE
                       : opc == OP_FINISH[2:0] ? K_FINISH : K_SYNC;
  // GEMM and ALU share the loop fields; the source factors differ in width
  wire        h_reset  = insn[INSN_GEMM_RESET_REG_LSB];
  wire [31:0] h_ubgn   = fld(insn, INSN_GEMM_UOP_BGN_LSB, INSN_GEMM_UOP_BGN_W);
  wire [31:0] h_uend   = fld(insn, INSN_GEMM_UOP_END_LSB, INSN_GEMM_UOP_END_W);
  wire [31:0] h_iout   = fld(insn, INSN_GEMM_ITER_OUT_LSB, INSN_GEMM_ITER_OUT_W);
  wire [31:0] h_iin    = fld(insn, INSN_GEMM_ITER_IN_LSB, INSN_GEMM_ITER_IN_W);
  wire [31:0] h_dfo    = fld(insn, INSN_GEMM_DST_FACTOR_OUT_LSB, INSN_GEMM_DST_FACTOR_OUT_W);
  wire [31:0] h_dfi    = fld(insn, INSN_GEMM_DST_FACTOR_IN_LSB, INSN_GEMM_DST_FACTOR_IN_W);
  wire [31:0] h_sfo    = is_alu ? fld(insn, INSN_ALU_SRC_FACTOR_OUT_LSB, INSN_ALU_SRC_FACTOR_OUT_W)
                                : fld(insn, INSN_GEMM_SRC_FACTOR_OUT_LSB, INSN_GEMM_SRC_FACTOR_OUT_W);
  wire [31:0] h_sfi    = is_alu ? fld(insn, INSN_ALU_SRC_FACTOR_IN_LSB, INSN_ALU_SRC_FACTOR_IN_W)
                                : fld(insn, INSN_GEMM_SRC_FACTOR_IN_LSB, INSN_GEMM_SRC_FACTOR_IN_W);
  wire [31:0] h_wfo    = fld(insn, INSN_GEMM_WGT_FACTOR_OUT_LSB, INSN_GEMM_WGT_FACTOR_OUT_W);
  wire [31:0] h_wfi    = fld(insn, INSN_GEMM_WGT_FACTOR_IN_LSB, INSN_GEMM_WGT_FACTOR_IN_W);
  wire [2:0]  h_aop    = insn[INSN_ALU_ALU_OPCODE_LSB +: 3];
  wire        h_useimm = insn[INSN_ALU_USE_IMM_LSB];
  wire [15:0] h_imm    = insn[INSN_ALU_IMM_LSB +: 16];
  wire [31:0] h_nuop   = h_uend > h_ubgn ? h_uend - h_ubgn : 32'd0;
  wire [63:0] h_n      = {32'd0, h_iout} * {32'd0, h_iin} * {32'd0, h_nuop};   // N
  // planted bug uop_bound: the uop loop ends at uop_end - 1 (N' uops)
  wire        b_ub     = inject == INJECT_UOP_BOUND[2:0] && h_n != 64'd0;
  wire [31:0] e_uend   = h_uend - {31'd0, b_ub};
  wire [31:0] e_nuop   = e_uend > h_ubgn ? e_uend - h_ubgn : 32'd0;
  wire [63:0] e_n      = {32'd0, h_iout} * {32'd0, h_iin} * {32'd0, e_nuop};
  /* verilator lint_off UNUSEDSIGNAL */
  // field values beyond 16 bits do not exist in any valid configuration (spec 1.4)
  wire unused_ok = &{1'b0, h_dfo[31:16], h_dfi[31:16], h_sfo[31:16], h_sfi[31:16],
                     h_wfo[31:16], h_wfi[31:16], h1_row_q[15:LOG_ACC_DEPTH],
                     p3_srow_q[15:LOG_ACC_DEPTH]};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- skeleton ------------------------------------------------------------------
  reg         busy_q;
  reg [2:0]   kind_q;
  reg         pushp_q, pushn_q;
  reg [31:0]  idx_q;
  wire        dma_done, dma_act, pipe_done;
  wire start = run && !busy_q && !q_empty && (!pop_prev || l2g_nz) && (!pop_next || s2g_nz);
  wire done  = busy_q && (kind_q == K_SYNC || kind_q == K_FINISH ||
                          (kind_q == K_DMA && dma_done) || (kind_q == K_PIPE && pipe_done));

  assign q_pop    = done;
  assign pop_l2g  = start && pop_prev;
  assign pop_s2g  = start && pop_next;
  assign push_g2l = done && pushp_q;
  assign push_g2s = done && pushn_q;
  assign finish   = done && kind_q == K_FINISH;
  assign ev_start = start;
  assign ev_done  = done;
  assign ev_idx   = start ? head[159:128] : idx_q;
  wire [31:0] xy  = {16'd0, x_size} * {16'd0, y_size};
  assign st_uop   = (start && ld_uop) ? xy << LOG_UOP_ELEM_BYTES : 32'd0;
  assign st_acc   = (start && ld_acc) ? xy << LOG_ACC_ELEM_BYTES : 32'd0;
  assign st_gemm  = (start && is_gemm && !h_reset) ? h_n[31:0] : 32'd0;
  assign st_alu   = (start && is_alu) ? h_n[31:0] : 32'd0;

  always @(*) begin
    if (start)                 cat = CAT_BUSY[2:0];
    else if (busy_q)           cat = (kind_q != K_DMA || dma_act) ? CAT_BUSY[2:0] : CAT_MEM[2:0];
    else if (q_empty || !run)  cat = CAT_IDLE[2:0];
    else if (pop_prev && !l2g_nz) cat = CAT_DEP[2:0] + Q_L2G[2:0];
    else                       cat = CAT_DEP[2:0] + Q_S2G[2:0];
  end

  always @(posedge clk) begin
    if (clr)        busy_q <= 1'b0;
    else if (start) busy_q <= 1'b1;
    else if (done)  busy_q <= 1'b0;
  end

  always @(posedge clk) begin
    if (start) begin
      kind_q  <= kind;
      pushp_q <= insn[INSN_PUSH_PREV_LSB];
      pushn_q <= insn[INSN_PUSH_NEXT_LSB];
      idx_q   <= head[159:128];
    end
  end

  // ---- LOAD UOP / LOAD ACC ---------------------------------------------------------
  reg         dma_uop_q;
  wire        dma_we;
  wire [31:0] dma_idx;
  wire [AWD-1:0] dma_wdata;
  always @(posedge clk) begin
    if (start) dma_uop_q <= ld_uop;
  end
  dma_rd #(.EB(ACC_ELEM_BYTES), .NS(BUS_BYTES / 4)) u_dma (
    .clk(clk), .clr(clr), .start(start && kind == K_DMA),
    .client(ld_uop ? RD_UOP[2:0] : RD_ACC[2:0]),
    .log_e(ld_uop ? LOG_UOP_ELEM_BYTES[3:0] : LOG_ACC_ELEM_BYTES[3:0]), .is_uop(ld_uop),
    .sram_base(insn[INSN_MEM_SRAM_BASE_LSB +: 16]), .dram_base(insn[INSN_MEM_DRAM_BASE_LSB +: 32]),
    .y_size(y_size), .x_size(x_size), .x_stride(insn[INSN_MEM_X_STRIDE_LSB +: 16]),
    .y_pad_0(insn[INSN_MEM_Y_PAD_0_LSB +: 4]), .y_pad_1(insn[INSN_MEM_Y_PAD_1_LSB +: 4]),
    .x_pad_0(insn[INSN_MEM_X_PAD_0_LSB +: 4]), .x_pad_1(insn[INSN_MEM_X_PAD_1_LSB +: 4]),
    .win_mask(win_mask), .pad_up(inject == INJECT_PAD_ROW[2:0]),
    .req_valid(req_valid), .req_addr(req_addr), .req_bytes(req_bytes), .req_beats(req_beats),
    .grant(grant), .m_rvalid(m_rvalid), .m_rid(m_rid), .m_rdata(m_rdata),
    .wr_en(dma_we), .wr_idx(dma_idx), .wr_data(dma_wdata),
    .uop_we(uop_we), .uop_idx(uop_widx), .done(dma_done), .act(dma_act));
  assign req_client = dma_uop_q ? RD_UOP[2:0] : RD_ACC[2:0];

  // ---- GEMM / ALU: the instruction and its loops -------------------------------------
  reg         alu_q, k2_q, reset_q, useimm_q, slip_q;
  reg [2:0]   aop_q;
  reg [31:0]  imm_q;
  reg [13:0]  ubgn_q, uend_q, iout_q, iin_q;
  reg [15:0]  dfo_q, dfi_q, sfo_q, sfi_q, wfo_q, wfi_q;
  reg         iss_q, iss_d, wait_q, wait_d, dact_q, dact_d;
  reg [2:0]   drain_q, drain_d;
  reg [13:0]  u_q, u_d, j_q, j_d, i_q, i_d;
  reg [15:0]  dout_q, dout_d, din_q, din_d, sout_q, sout_d, sin_q, sin_d;
  reg [15:0]  wout_q, wout_d, win_q, win_d;

  wire pstart = start && kind == K_PIPE;
  wire issue  = busy_q && kind_q == K_PIPE && iss_q && !wait_q;
  assign pipe_done = dact_q && drain_q == 3'd0;
  assign uop_re    = issue;
  assign uop_ridx  = {18'd0, u_q};
  assign c_gemm_uop   = issue && !alu_q;
  assign c_gemm_reset = issue && !alu_q && reset_q;
  assign c_alu_uop    = issue && alu_q;
  assign c_alu_slots  = (issue && alu_q) ? (k2_q ? 2'd2 : 2'd1) : 2'd0;

  always @(*) begin
    iss_d = iss_q; wait_d = wait_q; dact_d = dact_q; drain_d = drain_q;
    u_d = u_q; j_d = j_q; i_d = i_q;
    dout_d = dout_q; din_d = din_q; sout_d = sout_q; sin_d = sin_q; wout_d = wout_q; win_d = win_q;
    if (wait_q) wait_d = 1'b0;
    if (dact_q && drain_q != 3'd0) drain_d = drain_q - 3'd1;
    if (issue) begin
      wait_d = k2_q;
      if (u_q + 14'd1 != uend_q) begin
        u_d = u_q + 14'd1;
      end else begin
        u_d = ubgn_q;
        if (j_q + 14'd1 != iin_q) begin
          j_d = j_q + 14'd1;
          din_d = din_q + dfi_q; sin_d = sin_q + sfi_q; win_d = win_q + wfi_q;
        end else begin
          j_d = 14'd0;
          din_d = 16'd0; sin_d = 16'd0; win_d = 16'd0;
          if (i_q + 14'd1 != iout_q) begin
            i_d = i_q + 14'd1;
            dout_d = dout_q + dfo_q; sout_d = sout_q + sfo_q; wout_d = wout_q + wfo_q;
          end else begin
            iss_d   = 1'b0;          // the last uop: D = X + k + 4 (+1: pipe_slip)
            dact_d  = 1'b1;
            drain_d = (k2_q ? 3'd5 : 3'd4) + {2'd0, slip_q};
          end
        end
      end
    end
    if (pipe_done) dact_d = 1'b0;
    if (pstart) begin
      iss_d   = e_n != 64'd0;
      wait_d  = 1'b1;               // first issue at S+2
      dact_d  = e_n == 64'd0;       // N = 0: D = S+6 (+1: pipe_slip)
      drain_d = 3'd5 + {2'd0, is_gemm && inject == INJECT_PIPE_SLIP[2:0]};
      u_d = h_ubgn[13:0]; j_d = 14'd0; i_d = 14'd0;
      dout_d = 16'd0; din_d = 16'd0; sout_d = 16'd0; sin_d = 16'd0; wout_d = 16'd0; win_d = 16'd0;
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
      aop_q    <= inject == INJECT_ALU_OPCODE[2:0] ? {h_aop[2:1], 1'b0} : h_aop;
      slip_q   <= is_gemm && inject == INJECT_PIPE_SLIP[2:0];
      imm_q    <= {{16{h_imm[15]}}, h_imm};
      ubgn_q   <= h_ubgn[13:0];
      uend_q   <= e_uend[13:0];
      iout_q   <= h_iout[13:0];
      iin_q    <= h_iin[13:0];
      dfo_q    <= h_dfo[15:0];
      dfi_q    <= h_dfi[15:0];
      sfo_q    <= h_sfo[15:0];
      sfi_q    <= h_sfi[15:0];
      wfo_q    <= is_alu ? 16'd0 : h_wfo[15:0];
      wfi_q    <= is_alu ? 16'd0 : h_wfi[15:0];
    end
  end

  // ---- the pipeline ----------------------------------------------------------------
  reg          p1_v_q, pb_v_q, p2_v_q, p3_v_q, p4_v_q;
  reg [15:0]   p1_do_q, p1_so_q, p1_wo_q;
  reg [15:0]   pb_row_q, p2_row_q, p3_row_q, p4_row_q;
  reg          p4_wout_q;
  reg [AWD-1:0] p4_res_q;
  reg [AWD-1:0] op_q, src_q;        // acc operands (dst, and src for a vector ALU op)
  reg [32*LANES-1:0] dot_q;         // GEMM dot products, 32 bits per lane
  reg          h1_we_q;             // the write-back of the previous cycle
  reg [15:0]   h1_row_q;
  reg [AWD-1:0] h1_data_q;

  // P1: indices
  wire [15:0] u_dst = {{(16-UOP_DST_W){1'b0}}, uop_rdata[UOP_DST_LSB +: UOP_DST_W]} + p1_do_q;
  wire [15:0] u_src = {{(16-UOP_SRC_W){1'b0}}, uop_rdata[UOP_SRC_LSB +: UOP_SRC_W]} + p1_so_q;
  wire [15:0] u_wgt = {{(16-UOP_WGT_W){1'b0}}, uop_rdata[UOP_WGT_LSB +: UOP_WGT_W]} + p1_wo_q;
  assign sp_re    = p1_v_q && !alu_q;
  assign inp_ridx = {16'd0, u_src};
  assign wgt_ridx = {16'd0, u_wgt};
  assign acc_re   = p1_v_q || pb_v_q;
  assign acc_ridx = {16'd0, pb_v_q ? pb_row_q : (k2_q ? u_src : u_dst)};

  // The write-back stage: P4, or with planted bug pipe_slip (GEMM) a P5
  // register stage after it.
  reg          p5_v_q, p5_wout_q;
  reg [15:0]   p5_row_q;
  reg [AWD-1:0] p5_res_q;
  reg [OWD-1:0] p4_out_q, p5_out_q;
  wire          wb_v    = slip_q ? p5_v_q : p4_v_q;
  wire [15:0]   wb_row  = slip_q ? p5_row_q : p4_row_q;
  wire [AWD-1:0] wb_res = slip_q ? p5_res_q : p4_res_q;
  wire [OWD-1:0] wb_out = slip_q ? p5_out_q : p4_out_q;
  wire          wb_wout = slip_q ? p5_wout_q : p4_wout_q;
  // The acc write port of this cycle: the write-back stage or a LOAD ACC row.
  assign acc_we    = wb_v || (dma_we && !dma_uop_q);
  assign acc_widx  = wb_v ? {16'd0, wb_row} : dma_idx;
  assign acc_wdata = wb_v ? wb_res : dma_wdata;
  // Forwarding looks at the pipeline's own write-back only: a LOAD ACC's
  // rows all land before D and compute starts nothing before D+1, so no
  // GEMM/ALU operand read can miss one (and the operands stay independent
  // of the memory's R channel).
  wire [LOG_ACC_DEPTH-1:0] cur_row = wb_row[LOG_ACC_DEPTH-1:0];

  function [AWD-1:0] fwd(input we, input [LOG_ACC_DEPTH-1:0] wrow, input [AWD-1:0] wdata,
                         input [LOG_ACC_DEPTH-1:0] row, input [AWD-1:0] v);
    fwd = (we && wrow == row) ? wdata : v;
  endfunction

  wire [LOG_ACC_DEPTH-1:0] h1_row = h1_row_q[LOG_ACC_DEPTH-1:0];
  // dst operand: arrives in P2 (read in the previous cycle), used in P3
  wire [LOG_ACC_DEPTH-1:0] p2_row = p2_row_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p3_row = p3_row_q[LOG_ACC_DEPTH-1:0];
  // (with pipe_slip, P4 holds a result not yet written: the newest of all)
  wire [LOG_ACC_DEPTH-1:0] p4_row = p4_row_q[LOG_ACC_DEPTH-1:0];
  wire           p4_fly    = slip_q && p4_v_q;
  wire [AWD-1:0] op_arrive = fwd(p4_fly, p4_row, p4_res_q, p2_row,
                             fwd(wb_v, cur_row, wb_res, p2_row,
                                 fwd(h1_we_q, h1_row, h1_data_q, p2_row, acc_rdata)));
  wire [AWD-1:0] op_use    = fwd(p4_fly, p4_row, p4_res_q, p3_row,
                             fwd(wb_v, cur_row, wb_res, p3_row, op_q));
  // src operand (vector ALU): arrives in PB, held through P2, used in P3;
  // its row travels with it (the next uop's P1 overlaps this one's P2)
  reg  [15:0]    pb_srow_q, p2_srow_q, p3_srow_q;
  wire [LOG_ACC_DEPTH-1:0] pb_srow = pb_srow_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p2_srow = p2_srow_q[LOG_ACC_DEPTH-1:0];
  wire [LOG_ACC_DEPTH-1:0] p3_srow = p3_srow_q[LOG_ACC_DEPTH-1:0];
  wire [AWD-1:0] src_arrive = fwd(wb_v, cur_row, wb_res, pb_srow,
                                  fwd(h1_we_q, h1_row, h1_data_q, pb_srow, acc_rdata));
  wire [AWD-1:0] src_p2     = fwd(wb_v, cur_row, wb_res, p2_srow, src_q);
  wire [AWD-1:0] src_hold   = fwd(wb_v, cur_row, wb_res, p3_srow, src_q);

  // P2: the dot products of BATCH x BLOCK_OUT rows of BLOCK_IN int pairs
  reg [32*LANES-1:0] dot;
  integer b, o, k;
  reg signed [31:0] sum;
  // (only when a GEMM uop is in P2: the same hardware, and a simulator skips
  // the 256 multiplications in the other cycles)
  always @(*) begin
    dot = dot_q;
    sum = 32'sd0;
    if (p2_v_q && !alu_q) begin
      for (b = 0; b < BATCH; b = b + 1)
        for (o = 0; o < BLOCK_OUT; o = o + 1) begin
          sum = 32'sd0;
          for (k = 0; k < BLOCK_IN; k = k + 1)
            sum = sum + $signed(inp_rdata[(b*BLOCK_IN+k)*INP_WIDTH +: INP_WIDTH])
                      * $signed(wgt_rdata[(o*BLOCK_IN+k)*WGT_WIDTH +: WGT_WIDTH]);
          dot[(b*BLOCK_OUT+o)*32 +: 32] = sum;
        end
    end
  end

  // P3: the results, lane by lane
  reg [AWD-1:0] res;
  reg [OWD-1:0] res_out;
  integer l;
  reg [31:0] la, lb, lr;
  reg signed [31:0] la_s, asr;    // kept apart: inside ?: an unsigned arm makes >>> logical
  always @(*) begin
    res = p4_res_q;
    res_out = p4_out_q;
    la = 32'd0; lb = 32'd0; lr = 32'd0; la_s = 32'sd0; asr = 32'sd0;
    if (p3_v_q)                       // (as for the dot products)
    for (l = 0; l < LANES; l = l + 1) begin
      la = {{(32-ACC_WIDTH){op_use[l*ACC_WIDTH+ACC_WIDTH-1]}}, op_use[l*ACC_WIDTH +: ACC_WIDTH]};
      lb = useimm_q ? imm_q
         : {{(32-ACC_WIDTH){src_hold[l*ACC_WIDTH+ACC_WIDTH-1]}}, src_hold[l*ACC_WIDTH +: ACC_WIDTH]};
      la_s = la;
      asr  = la_s >>> lb[4:0];
      if (!alu_q) begin
        lr = reset_q ? 32'd0 : la + dot_q[l*32 +: 32];
      end else begin
        case (aop_q)
          ALU_MIN[2:0]: lr = ($signed(la) < $signed(lb)) ? la : lb;
          ALU_MAX[2:0]: lr = ($signed(la) > $signed(lb)) ? la : lb;
          ALU_ADD[2:0]: lr = la + lb;
          ALU_SHR[2:0]: lr = lb[31] ? la << ((~lb[4:0]) + 5'd1) : asr;
          default:      lr = la;   // MUL is not part of the contract (spec 12.4)
        endcase
      end
      res[l*ACC_WIDTH +: ACC_WIDTH]     = lr[ACC_WIDTH-1:0];
      res_out[l*OUT_WIDTH +: OUT_WIDTH] = lr[OUT_WIDTH-1:0];
    end
  end
  assign out_we    = wb_v && wb_wout;
  assign out_widx  = {16'd0, wb_row};
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
    op_q     <= op_arrive;
    src_q    <= pb_v_q ? src_arrive : src_p2;
    dot_q    <= dot;
    p4_res_q <= res;
    p4_out_q <= res_out;
    p4_wout_q <= alu_q || !reset_q;
    p5_row_q  <= p4_row_q;
    p5_res_q  <= p4_res_q;
    p5_out_q  <= p4_out_q;
    p5_wout_q <= p4_wout_q;
    h1_row_q  <= wb_row;
    h1_data_q <= wb_res;
  end
endmodule
