// load.v - the load unit: LOAD INP and LOAD WGT (docs/isa.md 6.1) into the inp and
// wgt scratchpads, through its tensor DMA as read client inp or wgt.
//
// The unit skeleton of docs/microarch.md 4 (unit_skeleton.v): load has no
// previous stage, so it pops g2l (pop_next) at S and pushes l2g (push_next)
// at D; pop_prev and push_prev are ignored (fetch's check rejects them in the
// C model).  A sync NOP (x_size 0) takes S and D = S+1.
module load (
  input  wire                 clk,
  input  wire                 clr,         // reset or launch: idle, nothing in flight
  input  wire                 run,
  input  wire [INJECT_W-1:0]  inject,      // planted bug (VTA_INJECT builds): drop_push, pad_row
  input  wire [QWORD_W-1:0]   head,        // {index, instruction} at the queue's head
  input  wire                 q_empty,
  output wire                 q_pop,
  input  wire                 g2l_nz,
  output wire                 pop_g2l,
  output wire                 push_l2g,
  input  wire [WORD_W-1:0]    win_mask,
  output wire                 req_valid,
  output wire [RD_ID_W-1:0]   req_client,
  output wire [WORD_W-1:0]    req_addr,
  output wire [WORD_W-1:0]    req_bytes,
  output wire [BEATS_W-1:0]   req_beats,
  input  wire                 grant,
  input  wire                 m_rvalid,
  input  wire [RD_ID_W-1:0]   m_rid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  output wire                 inp_we,
  output wire                 wgt_we,
  output wire [WORD_W-1:0]    wr_idx,
  output wire [WGT_ELEM_BYTES*8-1:0] wr_data,  // inp rows in the low bits
  output wire                 ev_start,
  output wire                 ev_done,
  output wire [QIDX_W-1:0]    ev_idx,
  output wire [CAT_W-1:0]     cat,
  // fsim statistics added at S (docs/isa.md 9), named as the counters of vcr.v
  output wire [WORD_W-1:0]    add_inp_load_nbytes,
  output wire [WORD_W-1:0]    add_wgt_load_nbytes
);
`include "vta_params.vh"
  localparam integer MAX_ELEM_BYTES = WGT_ELEM_BYTES > INP_ELEM_BYTES ? WGT_ELEM_BYTES
                                                                     : INP_ELEM_BYTES;

  wire [MEM_TYPE_W-1:0]          mem_type;
  wire [INSN_MEM_SRAM_BASE_W-1:0] sram_base;
  wire [INSN_MEM_DRAM_BASE_W-1:0] dram_base;
  wire [INSN_MEM_Y_SIZE_W-1:0]   y_size;
  wire [INSN_MEM_X_SIZE_W-1:0]   x_size;
  wire [INSN_MEM_X_STRIDE_W-1:0] x_stride;
  wire [PAD_W-1:0]               y_pad_0, y_pad_1, x_pad_0, x_pad_1;
  wire                           pop_next, push_next;
  /* verilator lint_off PINCONNECTEMPTY */
  insn_decode u_dec (
    .insn(head[INSN_W-1:0]), .opcode(), .pop_prev(), .pop_next(pop_next), .push_prev(),
    .push_next(push_next), .unit(), .mem_type(mem_type), .sram_base(sram_base),
    .dram_base(dram_base), .y_size(y_size), .x_size(x_size), .x_stride(x_stride),
    .y_pad_0(y_pad_0), .y_pad_1(y_pad_1), .x_pad_0(x_pad_0), .x_pad_1(x_pad_1),
    .reset_reg(), .uop_bgn(), .uop_end(), .iter_out(), .iter_in(), .dst_factor_out(),
    .dst_factor_in(), .src_factor_out(), .src_factor_in(), .wgt_factor_out(),
    .wgt_factor_in(), .alu_opcode(), .use_imm(), .imm());
  /* verilator lint_on PINCONNECTEMPTY */
  wire is_wgt = mem_type == MEM_WGT[MEM_TYPE_W-1:0];
  wire nop    = ~|x_size;

  reg  sync_q, wgt_q;
  wire dma_done, dma_acted, dma_we, start, done, push_next_o;

  /* verilator lint_off PINCONNECTEMPTY */
  unit_skeleton #(.USE_PREV(0), .USE_NEXT(1), .Q_PREV(Q_G2L), .Q_NEXT(Q_G2L)) u_skel (
    .clk(clk), .clr(clr), .run(run), .q_empty(q_empty), .head_idx(head[QIDX_LSB +: QIDX_W]),
    .pop_prev(1'b0), .pop_next(pop_next), .push_prev(1'b0), .push_next(push_next),
    .prev_nz(1'b0), .next_nz(g2l_nz), .at_done(sync_q || dma_done),
    .acted(sync_q || dma_acted),
    .start(start), .done(done), .busy(), .pop_prev_o(), .pop_next_o(pop_g2l),
    .push_prev_o(), .push_next_o(push_next_o), .idx(ev_idx), .cat(cat));
  /* verilator lint_on PINCONNECTEMPTY */

  dma_rd #(.MAX_ELEM_BYTES(MAX_ELEM_BYTES), .UOP_SLOTS(BUS_BYTES / UOP_ELEM_BYTES)) u_dma (
    .clk(clk), .clr(clr), .start(start && !nop),
    .client(is_wgt ? RD_WGT[RD_ID_W-1:0] : RD_INP[RD_ID_W-1:0]),
    .log_e(is_wgt ? LOG_WGT_ELEM_BYTES[LOG_E_W-1:0] : LOG_INP_ELEM_BYTES[LOG_E_W-1:0]),
    .is_uop(1'b0),
    .sram_base(sram_base), .dram_base(dram_base), .y_size(y_size), .x_size(x_size),
    .x_stride(x_stride), .y_pad_0(y_pad_0), .y_pad_1(y_pad_1), .x_pad_0(x_pad_0),
    .x_pad_1(x_pad_1), .win_mask(win_mask), .pad_up(inject == INJECT_PAD_ROW[INJECT_W-1:0]),
    .req_valid(req_valid), .req_addr(req_addr), .req_bytes(req_bytes), .req_beats(req_beats),
    .grant(grant), .m_rvalid(m_rvalid), .m_rid(m_rid), .m_rdata(m_rdata),
    .wr_en(dma_we), .wr_idx(wr_idx), .wr_data(wr_data),
    /* verilator lint_off PINCONNECTEMPTY */
    .uop_we(), .uop_idx(),
    /* verilator lint_on PINCONNECTEMPTY */
    .done(dma_done), .acted(dma_acted));

  assign req_client = wgt_q ? RD_WGT[RD_ID_W-1:0] : RD_INP[RD_ID_W-1:0];
  assign inp_we   = dma_we && !wgt_q;
  assign wgt_we   = dma_we && wgt_q;
  assign q_pop    = done;
  assign push_l2g = push_next_o && inject != INJECT_DROP_PUSH[INJECT_W-1:0];
  assign ev_start = start;
  assign ev_done  = done;
  wire [WORD_W-1:0] x_size_word = {{(WORD_W-INSN_MEM_X_SIZE_W){1'b0}}, x_size};
  wire [WORD_W-1:0] y_size_word = {{(WORD_W-INSN_MEM_Y_SIZE_W){1'b0}}, y_size};
  wire [WORD_W-1:0] bytes = (x_size_word * y_size_word)
                          << (is_wgt ? LOG_WGT_ELEM_BYTES : LOG_INP_ELEM_BYTES);
  assign add_inp_load_nbytes = (start && !nop && !is_wgt) ? bytes : {WORD_W{1'b0}};
  assign add_wgt_load_nbytes = (start && !nop && is_wgt) ? bytes : {WORD_W{1'b0}};

  always @(posedge clk) begin
    if (start) begin
      sync_q <= nop;
      wgt_q  <= is_wgt;
    end
  end
endmodule
