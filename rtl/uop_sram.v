// uop_sram.v - the uop scratchpad: UOP_DEPTH 32-bit micro-ops, written by
// LOAD UOP a beat at a time (up to BUS_BYTES/UOP_ELEM_BYTES consecutive entries from any
// entry, docs/microarch.md 6.3) and read one micro-op a cycle by GEMM/ALU.
// NBANKS = BUS_BYTES/UOP_ELEM_BYTES banks interleaved by entry, so the slots of one beat
// always fall into different banks.  Read timing as sram.v.
module uop_sram (
  input  wire          clk,
  input  wire [BUS_BYTES/UOP_ELEM_BYTES-1:0] we,    // slot s writes entry widx + s
  input  wire [WORD_W-1:0] widx,
  input  wire [BUS_BYTES*8-1:0] wdata,
  input  wire          re,
  input  wire [WORD_W-1:0] ridx,
  output wire [UOP_W-1:0] rdata
);
`include "vta_params.vh"
  localparam integer UOP_W       = UOP_ELEM_BYTES * 8;        // a micro-op's bits
  localparam integer NBANKS      = BUS_BYTES / UOP_ELEM_BYTES;
  localparam integer LOG_NBANKS  = LOG_BUS_BYTES - LOG_UOP_ELEM_BYTES;
  localparam integer BANK_DEPTH  = UOP_DEPTH / NBANKS;
  localparam integer BANK_ADDR_W = LOG_UOP_DEPTH - LOG_NBANKS;

  wire [UOP_W*NBANKS-1:0] bank_rdata;
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, ridx};   // entries wrap at UOP_DEPTH, as hardware does
  /* verilator lint_on UNUSEDSIGNAL */
  genvar bank;
  generate
    if (NBANKS == 1) begin : g_one
      sram #(.DEPTH(UOP_DEPTH), .WIDTH(UOP_W), .ADDR_W(LOG_UOP_DEPTH)) u_bank (
        .clk(clk), .we(we[0]), .waddr(widx[LOG_UOP_DEPTH-1:0]), .wdata(wdata[UOP_W-1:0]),
        .re(re), .raddr(ridx[LOG_UOP_DEPTH-1:0]), .rdata(rdata));
      assign bank_rdata = rdata;
    end else begin : g_banks
      reg [LOG_NBANKS-1:0] rbank_q;   // the bank of the read
      always @(posedge clk) begin
        if (re) rbank_q <= ridx[LOG_NBANKS-1:0];
      end
      for (bank = 0; bank < NBANKS; bank = bank + 1) begin : g_bank
        // the slot of this beat that lands in this bank, and its entry
        wire [LOG_NBANKS-1:0] slot = bank[LOG_NBANKS-1:0] - widx[LOG_NBANKS-1:0];
        /* verilator lint_off UNUSEDSIGNAL */
        wire [WORD_W-1:0] entry = widx + {{(WORD_W-LOG_NBANKS){1'b0}}, slot};
        /* verilator lint_on UNUSEDSIGNAL */
        sram #(.DEPTH(BANK_DEPTH), .WIDTH(UOP_W), .ADDR_W(BANK_ADDR_W)) u_bank (
          .clk(clk), .we(we[slot]), .waddr(entry[LOG_UOP_DEPTH-1:LOG_NBANKS]),
          .wdata(wdata[slot*UOP_W +: UOP_W]),
          .re(re && ridx[LOG_NBANKS-1:0] == bank[LOG_NBANKS-1:0]),
          .raddr(ridx[LOG_UOP_DEPTH-1:LOG_NBANKS]),
          .rdata(bank_rdata[bank*UOP_W +: UOP_W]));
      end
      assign rdata = bank_rdata[rbank_q*UOP_W +: UOP_W];
    end
  endgenerate
endmodule
