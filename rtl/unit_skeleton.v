// unit_skeleton.v - the unit skeleton of docs/microarch.md 4, shared by load,
// store and compute (the C model's per-unit start/done logic in
// model/cycle.c): the head instruction of the unit's command queue starts in
// cycle S when the unit is idle, the run is on and every token queue it pops
// holds a token; it pops those tokens in S; in its done cycle D (`at_done`, as
// the unit says, while busy) it leaves the queue and pushes the tokens its
// push flags ask for.  A unit has a previous stage (token queue Q_PREV:
// pop_prev/push_prev), a next stage (Q_NEXT: pop_next/push_next), or both
// (USE_PREV, USE_NEXT); the flags of a stage it lacks are ignored (fetch's
// check rejects them in the C model).
//
// `cat` is the unit's cycle category (docs/microarch.md 8.1): busy in S and
// in busy cycles in which the unit `acted`, mem_stall in the other busy
// cycles, idle with an empty queue or no run, else waiting for the token it
// lacks (the previous stage's first).
module unit_skeleton #(
  parameter integer USE_PREV = 1,
  parameter integer USE_NEXT = 1,
  parameter integer Q_PREV   = 0,   // VTA_Q_* of the previous stage's token queue
  parameter integer Q_NEXT   = 0    // ... and of the next stage's
) (
  input  wire              clk,
  input  wire              clr,          // reset or launch: idle
  input  wire              run,
  input  wire              q_empty,
  input  wire [QIDX_W-1:0] head_idx,     // instruction index of the queue's head
  input  wire              pop_prev,     // the head's dependency flags
  input  wire              pop_next,
  input  wire              push_prev,
  input  wire              push_next,
  input  wire              prev_nz,      // the token queues hold a token
  input  wire              next_nz,
  input  wire              at_done,      // while busy: this cycle is D
  input  wire              acted,        // while busy and not S: busy (else mem_stall)
  output wire              start,        // S
  output wire              done,         // D: also the dequeue
  output wire              busy,
  output wire              pop_prev_o,
  output wire              pop_next_o,
  output wire              push_prev_o,
  output wire              push_next_o,
  output wire [QIDX_W-1:0] idx,          // instruction index of the cycle's S or busy one
  output reg  [CAT_W-1:0]  cat
);
`include "vta_params.vh"
  reg              busy_q, push_prev_q, push_next_q;
  reg [QIDX_W-1:0] idx_q;

  wire prev_ok = USE_PREV == 0 || !pop_prev || prev_nz;
  wire next_ok = USE_NEXT == 0 || !pop_next || next_nz;
  assign start = run && !busy_q && !q_empty && prev_ok && next_ok;
  assign done  = busy_q && at_done;
  assign busy  = busy_q;

  assign pop_prev_o  = USE_PREV != 0 && start && pop_prev;
  assign pop_next_o  = USE_NEXT != 0 && start && pop_next;
  assign push_prev_o = USE_PREV != 0 && done && push_prev_q;
  assign push_next_o = USE_NEXT != 0 && done && push_next_q;
  assign idx         = start ? head_idx : idx_q;

  // the token a waiting head lacks: the previous stage's first
  wire wait_prev = USE_NEXT == 0 || (USE_PREV != 0 && pop_prev && !prev_nz);
  always @(*) begin
    if (start)                cat = CAT_BUSY[CAT_W-1:0];
    else if (busy_q)          cat = acted ? CAT_BUSY[CAT_W-1:0] : CAT_MEM[CAT_W-1:0];
    else if (q_empty || !run) cat = CAT_IDLE[CAT_W-1:0];
    else if (wait_prev)       cat = CAT_DEP[CAT_W-1:0] + Q_PREV[CAT_W-1:0];
    else                      cat = CAT_DEP[CAT_W-1:0] + Q_NEXT[CAT_W-1:0];
  end

  always @(posedge clk) begin
    if (clr)        busy_q <= 1'b0;
    else if (start) busy_q <= 1'b1;
    else if (done)  busy_q <= 1'b0;
  end

  always @(posedge clk) begin
    if (start) begin
      push_prev_q <= push_prev;
      push_next_q <= push_next;
      idx_q       <= head_idx;
    end
  end
endmodule
