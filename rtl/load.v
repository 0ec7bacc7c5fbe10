// load.v - the load unit: LOAD INP and LOAD WGT (spec 6.1) into the inp and
// wgt scratchpads, through its tensor DMA as read client inp or wgt.
//
// The unit skeleton of docs/microarch.md 4: the head instruction of the
// command queue starts in cycle S when the unit is idle and g2l holds a token
// if it pops one (pop_next; load has no previous stage, so pop_prev and
// push_prev are ignored: fetch's check rejects them in the C model).  In S
// it pops; in its done cycle D it leaves the queue and pushes l2g
// (push_next).  A sync NOP (x_size 0) takes S and D = S+1.
module load (
  input  wire          clk,
  input  wire          clr,         // reset or launch: idle, nothing in flight
  input  wire          run,
  input  wire [2:0]    inject,      // planted bug (VTA_INJECT builds): drop_push, pad_row
  input  wire [159:0]  head,        // {index, instruction} at the queue's head
  input  wire          q_empty,
  output wire          q_pop,
  input  wire          g2l_nz,
  output wire          pop_g2l,
  output wire          push_l2g,
  input  wire [31:0]   win_mask,
  output wire          req_valid,
  output wire [2:0]    req_client,
  output wire [31:0]   req_addr,
  output wire [31:0]   req_bytes,
  output wire [8:0]    req_beats,
  input  wire          grant,
  input  wire          m_rvalid,
  input  wire [2:0]    m_rid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  output wire          inp_we,
  output wire          wgt_we,
  output wire [31:0]   wr_idx,
  output wire [WGT_ELEM_BYTES*8-1:0] wr_data,  // inp rows in the low bits
  output wire          ev_start,
  output wire          ev_done,
  output wire [31:0]   ev_idx,
  output reg  [2:0]    cat,
  output wire [31:0]   st_inp,      // fsim statistics added at S (spec 9)
  output wire [31:0]   st_wgt
);
`include "vta_params.vh"
  localparam integer EB = WGT_ELEM_BYTES > INP_ELEM_BYTES ? WGT_ELEM_BYTES : INP_ELEM_BYTES;

  wire [127:0] insn = head[127:0];
  wire [2:0]  mty      = insn[INSN_MEM_MEMORY_TYPE_LSB +: 3];
  wire [15:0] sram_base = insn[INSN_MEM_SRAM_BASE_LSB +: 16];
  wire [31:0] dram_base = insn[INSN_MEM_DRAM_BASE_LSB +: 32];
  wire [15:0] y_size   = insn[INSN_MEM_Y_SIZE_LSB +: 16];
  wire [15:0] x_size   = insn[INSN_MEM_X_SIZE_LSB +: 16];
  wire [15:0] x_stride = insn[INSN_MEM_X_STRIDE_LSB +: 16];
  wire [3:0]  y_pad_0  = insn[INSN_MEM_Y_PAD_0_LSB +: 4];
  wire [3:0]  y_pad_1  = insn[INSN_MEM_Y_PAD_1_LSB +: 4];
  wire [3:0]  x_pad_0  = insn[INSN_MEM_X_PAD_0_LSB +: 4];
  wire [3:0]  x_pad_1  = insn[INSN_MEM_X_PAD_1_LSB +: 4];
  wire        pop_next = insn[INSN_POP_NEXT_LSB];
  wire        is_wgt   = mty == MEM_WGT[2:0];
  wire        nop      = x_size == 16'd0;

  reg         busy_q, sync_q, push_q, wgt_q;
  reg [31:0]  idx_q;
  wire        dma_done, dma_act, dma_we;

  wire start = run && !busy_q && !q_empty && (!pop_next || g2l_nz);
  wire done  = busy_q && (sync_q || dma_done);

  dma_rd #(.EB(EB), .NS(BUS_BYTES / 4)) u_dma (
    .clk(clk), .clr(clr), .start(start && !nop),
    .client(is_wgt ? RD_WGT[2:0] : RD_INP[2:0]),
    .log_e(is_wgt ? LOG_WGT_ELEM_BYTES[3:0] : LOG_INP_ELEM_BYTES[3:0]), .is_uop(1'b0),
    .sram_base(sram_base), .dram_base(dram_base), .y_size(y_size), .x_size(x_size),
    .x_stride(x_stride), .y_pad_0(y_pad_0), .y_pad_1(y_pad_1), .x_pad_0(x_pad_0),
    .x_pad_1(x_pad_1), .win_mask(win_mask), .pad_up(inject == INJECT_PAD_ROW[2:0]),
    .req_valid(req_valid), .req_addr(req_addr), .req_bytes(req_bytes), .req_beats(req_beats),
    .grant(grant), .m_rvalid(m_rvalid), .m_rid(m_rid), .m_rdata(m_rdata),
    .wr_en(dma_we), .wr_idx(wr_idx), .wr_data(wr_data),
    /* verilator lint_off PINCONNECTEMPTY */
    .uop_we(), .uop_idx(),
    /* verilator lint_on PINCONNECTEMPTY */
    .done(dma_done), .act(dma_act));

  assign req_client = wgt_q ? RD_WGT[2:0] : RD_INP[2:0];
  assign inp_we   = dma_we && !wgt_q;
  assign wgt_we   = dma_we && wgt_q;
  assign q_pop    = done;
  assign pop_g2l  = start && pop_next;
  assign push_l2g = done && push_q && inject != INJECT_DROP_PUSH[2:0];
  assign ev_start = start;
  assign ev_done  = done;
  assign ev_idx   = start ? head[159:128] : idx_q;
  wire [31:0] bytes = ({16'd0, x_size} * {16'd0, y_size}) << (is_wgt ? LOG_WGT_ELEM_BYTES : LOG_INP_ELEM_BYTES);
  assign st_inp = (start && !nop && !is_wgt) ? bytes : 32'd0;
  assign st_wgt = (start && !nop && is_wgt) ? bytes : 32'd0;

  always @(*) begin
    if (start)              cat = CAT_BUSY[2:0];
    else if (busy_q)        cat = (sync_q || dma_act) ? CAT_BUSY[2:0] : CAT_MEM[2:0];
    else if (q_empty || !run) cat = CAT_IDLE[2:0];
    else                    cat = CAT_DEP[2:0] + Q_G2L[2:0];
  end

  always @(posedge clk) begin
    if (clr)        busy_q <= 1'b0;
    else if (start) busy_q <= 1'b1;
    else if (done)  busy_q <= 1'b0;
  end

  always @(posedge clk) begin
    if (start) begin
      sync_q <= nop;
      push_q <= insn[INSN_PUSH_NEXT_LSB];
      wgt_q  <= is_wgt;
      idx_q  <= head[159:128];
    end
  end
endmodule
