// cmd_queue.v - the command queue of one unit (load, compute or store): a FIFO
// of dispatched instructions with their indices (docs/microarch.md 4.1, 7).
//
// The executing instruction stays at the head until its done cycle D, so the
// queue holds it and up to CMDQ-1 waiting ones; `pop` is D.  Fetch pushes at
// the end of its dispatch cycle and sees `full` from the start of the cycle.
// `limit` is the run-time CMDQ (<= DEPTH, the built one).  The head is read
// combinationally so that a unit can start the cycle it sees the entry.
// Queues start empty at every launch (`clr`).
module cmd_queue #(
  // (vta_top sets every parameter: DEPTH = CMDQ, WIDTH = QWORD_W)
  parameter integer DEPTH = 2,
  parameter integer WIDTH = 1,
  parameter integer CNT_W = 2,    // bits of a count 0..DEPTH
  parameter integer PTR_W = 1     // bits of a slot index
) (
  input  wire             clk,
  input  wire             clr,
  input  wire [CNT_W-1:0] limit,
  input  wire             push,
  input  wire [WIDTH-1:0] push_data,
  input  wire             pop,
  output wire [WIDTH-1:0] head,
  output wire             empty,
  output wire             full
);
  reg [WIDTH-1:0] slot_q [0:DEPTH-1];
  reg [PTR_W-1:0] head_q, tail_q;
  reg [CNT_W-1:0] count_q;
  reg [PTR_W-1:0] head_d, tail_d;
  reg [CNT_W-1:0] count_d;

  function [PTR_W-1:0] next_slot(input [PTR_W-1:0] p);
    next_slot = (p == DEPTH[PTR_W-1:0] - 1'b1) ? {PTR_W{1'b0}} : p + 1'b1;
  endfunction

  always @(*) begin
    head_d  = pop  ? next_slot(head_q) : head_q;
    tail_d  = push ? next_slot(tail_q) : tail_q;
    count_d = count_q;
    if (push && !pop) count_d = count_q + 1'b1;
    if (pop && !push) count_d = count_q - 1'b1;
  end

  always @(posedge clk) begin
    if (clr) begin
      head_q  <= {PTR_W{1'b0}};
      tail_q  <= {PTR_W{1'b0}};
      count_q <= {CNT_W{1'b0}};
    end else begin
      head_q  <= head_d;
      tail_q  <= tail_d;
      count_q <= count_d;
    end
  end

  always @(posedge clk) begin
    if (push) slot_q[tail_q] <= push_data;
  end

  // The head entry in a register of its own, slot_q[head_q] after every
  // edge: the entry the head moves to, or the one pushed into it.  Loaded
  // only when the head moves (pop, clr) or a push lands in the head's slot,
  // so a simulator copies the QWORD_W-bit entry in those cycles only rather
  // than selecting it from the slots in every cycle.
  reg  [WIDTH-1:0] head_data_q;
  wire [PTR_W-1:0] head_next = clr ? {PTR_W{1'b0}} : head_d;
  always @(posedge clk) begin
    if (clr || pop || (push && tail_q == head_q))
      head_data_q <= (push && tail_q == head_next) ? push_data : slot_q[head_next];
  end
  assign head  = head_data_q;
  assign empty = count_q == {CNT_W{1'b0}};
  assign full  = count_q >= limit;

`ifdef SIMULATION
  // Invariants (simulation only): fetch pushes only into a queue that was
  // not full at the start of the cycle, and a unit pops only its own head.
`include "vta_params.vh"
  wire overflow  = push && count_q >= limit;
  wire underflow = pop && count_q == {CNT_W{1'b0}};
  always @(posedge clk) begin
    if (!clr && (overflow || underflow)) begin
      if (overflow)
        $fwrite(STDERR_FD, "cmd_queue %m: push into a full queue (%0d entries, CMDQ %0d)\n",
                count_q, limit);
      else
        $fwrite(STDERR_FD, "cmd_queue %m: pop of an empty queue\n");
      $stop;
    end
  end
`endif
endmodule
