// mem_arbiter.v - the read side of the memory engine: picks at most one read
// request per cycle by fixed priority fetch (0) > uop (1) > inp (2) > wgt (3)
// > acc (4), and presents it on the AXI AR channel only when fewer than
// MAX_OUTST bursts are in flight (docs/microarch.md 5.1).  Because the RTL
// arbitrates and limits itself, the memory (model/platform/memsys.c behind the
// testbench) never refuses: `grant` is the AR handshake.
//
// The reference's issue rules (5.1): a client granted in cycle t is not
// eligible in t+1 (its one-deep command queue), and nothing is issued in a
// cycle in which a burst's last beat lands three cycles later (the R-last
// beat on the reference's AXI bus).  `rlast_soon` is the memory's "a last
// beat lands four cycles from now", registered here into that cycle's block,
// so that AR stays a function of registered state.
//
// A burst holds one of the MAX_OUTST slots from its issue cycle to the cycle
// its last beat is on the reference's AXI bus (three cycles before it lands
// here), where the reference's VME frees the slot: the count rises at the
// handshake and falls with `frees`, the memory's "a burst stops holding a
// slot at the end of this cycle" (at most one a cycle), which goes straight
// into the count register like rlast_soon.  R beats
// need no routing: each client watches m_rid.  `ar_bytes` is the exact byte
// length of the presented request (AXI carries only beats), a debug output
// the testbench gives to the memory model so that its statistics, its fault
// checks and the co-simulation events are exact.
module mem_arbiter #(
  parameter integer OUTST_W = 9       // bits of an outstanding count
) (
  input  wire                          clk,
  input  wire                          clr,
  input  wire [OUTST_W-1:0]            max_outst,  // run-time MAX_OUTST
  input  wire [RD_NCLIENTS-1:0]        req_valid,
  input  wire [RD_NCLIENTS*WORD_W-1:0] req_addr,   // client c at [WORD_W*c +: WORD_W]
  input  wire [RD_NCLIENTS*WORD_W-1:0] req_bytes,
  input  wire [RD_NCLIENTS*BEATS_W-1:0] req_beats, // client c at [BEATS_W*c +: BEATS_W]
  output wire [RD_NCLIENTS-1:0]        grant,
  output wire                          m_arvalid,
  input  wire                          m_arready,
  output wire [WORD_W-1:0]             m_araddr,
  output wire [AXI_LEN_W-1:0]          m_arlen,
  output wire [RD_ID_W-1:0]            m_arid,
  output wire [WORD_W-1:0]             ar_bytes,
  input  wire                          frees,      // a burst frees its slot at this edge
  input  wire                          rlast_soon  // a last beat lands in 4 cycles
);
`include "vta_params.vh"
  localparam [RD_NCLIENTS-1:0] GRANT_ONE = 1;
  localparam [AXI_LEN_W-1:0]   LEN_ONE   = 1;
  reg [OUTST_W-1:0]     outst_q;             // bursts holding a slot
  reg [RD_NCLIENTS-1:0] granted_prev_q;      // granted in the previous cycle
  reg                   rlast_block_q;       // a last beat lands three cycles from now
  wire [RD_NCLIENTS-1:0] eligible = req_valid & ~granted_prev_q;
  reg [RD_ID_W-1:0]     selected;            // the client presented on AR
  integer client;

  always @(*) begin
    selected = {RD_ID_W{1'b0}};
    for (client = RD_NCLIENTS - 1; client >= 0; client = client - 1)
      if (eligible[client]) selected = client[RD_ID_W-1:0];
  end

  assign m_arvalid = (|eligible) && !rlast_block_q && (outst_q < max_outst);
  assign m_araddr  = req_addr[WORD_W*selected +: WORD_W];
  assign ar_bytes  = req_bytes[WORD_W*selected +: WORD_W];
  wire [BEATS_W-1:0] beats = req_beats[BEATS_W*selected +: BEATS_W];
  // ARLEN = beats - 1 (the largest burst's count needs one bit more than ARLEN)
  assign m_arlen   = beats[AXI_LEN_W-1:0] - LEN_ONE;
  assign m_arid    = selected;
  wire   issue     = m_arvalid && m_arready;
  assign grant     = issue ? (GRANT_ONE << selected) : {RD_NCLIENTS{1'b0}};

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, beats[BEATS_W-1:AXI_LEN_W]};
  /* verilator lint_on UNUSEDSIGNAL */

  always @(posedge clk) begin
    if (clr) begin
      outst_q        <= {OUTST_W{1'b0}};
      granted_prev_q <= {RD_NCLIENTS{1'b0}};
      rlast_block_q  <= 1'b0;
    end else begin
      outst_q        <= outst_q + {{(OUTST_W-1){1'b0}}, issue} - {{(OUTST_W-1){1'b0}}, frees};
      granted_prev_q <= grant;
      rlast_block_q  <= rlast_soon;
    end
  end

`ifdef SIMULATION
  // Invariants (simulation only): at most one read grant per cycle, bursts in
  // flight within the run-time MAX_OUTST, no slot freed without a burst.
  always @(posedge clk) begin
    if (!clr && |(grant & (grant - GRANT_ONE))) begin
      $fwrite(STDERR_FD, "mem_arbiter %m: more than one grant in a cycle (%b)\n", grant);
      $stop;
    end
    if (!clr && outst_q > max_outst) begin
      $fwrite(STDERR_FD, "mem_arbiter %m: %0d bursts in flight, MAX_OUTST %0d\n", outst_q,
              max_outst);
      $stop;
    end
    if (!clr && frees && outst_q == {OUTST_W{1'b0}} && !issue) begin
      $fwrite(STDERR_FD, "mem_arbiter %m: a slot freed with no burst holding one\n");
      $stop;
    end
  end
`endif
endmodule
