// semaphore.v - one dependency-token queue (l2g, g2l, g2s or s2g): an up/down
// counter with one producer and one consumer (docs/microarch.md 4.3).
//
// The consumer pops at an instruction's start S only when the count at the
// start of S is non-zero; the producer pushes at a done cycle D; the count at
// the end of a cycle is count + pushes - pops, visible from the next cycle.
// Tokens persist across runs (docs/isa.md 5.3): only `rst` clears them.  A push
// beyond the configured TOKQ is a program error: the Verilator harness
// checks it against the run's TOKQ (<= CAP) and reports it with the C
// model's message (testbench/vta_rtl.cpp, model/platform/vta_diag.c).  A pop of an
// empty queue is the core's bug: in simulation, a line on stderr and $stop
// (never stdout).
module semaphore #(
  /* verilator lint_off UNUSEDPARAM */
  parameter integer CAP = 1024,     // the largest TOKQ a run may configure
  /* verilator lint_on UNUSEDPARAM */
  parameter integer COUNT_W = 11
) (
  input  wire         clk,
  input  wire         rst,
  input  wire         push,
  input  wire         pop,
  output wire         nonzero,
  output wire [COUNT_W-1:0] count
);
  reg [COUNT_W-1:0] count_q;
  reg [COUNT_W-1:0] count_d;

  always @(*) begin
    count_d = count_q;
    if (push && !pop) count_d = count_q + 1'b1;
    if (pop && !push) count_d = count_q - 1'b1;
  end

  always @(posedge clk) begin
    if (rst) count_q <= {COUNT_W{1'b0}};
    else     count_q <= count_d;
  end

  assign nonzero = count_q != {COUNT_W{1'b0}};
  assign count   = count_q;

`ifdef SIMULATION
  // A pop of an empty queue is the core's error: stop.  A push beyond the
  // run's TOKQ is the program's, reported by the harness's checker with the
  // C model's message before the push lands (testbench/vta_rtl.cpp).
`include "vta_params.vh"
  always @(posedge clk) begin
    if (!rst && pop && count_q == {COUNT_W{1'b0}}) begin
      $fwrite(STDERR_FD, "semaphore %m: pop of an empty queue\n");
      $stop;
    end
  end
`endif
endmodule
