// semaphore.v - one dependency-token queue (l2g, g2l, g2s or s2g): an up/down
// counter with one producer and one consumer (docs/microarch.md 4.3).
//
// The consumer pops at an instruction's start S only when the count at the
// start of S is non-zero; the producer pushes at a done cycle D; the count at
// the end of a cycle is count + pushes - pops, visible from the next cycle.
// Tokens persist across runs (spec 5.3): only `rst` clears them.  A push
// beyond CAP (TOKQ) is a program error that the C model reports; the RTL
// asserts in simulation, as the contract allows.
module semaphore #(
  /* verilator lint_off UNUSEDPARAM */
  parameter integer CAP = 1024,     // only the simulation check reads it
  /* verilator lint_on UNUSEDPARAM */
  parameter integer W   = 11
) (
  input  wire         clk,
  input  wire         rst,
  input  wire         push,
  input  wire         pop,
  output wire         nonzero,
  output wire [W-1:0] count
);
  reg [W-1:0] count_q;
  reg [W-1:0] count_d;

  always @(*) begin
    count_d = count_q;
    if (push && !pop) count_d = count_q + 1'b1;
    if (pop && !push) count_d = count_q - 1'b1;
  end

  always @(posedge clk) begin
    if (rst) count_q <= {W{1'b0}};
    else     count_q <= count_d;
  end

  assign nonzero = count_q != {W{1'b0}};
  assign count   = count_q;

`ifdef SIMULATION
  // A push beyond TOKQ is the program's error (the model reports it): said on
  // stderr, the run goes on.  A pop of an empty queue is the core's: stop.
`include "vta_params.vh"
  always @(posedge clk) begin
    if (!rst && push && !pop && count_q == CAP[W-1:0])
      $fwrite(STDERR_FD, "semaphore %m: push beyond TOKQ=%0d tokens\n", CAP);
    if (!rst && pop && count_q == {W{1'b0}}) begin
      $fwrite(STDERR_FD, "semaphore %m: pop of an empty queue\n");
      $stop;
    end
  end
`endif
endmodule
