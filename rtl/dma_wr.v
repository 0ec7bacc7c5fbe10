// dma_wr.v - the store DMA (docs/microarch.md 6.6): dense rows of the out
// scratchpad to strided DRAM rows, through the single write channel, one
// burst at a time.  Per burst:
//
//   AW   present the burst's address until accepted (the first at S+1);
//   FILL one action per cycle until the burst's last beat is accepted: if the
//        next beat's bytes are not staged, READ the next out element (one
//        cycle: the SRAM read bubble), else present that beat until
//        accepted (W);
//   ACK  wait for the write acknowledge (B); then the next burst of the row,
//        the next row, or done (D = the last acknowledge).
//
// Out elements are E = OUT_ELEM_BYTES >= BUS_BYTES and E-aligned in DRAM, so
// an element is OB = E / BUS_BYTES whole beats; the out SRAM's output register
// holds the element while its beats go out, also across a burst boundary
// (an element spans two bursts when E > MAX_BURST * BUS_BYTES).
module dma_wr (
  input  wire          clk,
  input  wire          clr,
  input  wire          start,
  input  wire [INSN_MEM_SRAM_BASE_W-1:0] sram_base,
  input  wire [INSN_MEM_DRAM_BASE_W-1:0] dram_base,
  input  wire [INSN_MEM_Y_SIZE_W-1:0]    y_size,
  input  wire [INSN_MEM_X_SIZE_W-1:0]    x_size,
  input  wire [INSN_MEM_X_STRIDE_W-1:0]  x_stride,
  input  wire [WORD_W-1:0]    win_mask,
  // out scratchpad read port
  output wire          out_re,
  output wire [WORD_W-1:0]    out_idx,
  input  wire [OUT_ELEM_BYTES*8-1:0] out_rdata,
  // AXI write channel
  output wire          m_awvalid,
  input  wire          m_awready,
  output wire [WORD_W-1:0]    m_awaddr,
  output wire [AXI_LEN_W-1:0] m_awlen,
  output wire          m_wvalid,
  input  wire          m_wready,
  output wire [BUS_BYTES*8-1:0] m_wdata,
  output wire [BUS_BYTES-1:0]   m_wstrb,
  output wire          m_wlast,
  input  wire          m_bvalid,
  output wire          done,
  output wire          act
);
`include "vta_params.vh"
  localparam integer BW = BUS_BYTES * 8;
  localparam integer OB = OUT_ELEM_BYTES / BUS_BYTES;
  localparam integer OBW = $clog2(OB + 1);
  localparam integer ST_W = 2;
  localparam integer YW   = INSN_MEM_Y_SIZE_W;
  localparam [ST_W-1:0]      W_IDLE = 0, W_AW = 1, W_FILL = 2, W_ACK = 3;
  localparam [WORD_W-1:0]    W_ONE = 1;
  localparam [YW-1:0]        Y_ZERO = 0, Y_ONE = 1;
  localparam [AXI_LEN_W-1:0] LEN_ONE = 1;
  function [WORD_W-1:0] wz(input [INSN_MEM_X_SIZE_W-1:0] v);   // x_size, zero-extended
    wz = {{(WORD_W-INSN_MEM_X_SIZE_W){1'b0}}, v};
  endfunction

  reg [ST_W-1:0]   st_q, st_d;
  reg [YW-1:0]     y_q, y_d, ys_q;
  reg [WORD_W-1:0] entry_q, entry_d;
  reg [WORD_W-1:0] rrow_q, rrow_d, rend_q, rend_d;
  reg [WORD_W-1:0] baddr_q, baddr_d, bend_q, bend_d, beat_q, beat_d;
  reg [OBW-1:0] left_q, left_d;   // beats of the staged element not yet sent
  reg [OBW-1:0] bidx_q, bidx_d;   // next beat of the staged element
  reg [WORD_W-1:0] stride_b_q, row_b_q;

  wire [WORD_W-1:0]  bytes;
  wire [BEATS_W-1:0] beats;
  burst u_burst (.addr(baddr_q), .remaining(rend_q - baddr_q), .win_mask(win_mask),
                 .bytes(bytes), .beats(beats));

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, beats[BEATS_W-1:AXI_LEN_W]};      // AWLEN = beats - 1 (256: 8'hFF)
  /* verilator lint_on UNUSEDSIGNAL */
  wire in_fill = st_q == W_FILL;
  assign out_re    = in_fill && left_q == {OBW{1'b0}};
  assign out_idx   = entry_q;
  assign m_awvalid = st_q == W_AW;
  assign m_awaddr  = baddr_q;
  assign m_awlen   = beats[AXI_LEN_W-1:0] - LEN_ONE;
  assign m_wvalid  = in_fill && left_q != {OBW{1'b0}};
  assign m_wdata   = out_rdata[bidx_q * BW +: BW];
  assign m_wstrb   = {BUS_BYTES{1'b1}};
  assign m_wlast   = beat_q + BUS_BYTES == bend_q;
  wire   aw_ok     = m_awvalid && m_awready;
  wire   w_ok      = m_wvalid && m_wready;
  wire   b_ok      = st_q == W_ACK && m_bvalid;
  wire   last_burst = bend_q == rend_q && y_q + Y_ONE >= ys_q;
  assign done      = b_ok && last_burst;
  assign act       = aw_ok || out_re || w_ok || b_ok;

  always @(*) begin
    st_d    = st_q;
    y_d     = y_q;
    entry_d = entry_q;
    rrow_d  = rrow_q;
    rend_d  = rend_q;
    baddr_d = baddr_q;
    bend_d  = bend_q;
    beat_d  = beat_q;
    left_d  = left_q;
    bidx_d  = bidx_q;
    case (st_q)
      W_AW: if (aw_ok) begin
        bend_d = baddr_q + bytes;
        beat_d = {baddr_q[WORD_W-1:LOG_BUS_BYTES], {LOG_BUS_BYTES{1'b0}}};
        st_d   = W_FILL;
      end
      W_FILL: begin
        if (out_re) begin
          entry_d = entry_q + W_ONE;
          left_d  = OB[OBW-1:0];
          bidx_d  = {OBW{1'b0}};
        end else if (w_ok) begin
          left_d = left_q - 1'b1;
          bidx_d = bidx_q + 1'b1;
          beat_d = beat_q + BUS_BYTES;
          if (m_wlast) st_d = W_ACK;
        end
      end
      W_ACK: if (b_ok) begin
        if (bend_q != rend_q) begin          // the next burst of this row
          baddr_d = bend_q;
          st_d    = W_AW;
        end else if (y_q + Y_ONE < ys_q) begin  // the next row
          y_d     = y_q + Y_ONE;
          rrow_d  = rrow_q + stride_b_q;
          baddr_d = rrow_q + stride_b_q;
          rend_d  = rrow_q + stride_b_q + row_b_q;
          st_d    = W_AW;
        end else begin
          st_d    = W_IDLE;
        end
      end
      default: ;
    endcase
    if (start) begin
      st_d    = W_AW;
      y_d     = Y_ZERO;
      entry_d = {{(WORD_W-INSN_MEM_SRAM_BASE_W){1'b0}}, sram_base};
      rrow_d  = dram_base << LOG_OUT_ELEM_BYTES;
      baddr_d = dram_base << LOG_OUT_ELEM_BYTES;
      rend_d  = (dram_base << LOG_OUT_ELEM_BYTES) + (wz(x_size) << LOG_OUT_ELEM_BYTES);
      left_d  = {OBW{1'b0}};
      bidx_d  = {OBW{1'b0}};
    end
  end

  always @(posedge clk) begin
    if (clr) st_q <= W_IDLE;
    else     st_q <= st_d;
  end

  // the walker's registers change only while it works or at S (for
  // simulation speed: an idle store DMA copies nothing)
  always @(posedge clk) begin
    if (st_q != W_IDLE || start) begin
      y_q     <= y_d;
      entry_q <= entry_d;
      rrow_q  <= rrow_d;
      rend_q  <= rend_d;
      baddr_q <= baddr_d;
      bend_q  <= bend_d;
      beat_q  <= beat_d;
      left_q  <= left_d;
      bidx_q  <= bidx_d;
    end
    if (start) begin
      ys_q       <= y_size;
      stride_b_q <= {{(WORD_W-INSN_MEM_X_STRIDE_W){1'b0}}, x_stride} << LOG_OUT_ELEM_BYTES;
      row_b_q    <= wz(x_size) << LOG_OUT_ELEM_BYTES;
    end
  end
endmodule
