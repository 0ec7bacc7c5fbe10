// store.v - the store unit: STORE (spec 6.3) from the out scratchpad to DRAM
// through the store DMA and the write channel.
//
// Unit skeleton (docs/microarch.md 4): starts when idle and, if it pops
// (pop_prev), g2s holds a token; pushes s2g (push_prev) at D.  A sync NOP
// (x_size 0), and a STORE of no rows, takes S and D = S+1.  store is the last
// stage: pop_next and push_next are ignored (rejected by fetch in the C model).
module store (
  input  wire          clk,
  input  wire          clr,
  input  wire          run,
  input  wire [159:0]  head,
  input  wire          q_empty,
  output wire          q_pop,
  input  wire          g2s_nz,
  output wire          pop_g2s,
  output wire          push_s2g,
  input  wire [31:0]   win_mask,
  output wire          out_re,
  output wire [31:0]   out_idx,
  input  wire [OUT_ELEM_BYTES*8-1:0] out_rdata,
  output wire          m_awvalid,
  input  wire          m_awready,
  output wire [31:0]   m_awaddr,
  output wire [7:0]    m_awlen,
  output wire          m_wvalid,
  input  wire          m_wready,
  output wire [BUS_BYTES*8-1:0] m_wdata,
  output wire [BUS_BYTES-1:0]   m_wstrb,
  output wire          m_wlast,
  input  wire          m_bvalid,
  output wire          ev_start,
  output wire          ev_done,
  output wire [31:0]   ev_idx,
  output reg  [2:0]    cat,
  output wire [31:0]   st_out
);
`include "vta_params.vh"
  wire [127:0] insn = head[127:0];
  wire [15:0] sram_base = insn[INSN_MEM_SRAM_BASE_LSB +: 16];
  wire [31:0] dram_base = insn[INSN_MEM_DRAM_BASE_LSB +: 32];
  wire [15:0] y_size   = insn[INSN_MEM_Y_SIZE_LSB +: 16];
  wire [15:0] x_size   = insn[INSN_MEM_X_SIZE_LSB +: 16];
  wire [15:0] x_stride = insn[INSN_MEM_X_STRIDE_LSB +: 16];
  wire        pop_prev = insn[INSN_POP_PREV_LSB];
  wire        sync     = x_size == 16'd0 || y_size == 16'd0;

  reg         busy_q, sync_q, push_q;
  reg [31:0]  idx_q;
  wire        dma_done, dma_act;

  wire start = run && !busy_q && !q_empty && (!pop_prev || g2s_nz);
  wire done  = busy_q && (sync_q || dma_done);

  dma_wr u_dma (
    .clk(clk), .clr(clr), .start(start && !sync), .sram_base(sram_base),
    .dram_base(dram_base), .y_size(y_size), .x_size(x_size), .x_stride(x_stride),
    .win_mask(win_mask), .out_re(out_re), .out_idx(out_idx), .out_rdata(out_rdata),
    .m_awvalid(m_awvalid), .m_awready(m_awready), .m_awaddr(m_awaddr), .m_awlen(m_awlen),
    .m_wvalid(m_wvalid), .m_wready(m_wready), .m_wdata(m_wdata), .m_wstrb(m_wstrb),
    .m_wlast(m_wlast), .m_bvalid(m_bvalid), .done(dma_done), .act(dma_act));

  assign q_pop    = done;
  assign pop_g2s  = start && pop_prev;
  assign push_s2g = done && push_q;
  assign ev_start = start;
  assign ev_done  = done;
  assign ev_idx   = start ? head[159:128] : idx_q;
  // out_store_nbytes counts every STORE with x_size != 0 (spec 9)
  assign st_out   = (start && x_size != 16'd0)
                  ? ({16'd0, x_size} * {16'd0, y_size}) << LOG_OUT_ELEM_BYTES : 32'd0;

  always @(*) begin
    if (start)                cat = CAT_BUSY[2:0];
    else if (busy_q)          cat = (sync_q || dma_act || done) ? CAT_BUSY[2:0] : CAT_MEM[2:0];
    else if (q_empty || !run) cat = CAT_IDLE[2:0];
    else                      cat = CAT_DEP[2:0] + Q_G2S[2:0];
  end

  always @(posedge clk) begin
    if (clr)        busy_q <= 1'b0;
    else if (start) busy_q <= 1'b1;
    else if (done)  busy_q <= 1'b0;
  end

  always @(posedge clk) begin
    if (start) begin
      sync_q <= sync;
      push_q <= insn[INSN_PUSH_PREV_LSB];
      idx_q  <= head[159:128];
    end
  end
endmodule
