// uop_sram.v - the uop scratchpad: UOP_DEPTH 32-bit micro-ops, written by
// LOAD UOP a beat at a time (up to BUS_BYTES/UOP_ELEM_BYTES consecutive entries from any
// entry, docs/microarch.md 6.3) and read one micro-op a cycle by GEMM/ALU.
// NB = BUS_BYTES/UOP_ELEM_BYTES banks interleaved by entry, so the slots of one beat
// always fall into different banks.  Read timing as sram.v.
module uop_sram (
  input  wire          clk,
  input  wire [BUS_BYTES/UOP_ELEM_BYTES-1:0] we,    // slot s writes entry widx + s
  input  wire [WORD_W-1:0] widx,
  input  wire [BUS_BYTES*8-1:0] wdata,
  input  wire          re,
  input  wire [WORD_W-1:0] ridx,
  output wire [UW-1:0]  rdata
);
`include "vta_params.vh"
  localparam integer UW  = UOP_ELEM_BYTES * 8;        // a micro-op's bits
  localparam integer NB  = BUS_BYTES / UOP_ELEM_BYTES;
  localparam integer LNB = LOG_BUS_BYTES - LOG_UOP_ELEM_BYTES;
  localparam integer BD  = UOP_DEPTH / NB;
  localparam integer BAW = LOG_UOP_DEPTH - LNB;

  wire [UW*NB-1:0] bank_rdata;
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, ridx};   // entries wrap at UOP_DEPTH, as hardware does
  /* verilator lint_on UNUSEDSIGNAL */
  genvar bk;
  generate
    if (NB == 1) begin : g_one
      sram #(.DEPTH(UOP_DEPTH), .WIDTH(UW), .AW(LOG_UOP_DEPTH)) u_bank (
        .clk(clk), .we(we[0]), .waddr(widx[LOG_UOP_DEPTH-1:0]), .wdata(wdata[UW-1:0]),
        .re(re), .raddr(ridx[LOG_UOP_DEPTH-1:0]), .rdata(rdata));
      assign bank_rdata = rdata;
    end else begin : g_banks
      reg [LNB-1:0] rsel_q;
      always @(posedge clk) begin
        if (re) rsel_q <= ridx[LNB-1:0];
      end
      for (bk = 0; bk < NB; bk = bk + 1) begin : g_bank
        // the slot of this beat that lands in bank bk, and its entry
        wire [LNB-1:0] slot  = bk[LNB-1:0] - widx[LNB-1:0];
        /* verilator lint_off UNUSEDSIGNAL */
        wire [WORD_W-1:0] entry = widx + {{(WORD_W-LNB){1'b0}}, slot};
        /* verilator lint_on UNUSEDSIGNAL */
        sram #(.DEPTH(BD), .WIDTH(UW), .AW(BAW)) u_bank (
          .clk(clk), .we(we[slot]), .waddr(entry[LOG_UOP_DEPTH-1:LNB]),
          .wdata(wdata[slot*UW +: UW]),
          .re(re && ridx[LNB-1:0] == bk[LNB-1:0]), .raddr(ridx[LOG_UOP_DEPTH-1:LNB]),
          .rdata(bank_rdata[bk*UW +: UW]));
      end
      assign rdata = bank_rdata[rsel_q*UW +: UW];
    end
  endgenerate
endmodule
