// fetch.v - the fetch unit (docs/microarch.md 7): reads the run's 16-byte
// instructions in chunks of FETCH_CHUNK as read client 0, then dispatches
// them one per cycle, in order, into the command queue of the unit that
// executes them (docs/isa.md 5.1).  Reading and dispatching never overlap:
//
//   REQ  one command cycle (cmd_q), then present the chunk's bursts, one a
//        cycle, as granted
//   WAIT until the chunk's last beat lands (cycle L)
//   DISP from L (the last beat's own cycle), one instruction a cycle; a full
//        target queue stalls it; the cycle after the chunk's last dispatch,
//        REQ for the next chunk
//   DONE everything dispatched
//
// The chunk buffer is 16/BUS_BYTES banks of BUS_BYTES-wide words, bank j
// holding bytes [j*BUS, (j+1)*BUS) of every instruction, so that a beat
// writes one bank and an instruction is read whole (asynchronously) in its
// dispatch cycle.  Instruction addresses are 16-byte aligned (bundle format)
// and BUS_BYTES <= 16 (checked by the parameter generator), so every beat is
// a whole slice of one instruction.
module fetch (
  input  wire                 clk,
  input  wire                 rst,
  input  wire                 launch,      // the host's launch write (end of cycle -1)
  input  wire                 stop,        // the finish pulse: the run ends with this cycle
  input  wire                 run,
  input  wire [WORD_W-1:0]    insn_count,
  input  wire [WORD_W-1:0]    insn_addr,
  input  wire [WORD_W-1:0]    win_mask,    // MAX_BURST * BUS_BYTES - 1
  input  wire [WORD_W-1:0]    chunk,       // run-time FETCH_CHUNK (<= the built one)
  // read client 0
  output wire                 req_valid,
  output wire [WORD_W-1:0]    req_addr,
  output wire [WORD_W-1:0]    req_bytes,
  output wire [BEATS_W-1:0]   req_beats,
  input  wire                 grant,
  input  wire                 m_rvalid,
  input  wire [RD_ID_W-1:0]   m_rid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  // dispatch
  input  wire [NUNITS-1:0]    q_full,      // per unit (load, compute, store)
  output wire [NUNITS-1:0]    q_push,      // one-hot: the unit dispatched to
  output wire [QWORD_W-1:0]   q_data,      // {index, instruction}
  output wire [UNIT_W-1:0]    disp_unit,
  output wire [QIDX_W-1:0]    disp_idx,
  output reg  [CAT_W-1:0]     cat          // VTA_CAT_* of this cycle
);
`include "vta_params.vh"
  localparam integer NBANKS        = INS_BYTES / BUS_BYTES;  // banks (beats per instruction)
  localparam integer CHUNK_CNT_W   = $clog2(FETCH_CHUNK + 1);            // instructions of a chunk
  localparam integer SLOT_W        = FETCH_CHUNK > 1 ? $clog2(FETCH_CHUNK) : 1;  // a buffer slot
  localparam integer FILL_W        = $clog2(FETCH_CHUNK * NBANKS + 1);   // beats of a chunk
  localparam integer LOG_INS_BYTES = $clog2(INS_BYTES);
  localparam integer STATE_W       = 2;
  // the states of the C model's fetch_t (model/cycle.h)
  localparam [STATE_W-1:0] F_REQ = 0, F_WAIT = 1, F_DISP = 2, F_DONE = 3;
  localparam [NUNITS-1:0] UNIT_ONE = 1;

  reg [STATE_W-1:0]     state_q, state_d;
  reg [QIDX_W-1:0] first_q, first_d;   // index of the chunk's first instruction
  reg [CHUNK_CNT_W-1:0] n_q, n_d;           // instructions in the chunk
  reg [CHUNK_CNT_W-1:0] disp_q, disp_d;     // of them dispatched
  reg [WORD_W-1:0] raddr_q, raddr_d, rend_q, rend_d;
  reg [FILL_W-1:0]      pend_beats_q, pend_beats_d;   // beats requested, not landed
  reg [FILL_W-1:0]      fill_q, fill_d;               // beats landed in the chunk
  reg                   cmd_q, cmd_d;                 // REQ's command cycle: nothing presented

  // ---- the chunk buffer -----------------------------------------------------
  wire beat = m_rvalid && m_rid == RD_FETCH[RD_ID_W-1:0];
  /* verilator lint_off UNUSEDSIGNAL */
  wire [FILL_W-1:0] fill_insn = fill_q / NBANKS[FILL_W-1:0];   // instruction the next beat is in
  /* verilator lint_on UNUSEDSIGNAL */
  wire [SLOT_W-1:0] wr_slot = fill_insn[SLOT_W-1:0];
  wire [INSN_W-1:0] insn;
  genvar bank;
  generate
    for (bank = 0; bank < NBANKS; bank = bank + 1) begin : g_bank
      reg [BUS_BYTES*8-1:0] bank_q [0:FETCH_CHUNK-1];
      always @(posedge clk) begin
        if (beat && (fill_q % NBANKS[FILL_W-1:0]) == bank) bank_q[wr_slot] <= m_rdata;
      end
      // a one-instruction chunk is dispatched in the cycle its last beat lands
      wire through = beat && (fill_q % NBANKS[FILL_W-1:0]) == bank && wr_slot == disp_q[SLOT_W-1:0];
      assign insn[bank*BUS_BYTES*8 +: BUS_BYTES*8] = through ? m_rdata
                                                               : bank_q[disp_q[SLOT_W-1:0]];
    end
  endgenerate

  // ---- decode: which unit executes it (docs/isa.md 5.1) ----------------------------
  wire [UNIT_W-1:0] unit;
  /* verilator lint_off PINCONNECTEMPTY */
  insn_decode u_dec (
    .insn(insn), .opcode(), .pop_prev(), .pop_next(), .push_prev(), .push_next(),
    .unit(unit), .mem_type(), .sram_base(), .dram_base(), .y_size(), .x_size(),
    .x_stride(), .y_pad_0(), .y_pad_1(), .x_pad_0(), .x_pad_1(), .reset_reg(),
    .uop_bgn(), .uop_end(), .iter_out(), .iter_in(), .dst_factor_out(), .dst_factor_in(),
    .src_factor_out(), .src_factor_in(), .wgt_factor_out(), .wgt_factor_in(),
    .alu_opcode(), .use_imm(), .imm());
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- the request walker ---------------------------------------------------
  burst u_burst (.addr(raddr_q), .remaining(rend_q - raddr_q), .win_mask(win_mask),
                 .bytes(req_bytes), .beats(req_beats));
  assign req_valid = run && state_q == F_REQ && !cmd_q;
  assign req_addr  = raddr_q;

  wire last_beat = state_q == F_WAIT && beat && pend_beats_q == {{(FILL_W-1){1'b0}}, 1'b1};
  wire dispatch  = run && (state_q == F_DISP || last_beat) && !q_full[unit];
  assign q_push    = dispatch ? (UNIT_ONE << unit) : {NUNITS{1'b0}};
  assign disp_idx  = first_q + {{(QIDX_W-CHUNK_CNT_W){1'b0}}, disp_q};
  assign q_data    = {disp_idx, insn};
  assign disp_unit = unit;

  // The next chunk: [first + n, first + n + min(remaining, chunk)).
  wire [QIDX_W-1:0]      next_first = first_q + {{(QIDX_W-CHUNK_CNT_W){1'b0}}, n_q};
  wire [WORD_W-1:0]      insns_left = insn_count - next_first;
  wire [CHUNK_CNT_W-1:0] next_n     = insns_left < chunk ? insns_left[CHUNK_CNT_W-1:0]
                                                         : chunk[CHUNK_CNT_W-1:0];
  wire [CHUNK_CNT_W-1:0] first_n    = insn_count < chunk ? insn_count[CHUNK_CNT_W-1:0]
                                                         : chunk[CHUNK_CNT_W-1:0];
  // bytes of n instructions
  function [WORD_W-1:0] insn_bytes(input [CHUNK_CNT_W-1:0] n);
    insn_bytes = {{(WORD_W-CHUNK_CNT_W){1'b0}}, n} << LOG_INS_BYTES;
  endfunction

  always @(*) begin
    state_d      = state_q;
    first_d      = first_q;
    n_d          = n_q;
    disp_d       = disp_q;
    raddr_d      = raddr_q;
    rend_d       = rend_q;
    pend_beats_d = pend_beats_q;
    fill_d       = fill_q;
    cmd_d        = 1'b0;
    if (grant) begin
      raddr_d      = raddr_q + req_bytes;
      pend_beats_d = pend_beats_d + req_beats[FILL_W-1:0];
      if (raddr_q + req_bytes == rend_q) state_d = F_WAIT;
    end
    if (beat) begin
      pend_beats_d = pend_beats_d - 1'b1;
      fill_d       = fill_q + 1'b1;
      // dispatch starts in the cycle of the chunk's last beat
      if (last_beat) state_d = F_DISP;
    end
    if (dispatch) begin
      disp_d = disp_q + 1'b1;
      if (disp_q + 1'b1 == n_q) begin
        if (next_first < insn_count) begin
          state_d = F_REQ;
          cmd_d   = 1'b1;
          first_d = next_first;
          n_d     = next_n;
          disp_d  = {CHUNK_CNT_W{1'b0}};
          raddr_d = rend_q;
          rend_d  = rend_q + insn_bytes(next_n);
          fill_d  = {FILL_W{1'b0}};
        end else begin
          state_d = F_DONE;
        end
      end
    end
    if (stop) state_d = F_DONE;
  end

  always @(posedge clk) begin
    if (rst) begin
      state_q      <= F_DONE;
      first_q      <= {QIDX_W{1'b0}};
      n_q          <= {CHUNK_CNT_W{1'b0}};
      disp_q       <= {CHUNK_CNT_W{1'b0}};
      raddr_q      <= {WORD_W{1'b0}};
      rend_q       <= {WORD_W{1'b0}};
      pend_beats_q <= {FILL_W{1'b0}};
      fill_q       <= {FILL_W{1'b0}};
      cmd_q        <= 1'b0;
    end else if (launch) begin
      // Launch (cycle -1): latch the count and address, request the first
      // chunk (here, not in the next-state logic: that logic then depends on
      // no input of the core, docs/rtl.md 4)
      state_q      <= ~|insn_count ? F_DONE : F_REQ;
      first_q      <= {QIDX_W{1'b0}};
      n_q          <= first_n;
      disp_q       <= {CHUNK_CNT_W{1'b0}};
      raddr_q      <= insn_addr;
      rend_q       <= insn_addr + insn_bytes(first_n);
      pend_beats_q <= {FILL_W{1'b0}};
      fill_q       <= {FILL_W{1'b0}};
      cmd_q        <= 1'b1;
    end else begin
      state_q      <= state_d;
      first_q      <= first_d;
      n_q          <= n_d;
      disp_q       <= disp_d;
      raddr_q      <= raddr_d;
      rend_q       <= rend_d;
      pend_beats_q <= pend_beats_d;
      fill_q       <= fill_d;
      cmd_q        <= cmd_d;
    end
  end

  // Category (docs/microarch.md 8.1): busy when a request issues, a beat
  // lands or an instruction is dispatched; queue_stall when the dispatch is
  // blocked; idle when everything is dispatched; else waiting for memory.
  always @(*) begin
    if (grant || beat || dispatch || (state_q == F_REQ && cmd_q)) cat = CAT_BUSY[CAT_W-1:0];
    else if (state_q == F_DISP && q_full[unit])              cat = CAT_QUEUE[CAT_W-1:0];
    else if (state_q == F_DONE)                              cat = CAT_IDLE[CAT_W-1:0];
    else                                                     cat = CAT_MEM[CAT_W-1:0];
  end
endmodule
