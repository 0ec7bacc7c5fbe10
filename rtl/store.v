// store.v - the store unit: STORE (docs/isa.md 6.3) from the out scratchpad to DRAM
// through the store DMA and the write channel.
//
// Unit skeleton (docs/microarch.md 4, unit_skeleton.v): store is the last
// stage: it pops g2s (pop_prev) at S and pushes s2g (push_prev) at D;
// pop_next and push_next are ignored (rejected by fetch in the C model).  A
// sync NOP (x_size 0), and a STORE of no rows, takes S and D = S+1.
module store (
  input  wire                 clk,
  input  wire                 clr,
  input  wire                 run,
  input  wire [QWORD_W-1:0]   head,
  input  wire                 q_empty,
  output wire                 q_pop,
  input  wire                 g2s_nz,
  output wire                 pop_g2s,
  output wire                 push_s2g,
  input  wire [WORD_W-1:0]    win_mask,
  output wire                 out_re,
  output wire [WORD_W-1:0]    out_idx,
  input  wire [OUT_ELEM_BYTES*8-1:0] out_rdata,
  output wire                 m_awvalid,
  input  wire                 m_awready,
  output wire [WORD_W-1:0]    m_awaddr,
  output wire [AXI_LEN_W-1:0] m_awlen,
  output wire                 m_wvalid,
  input  wire                 m_wready,
  output wire [BUS_BYTES*8-1:0] m_wdata,
  output wire [BUS_BYTES-1:0]   m_wstrb,
  output wire                 m_wlast,
  input  wire                 m_bvalid,
  output wire                 ev_start,
  output wire                 ev_done,
  output wire [QIDX_W-1:0]    ev_idx,
  output wire [CAT_W-1:0]     cat,
  output wire [WORD_W-1:0]    add_out_store_nbytes   // fsim statistic added at S (docs/isa.md 9)
);
`include "vta_params.vh"
  wire [INSN_MEM_SRAM_BASE_W-1:0] sram_base;
  wire [INSN_MEM_DRAM_BASE_W-1:0] dram_base;
  wire [INSN_MEM_Y_SIZE_W-1:0]   y_size;
  wire [INSN_MEM_X_SIZE_W-1:0]   x_size;
  wire [INSN_MEM_X_STRIDE_W-1:0] x_stride;
  wire                           pop_prev, push_prev;
  /* verilator lint_off PINCONNECTEMPTY */
  insn_decode u_dec (
    .insn(head[INSN_W-1:0]), .opcode(), .pop_prev(pop_prev), .pop_next(), .push_prev(push_prev),
    .push_next(), .unit(), .mem_type(), .sram_base(sram_base), .dram_base(dram_base),
    .y_size(y_size), .x_size(x_size), .x_stride(x_stride), .y_pad_0(), .y_pad_1(),
    .x_pad_0(), .x_pad_1(), .reset_reg(), .uop_bgn(), .uop_end(), .iter_out(), .iter_in(),
    .dst_factor_out(), .dst_factor_in(), .src_factor_out(), .src_factor_in(),
    .wgt_factor_out(), .wgt_factor_in(), .alu_opcode(), .use_imm(), .imm());
  /* verilator lint_on PINCONNECTEMPTY */
  wire sync = ~|x_size || ~|y_size;

  reg  sync_q;
  wire dma_done, dma_acted, start, done;

  /* verilator lint_off PINCONNECTEMPTY */
  unit_skeleton #(.USE_PREV(1), .USE_NEXT(0), .Q_PREV(Q_G2S), .Q_NEXT(Q_G2S)) u_skel (
    .clk(clk), .clr(clr), .run(run), .q_empty(q_empty), .head_idx(head[QIDX_LSB +: QIDX_W]),
    .pop_prev(pop_prev), .pop_next(1'b0), .push_prev(push_prev), .push_next(1'b0),
    .prev_nz(g2s_nz), .next_nz(1'b0), .at_done(sync_q || dma_done),
    .acted(sync_q || dma_acted || dma_done),   // (the acknowledge of the last burst is busy)
    .start(start), .done(done), .busy(), .pop_prev_o(pop_g2s), .pop_next_o(),
    .push_prev_o(push_s2g), .push_next_o(), .idx(ev_idx), .cat(cat));
  /* verilator lint_on PINCONNECTEMPTY */

  dma_wr u_dma (
    .clk(clk), .clr(clr), .start(start && !sync), .sram_base(sram_base),
    .dram_base(dram_base), .y_size(y_size), .x_size(x_size), .x_stride(x_stride),
    .win_mask(win_mask), .out_re(out_re), .out_idx(out_idx), .out_rdata(out_rdata),
    .m_awvalid(m_awvalid), .m_awready(m_awready), .m_awaddr(m_awaddr), .m_awlen(m_awlen),
    .m_wvalid(m_wvalid), .m_wready(m_wready), .m_wdata(m_wdata), .m_wstrb(m_wstrb),
    .m_wlast(m_wlast), .m_bvalid(m_bvalid), .done(dma_done), .acted(dma_acted));

  assign q_pop    = done;
  assign ev_start = start;
  assign ev_done  = done;
  // out_store_nbytes counts every STORE with x_size != 0 (docs/isa.md 9)
  wire [WORD_W-1:0] x_size_word = {{(WORD_W-INSN_MEM_X_SIZE_W){1'b0}}, x_size};
  wire [WORD_W-1:0] y_size_word = {{(WORD_W-INSN_MEM_Y_SIZE_W){1'b0}}, y_size};
  assign add_out_store_nbytes = (start && |x_size)
                              ? (x_size_word * y_size_word) << LOG_OUT_ELEM_BYTES : {WORD_W{1'b0}};

  always @(posedge clk) begin
    if (start) sync_q <= sync;
  end
endmodule
