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
//
// Names as the C model's dma_wr_t (model/cycle.h): the states AW, FILL, ACK
// (STATE_*, the C model's WR_*; STATE_IDLE: no store), the row y, the next
// out entry, the row's DRAM end rend, the burst [baddr, bend) and the next
// beat's address.
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
  output wire          acted
);
`include "vta_params.vh"
  localparam integer BEAT_W   = BUS_BYTES * 8;
  localparam integer OB       = OUT_ELEM_BYTES / BUS_BYTES;   // beats of an out element
  localparam integer OB_W     = $clog2(OB + 1);
  localparam integer STATE_W  = 2;
  localparam integer Y_SIZE_W = INSN_MEM_Y_SIZE_W;
  localparam [STATE_W-1:0]   STATE_IDLE = 0, STATE_AW = 1, STATE_FILL = 2, STATE_ACK = 3;
  localparam [WORD_W-1:0]    W_ONE = 1;
  localparam [Y_SIZE_W-1:0]  Y_ZERO = 0, Y_ONE = 1;
  localparam [AXI_LEN_W-1:0] LEN_ONE = 1;
  function [WORD_W-1:0] zext_x(input [INSN_MEM_X_SIZE_W-1:0] v);   // x_size, zero-extended
    zext_x = {{(WORD_W-INSN_MEM_X_SIZE_W){1'b0}}, v};
  endfunction

  reg [STATE_W-1:0]  state_q, state_d;
  reg [Y_SIZE_W-1:0] y_q, y_d, y_size_q;
  reg [WORD_W-1:0]   entry_q, entry_d;
  reg [WORD_W-1:0]   row_addr_q, row_addr_d, rend_q, rend_d;   // the row's DRAM bytes
  reg [WORD_W-1:0]   baddr_q, baddr_d, bend_q, bend_d, beat_q, beat_d;
  reg [OB_W-1:0]     beats_left_q, beats_left_d;   // beats of the staged element not yet sent
  reg [OB_W-1:0]     beat_idx_q, beat_idx_d;       // next beat of the staged element
  reg [WORD_W-1:0]   stride_bytes_q, row_bytes_q;

  wire [WORD_W-1:0]  bytes;
  wire [BEATS_W-1:0] beats;
  burst u_burst (.addr(baddr_q), .remaining(rend_q - baddr_q), .win_mask(win_mask),
                 .bytes(bytes), .beats(beats));

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, beats[BEATS_W-1:AXI_LEN_W]};      // AWLEN = beats - 1 (256: 8'hFF)
  /* verilator lint_on UNUSEDSIGNAL */
  wire in_fill = state_q == STATE_FILL;
  assign out_re    = in_fill && beats_left_q == {OB_W{1'b0}};
  assign out_idx   = entry_q;
  assign m_awvalid = state_q == STATE_AW;
  assign m_awaddr  = baddr_q;
  assign m_awlen   = beats[AXI_LEN_W-1:0] - LEN_ONE;
  assign m_wvalid  = in_fill && beats_left_q != {OB_W{1'b0}};
  assign m_wdata   = out_rdata[beat_idx_q * BEAT_W +: BEAT_W];
  assign m_wstrb   = {BUS_BYTES{1'b1}};
  assign m_wlast   = beat_q + BUS_BYTES == bend_q;
  wire   aw_ok     = m_awvalid && m_awready;
  wire   w_ok      = m_wvalid && m_wready;
  wire   b_ok      = state_q == STATE_ACK && m_bvalid;
  wire   last_burst = bend_q == rend_q && y_q + Y_ONE >= y_size_q;
  assign done      = b_ok && last_burst;
  assign acted     = aw_ok || out_re || w_ok || b_ok;

  always @(*) begin
    state_d      = state_q;
    y_d          = y_q;
    entry_d      = entry_q;
    row_addr_d   = row_addr_q;
    rend_d       = rend_q;
    baddr_d      = baddr_q;
    bend_d       = bend_q;
    beat_d       = beat_q;
    beats_left_d = beats_left_q;
    beat_idx_d   = beat_idx_q;
    case (state_q)
      STATE_AW: if (aw_ok) begin
        bend_d  = baddr_q + bytes;
        beat_d  = {baddr_q[WORD_W-1:LOG_BUS_BYTES], {LOG_BUS_BYTES{1'b0}}};
        state_d = STATE_FILL;
      end
      STATE_FILL: begin
        if (out_re) begin
          entry_d      = entry_q + W_ONE;
          beats_left_d = OB[OB_W-1:0];
          beat_idx_d   = {OB_W{1'b0}};
        end else if (w_ok) begin
          beats_left_d = beats_left_q - 1'b1;
          beat_idx_d   = beat_idx_q + 1'b1;
          beat_d       = beat_q + BUS_BYTES;
          if (m_wlast) state_d = STATE_ACK;
        end
      end
      STATE_ACK: if (b_ok) begin
        if (bend_q != rend_q) begin          // the next burst of this row
          baddr_d = bend_q;
          state_d = STATE_AW;
        end else if (y_q + Y_ONE < y_size_q) begin  // the next row
          y_d        = y_q + Y_ONE;
          row_addr_d = row_addr_q + stride_bytes_q;
          baddr_d    = row_addr_q + stride_bytes_q;
          rend_d     = row_addr_q + stride_bytes_q + row_bytes_q;
          state_d    = STATE_AW;
        end else begin
          state_d    = STATE_IDLE;
        end
      end
      default: ;
    endcase
    if (start) begin
      state_d      = STATE_AW;
      y_d          = Y_ZERO;
      entry_d      = {{(WORD_W-INSN_MEM_SRAM_BASE_W){1'b0}}, sram_base};
      row_addr_d   = dram_base << LOG_OUT_ELEM_BYTES;
      baddr_d      = dram_base << LOG_OUT_ELEM_BYTES;
      rend_d       = (dram_base << LOG_OUT_ELEM_BYTES) + (zext_x(x_size) << LOG_OUT_ELEM_BYTES);
      beats_left_d = {OB_W{1'b0}};
      beat_idx_d   = {OB_W{1'b0}};
    end
  end

  always @(posedge clk) begin
    if (clr) state_q <= STATE_IDLE;
    else     state_q <= state_d;
  end

  // the walker's registers change only while it works or at S (for
  // simulation speed: an idle store DMA copies nothing)
  always @(posedge clk) begin
    if (state_q != STATE_IDLE || start) begin
      y_q          <= y_d;
      entry_q      <= entry_d;
      row_addr_q   <= row_addr_d;
      rend_q       <= rend_d;
      baddr_q      <= baddr_d;
      bend_q       <= bend_d;
      beat_q       <= beat_d;
      beats_left_q <= beats_left_d;
      beat_idx_q   <= beat_idx_d;
    end
    if (start) begin
      y_size_q       <= y_size;
      stride_bytes_q <= {{(WORD_W-INSN_MEM_X_STRIDE_W){1'b0}}, x_stride} << LOG_OUT_ELEM_BYTES;
      row_bytes_q    <= zext_x(x_size) << LOG_OUT_ELEM_BYTES;
    end
  end
endmodule
