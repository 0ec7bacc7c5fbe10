// mem_arbiter.v - the read side of the memory engine: picks at most one read
// request per cycle by fixed priority fetch (0) > uop (1) > inp (2) > wgt (3)
// > acc (4), and presents it on the AXI AR channel only when fewer than
// MAX_OUTST bursts are in flight (docs/microarch.md 5.1).  Because the RTL
// arbitrates and limits itself, the memory (model/memsys.c behind the
// testbench) never refuses: `grant` is the AR handshake.
//
// A burst is in flight from its issue cycle to its last beat inclusive: the
// count rises at the handshake and falls at the beat with RLAST.  R beats
// need no routing: each client watches m_rid.  `ar_bytes` is the exact byte
// length of the presented request (AXI carries only beats), a debug output
// the testbench gives to the memory model so that its statistics, its fault
// checks and the co-simulation events are exact.
module mem_arbiter #(
  parameter integer OW = 9            // bits of an outstanding count
) (
  input  wire         clk,
  input  wire         clr,
  input  wire [OW-1:0] max_outst,      // run-time MAX_OUTST
  input  wire [4:0]   req_valid,
  input  wire [159:0] req_addr,       // 5 x 32, client c at [32c +: 32]
  input  wire [159:0] req_bytes,
  input  wire [44:0]  req_beats,      // 5 x 9
  output wire [4:0]   grant,
  output wire         m_arvalid,
  input  wire         m_arready,
  output wire [31:0]  m_araddr,
  output wire [7:0]   m_arlen,
  output wire [2:0]   m_arid,
  output wire [31:0]  ar_bytes,
  input  wire         m_rvalid,
  input  wire         m_rlast
);
  reg [OW-1:0] outst_q, outst_d;
  reg [2:0]    sel;
  integer c;

  always @(*) begin
    sel = 3'd0;
    for (c = 4; c >= 0; c = c - 1)
      if (req_valid[c]) sel = c[2:0];
  end

  assign m_arvalid = (|req_valid) && (outst_q < max_outst);
  assign m_araddr  = req_addr[32*sel +: 32];
  assign ar_bytes  = req_bytes[32*sel +: 32];
  wire [8:0] beats = req_beats[9*sel +: 9];
  assign m_arlen   = beats[7:0] - 8'd1;   // 256 beats: 8'hFF, bit 8 is implied
  assign m_arid    = sel;
  wire   issue     = m_arvalid && m_arready;
  assign grant     = issue ? (5'd1 << sel) : 5'd0;

  always @(*) begin
    outst_d = outst_q;
    if (issue && !(m_rvalid && m_rlast)) outst_d = outst_q + 1'b1;
    if (!issue && m_rvalid && m_rlast)   outst_d = outst_q - 1'b1;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, beats[8]};
  /* verilator lint_on UNUSEDSIGNAL */

  always @(posedge clk) begin
    if (clr) outst_q <= {OW{1'b0}};
    else     outst_q <= outst_d;
  end
endmodule
