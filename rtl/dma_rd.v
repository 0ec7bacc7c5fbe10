// dma_rd.v - the tensor load DMA (docs/microarch.md 6.2, 6.3), one per unit
// that loads: load (LOAD INP, LOAD WGT) and compute (LOAD ACC, LOAD UOP).
// Like the C model's dma_rd_t (model/units/tensor.c) it has three walkers, all
// running from S+1 (`start` is the instruction's start cycle S):
//
//  * requests: after y_pad_0 cycles (the command generator walks the top
//    padding rows first), the bursts of DRAM row 0, row 1, ... are presented
//    one per cycle; a burst not granted is presented again the next cycle;
//  * landing: an element (E bytes, E a multiple of BUS_BYTES) is written in
//    the cycle the beat holding its last byte lands, at entry
//    sram_base + (y_pad_0 + y) * row_len + x_pad_0 + x; a uop beat (4-byte
//    elements) writes up to BUS_BYTES/UOP_ELEM_BYTES consecutive uop entries
//    at once;
//  * padding: the zero entries in ascending order (top rows, then each data
//    row's left and right columns, then bottom rows), one per cycle from
//    S+2 (S+1 counts as busy when pads are due), in cycles in which no beat
//    of this instruction lands; with bottom pads but no side pads the walker
//    first steps over the y_size data rows, one a cycle, beat or not.
//
// Done (`done` high in cycle D): inp/wgt/acc one register stage after the
// last write, D = 1 + max(S, last beat, last pad); uop in the cycle of its
// last beat.  `acted` says the engine did something this cycle (busy), else
// the unit is waiting for the memory (mem_stall).
//
// Names: the walkers' registers are the C model's (ry, raddr, rend,
// pend_beats, lx, stage) or spelled out (req_*, land_*, pad_*; side_* for the
// left and right pads of the data rows); s_* are quantities formed at S.
//
// Structure for simulation speed (docs/rtl.md 4): an idle engine does next
// to nothing per cycle.  The instruction's quantities (with multipliers)
// are formed only at S, the walkers' next state only while active, the uop
// slots and pad entries only in their cycles, the element's write data
// only in the cycle it is written (zero otherwise: it is used only then),
// and the stage register takes each landing beat in place instead of being
// copied every cycle.
module dma_rd #(
  parameter integer MAX_ELEM_BYTES = 256,  // widest element in bytes (the stage register)
  parameter integer UOP_SLOTS      = 2     // uop slots per beat: BUS_BYTES / UOP_ELEM_BYTES
) (
  input  wire                 clk,
  input  wire                 clr,
  input  wire                 start,
  input  wire [RD_ID_W-1:0]   client,       // read client id (RD_*)
  input  wire [LOG_E_W-1:0]   log_e,        // log2 of the element bytes
  input  wire                 is_uop,       // 4-byte uop elements into the uop banks
  input  wire [INSN_MEM_SRAM_BASE_W-1:0] sram_base,
  input  wire [INSN_MEM_DRAM_BASE_W-1:0] dram_base,
  input  wire [INSN_MEM_Y_SIZE_W-1:0]    y_size,
  input  wire [INSN_MEM_X_SIZE_W-1:0]    x_size,
  input  wire [INSN_MEM_X_STRIDE_W-1:0]  x_stride,
  input  wire [PAD_W-1:0]     y_pad_0,
  input  wire [PAD_W-1:0]     y_pad_1,
  input  wire [PAD_W-1:0]     x_pad_0,
  input  wire [PAD_W-1:0]     x_pad_1,
  input  wire [WORD_W-1:0]    win_mask,
  input  wire                 pad_up,       // planted bug pad_row: bottom pads one row too high
  output wire                 req_valid,
  output wire [WORD_W-1:0]    req_addr,
  output wire [WORD_W-1:0]    req_bytes,
  output wire [BEATS_W-1:0]   req_beats,
  input  wire                 grant,
  input  wire                 m_rvalid,
  input  wire [RD_ID_W-1:0]   m_rid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  output wire                 wr_en,        // element or pad write
  output wire [WORD_W-1:0]    wr_idx,
  output wire [MAX_ELEM_BYTES*8-1:0] wr_data,
  output wire [UOP_SLOTS-1:0] uop_we,       // uop slots of this beat written
  output wire [WORD_W-1:0]    uop_idx,      // uop entry of slot 0 of the beat
  output wire                 done,
  output wire                 acted
);
`include "vta_params.vh"
  localparam integer BEAT_W     = BUS_BYTES * 8;
  localparam integer BASE_W     = INSN_MEM_SRAM_BASE_W;
  localparam integer X_SIZE_W   = INSN_MEM_X_SIZE_W;
  localparam integer Y_SIZE_W   = INSN_MEM_Y_SIZE_W;
  localparam integer SIDE_W     = PAD_W + 1;                          // x_pad_0 + x_pad_1
  localparam integer BEAT_IDX_W = $clog2(MAX_ELEM_BYTES / BUS_BYTES + 1); // a beat of an element
  localparam integer SLOT_W     = $clog2(UOP_SLOTS + 1);   // a uop slot of a beat, or UOP_SLOTS
  localparam integer LOG_UOP_SLOT = $clog2(UOP_ELEM_BYTES);
  localparam [UOP_SLOTS-1:0]  SLOTS_ONE = 1;
  localparam [WORD_W-1:0]     W_ZERO = 0, W_ONE = 1;
  localparam [X_SIZE_W-1:0]   X_ZERO = 0, X_ONE = 1;
  localparam [Y_SIZE_W-1:0]   Y_ZERO = 0, Y_ONE = 1;
  localparam [PAD_W-1:0]      PAD_ZERO = 0, PAD_ONE = 1;
  localparam [SIDE_W-1:0]     SIDE_ZERO = 0, SIDE_ONE = 1;
  localparam [BEAT_IDX_W-1:0] BEAT_IDX_ZERO = 0, BEAT_IDX_ONE = 1;
  localparam [SLOT_W-1:0]     SLOT_ZERO = 0;

  // zero-extended to WORD_W
  function [WORD_W-1:0] zext_pad(input [PAD_W-1:0] v);
    zext_pad = {{(WORD_W-PAD_W){1'b0}}, v};
  endfunction
  function [WORD_W-1:0] zext_x(input [X_SIZE_W-1:0] v);
    zext_x = {{(WORD_W-X_SIZE_W){1'b0}}, v};
  endfunction
  function [WORD_W-1:0] zext_y(input [Y_SIZE_W-1:0] v);
    zext_y = {{(WORD_W-Y_SIZE_W){1'b0}}, v};
  endfunction
  function [WORD_W-1:0] zext_base(input [BASE_W-1:0] v);
    zext_base = {{(WORD_W-BASE_W){1'b0}}, v};
  endfunction
  // the pad walker's phases
  localparam integer PHASE_W = 3;
  localparam [PHASE_W-1:0] PHASE_TOP = 0, PHASE_SIDE = 1, PHASE_BOTTOM = 2, PHASE_DONE = 3,
                           PHASE_SKIP = 4;

  reg                  active_q, active_d;
  reg                  uop_q;
  reg [RD_ID_W-1:0]    client_q;
  reg [LOG_E_W-1:0]    log_e_q;
  reg [BASE_W-1:0]     sram_base_q;
  reg [X_SIZE_W-1:0]   x_size_q;
  reg [Y_SIZE_W-1:0]   y_size_q;
  reg [PAD_W-1:0]      x_pad_0_q, x_pad_1_q;
  reg [WORD_W-1:0]     stride_bytes_q, row_bytes_q;
  // request walker
  reg [PAD_W-1:0]      req_wait_q, req_wait_d;   // cycles until the first request
  reg                  req_left_q, req_left_d;   // bursts remain to be requested
  reg [Y_SIZE_W-1:0]   ry_q, ry_d;               // row of the next request
  reg [WORD_W-1:0]     req_row_q, req_row_d, raddr_q, raddr_d, rend_q, rend_d;
  reg [WORD_W-1:0]     pend_beats_q, pend_beats_d;
  // landing
  reg [BEAT_IDX_W-1:0] beat_idx_q, beat_idx_d;   // the next beat of the element
  reg [X_SIZE_W-1:0]   lx_q, lx_d;
  reg [WORD_W-1:0]     land_entry_q, land_entry_d;
  reg                  land_first_q, land_first_d;
  reg [WORD_W-1:0]     land_row_q, land_row_d;
  reg [MAX_ELEM_BYTES*8-1:0] stage_q;
  // padding
  reg [PHASE_W-1:0]    pad_phase_q, pad_phase_d;
  reg                  pad_first_q, pad_first_d;  // S+1: no pad yet (pads from S+2)
  reg [WORD_W-1:0]     pad_count_q, pad_count_d, pad_ptr_q, pad_ptr_d, side_row_q, side_row_d;
  reg [SIDE_W-1:0]     side_col_q, side_col_d;
  reg [Y_SIZE_W-1:0]   side_y_q, side_y_d;
  reg [WORD_W-1:0]     top_pads_q, bottom_pads_q, bottom_start_q, row_len_q;
  reg [SIDE_W-1:0]     side_pads_q;

  // ---- quantities of the instruction, at S (zero in other cycles: used only at S)
  reg [WORD_W-1:0]   s_row_len, s_top_pads, s_bottom_pads, s_bottom_start, s_addr;
  reg [SIDE_W-1:0]   s_side_pads;
  reg [PHASE_W-1:0]  s_pad_phase;
  reg [Y_SIZE_W-1:0] s_rows_above_bottom;   // y_pad_0 + y_size (Y_SIZE_W bits, as y_size)
  reg                s_pad_up;
  always @(*) begin
    s_row_len           = W_ZERO;
    s_top_pads          = W_ZERO;
    s_bottom_pads       = W_ZERO;
    s_bottom_start      = W_ZERO;
    s_addr              = W_ZERO;
    s_side_pads         = SIDE_ZERO;
    s_pad_phase         = PHASE_DONE;
    s_rows_above_bottom = Y_ZERO;
    s_pad_up            = 1'b0;
    if (start) begin
      s_row_len           = zext_pad(x_pad_0) + zext_x(x_size) + zext_pad(x_pad_1);
      s_top_pads          = s_row_len * zext_pad(y_pad_0);
      s_bottom_pads       = s_row_len * zext_pad(y_pad_1);
      s_rows_above_bottom = {{(Y_SIZE_W-PAD_W){1'b0}}, y_pad_0} + y_size;
      s_pad_up            = pad_up && |y_pad_1 && |s_rows_above_bottom;
      s_bottom_start      = zext_base(sram_base) + s_top_pads + s_row_len * zext_y(y_size)
                          - (s_pad_up ? s_row_len : W_ZERO);
      s_side_pads         = {1'b0, x_pad_0} + {1'b0, x_pad_1};
      s_addr              = dram_base << log_e;
      s_pad_phase         = is_uop ? PHASE_DONE
                          : |s_top_pads ? PHASE_TOP
                          : (|s_side_pads && |y_size) ? PHASE_SIDE
                          : (|s_bottom_pads && |y_size) ? PHASE_SKIP
                          : |s_bottom_pads ? PHASE_BOTTOM : PHASE_DONE;
    end
  end

  // ---- this cycle ---------------------------------------------------------------
  wire beat        = active_q && m_rvalid && m_rid == client_q;
  wire tensor_done = active_q && !uop_q && !req_left_q && pend_beats_q == W_ZERO
                  && pad_phase_q == PHASE_DONE;                       // inp/wgt/acc
  wire uop_done    = active_q && uop_q && !req_left_q && pend_beats_q == W_ONE && beat;
  wire pad_skip_ph = pad_phase_q == PHASE_SKIP;            // steps without the write port
  wire pad_due     = active_q && !uop_q && (!beat || pad_skip_ph)
                  && pad_phase_q != PHASE_DONE;                      // a pad step is due
  wire pad_write   = pad_due && !pad_first_q && !pad_skip_ph;
  wire pad_skip    = pad_due && !pad_first_q && pad_skip_ph;
  // the last beat of an element (inp/wgt/acc: E / BUS_BYTES beats)
  wire [BEAT_IDX_W-1:0] elem_last_beat = (BEAT_IDX_ONE << (log_e_q - LOG_BUS_BYTES[LOG_E_W-1:0]))
                                       - BEAT_IDX_ONE;
  wire elem_write  = beat && !uop_q && beat_idx_q == elem_last_beat;

  burst u_burst (.addr(raddr_q), .remaining(rend_q - raddr_q), .win_mask(win_mask),
                 .bytes(req_bytes), .beats(req_beats));
  assign req_valid = active_q && req_left_q && req_wait_q == PAD_ZERO;
  assign req_addr  = raddr_q;

  // uop beat: the first beat of a row may start mid-beat; the last may end
  // early.  Formed only in the cycle of a uop beat (zero otherwise).
  reg [X_SIZE_W-1:0]  uop_slots_n;     // uops this beat writes
  reg [UOP_SLOTS-1:0] uop_slots_we;
  reg [WORD_W-1:0]    uop_entry;       // the entry of slot 0 of the beat
  /* verilator lint_off UNUSEDSIGNAL */
  reg [WORD_W-1:0]    uop_beat_off;    // at most UOP_SLOTS - 1: SLOT_W bits
  /* verilator lint_on UNUSEDSIGNAL */
  reg [SLOT_W-1:0]    uop_slot_off;    // the slot of the beat's first uop
  reg [X_SIZE_W-1:0]  uop_left, uop_room;
  always @(*) begin
    uop_slots_n  = X_ZERO;
    uop_slots_we = {UOP_SLOTS{1'b0}};
    uop_entry    = W_ZERO;
    uop_beat_off = W_ZERO;
    uop_slot_off = SLOT_ZERO;
    uop_left     = X_ZERO;
    uop_room     = X_ZERO;
    if (beat && uop_q) begin
      uop_beat_off = {{(WORD_W-LOG_BUS_BYTES){1'b0}}, land_row_q[LOG_BUS_BYTES-1:0]}
                     >> LOG_UOP_SLOT;
      uop_slot_off = land_first_q ? uop_beat_off[SLOT_W-1:0] : SLOT_ZERO;
      uop_left     = x_size_q - lx_q;
      uop_room     = UOP_SLOTS[X_SIZE_W-1:0] - {{(X_SIZE_W-SLOT_W){1'b0}}, uop_slot_off};
      uop_slots_n  = uop_left < uop_room ? uop_left : uop_room;   // at most UOP_SLOTS: SLOT_W bits
      uop_slots_we = ((SLOTS_ONE << uop_slots_n[SLOT_W-1:0]) - SLOTS_ONE) << uop_slot_off;
      uop_entry    = zext_base(sram_base_q) + zext_x(lx_q)
                   - {{(WORD_W-SLOT_W){1'b0}}, uop_slot_off};
    end
  end
  assign uop_we  = uop_slots_we;
  assign uop_idx = uop_entry;

  // a pad's entry (in a pad cycle) and an element's write data (in the cycle
  // of its last beat: the staged beats and this one)
  reg [WORD_W-1:0]           pad_entry;
  reg [MAX_ELEM_BYTES*8-1:0] elem_data;
  always @(*) begin
    pad_entry = pad_ptr_q;
    if (pad_write && pad_phase_q == PHASE_SIDE)
      pad_entry = side_row_q + {{(WORD_W-SIDE_W){1'b0}}, side_col_q}
                + ((side_col_q >= {1'b0, x_pad_0_q}) ? zext_x(x_size_q) : W_ZERO);
  end
  always @(*) begin
    elem_data = {MAX_ELEM_BYTES*8{1'b0}};
    if (elem_write) begin
      elem_data = stage_q;
      elem_data[beat_idx_q * BEAT_W +: BEAT_W] = m_rdata;
    end
  end
  assign wr_en   = elem_write || pad_write;
  assign wr_idx  = pad_write ? pad_entry : land_entry_q;
  assign wr_data = elem_data;
  assign done    = tensor_done || uop_done;
  assign acted   = tensor_done || grant || beat || pad_due;

  always @(*) begin
    active_d     = active_q;
    req_wait_d   = req_wait_q;
    req_left_d   = req_left_q;
    ry_d         = ry_q;
    req_row_d    = req_row_q;
    raddr_d      = raddr_q;
    rend_d       = rend_q;
    pend_beats_d = pend_beats_q;
    beat_idx_d   = beat_idx_q;
    lx_d         = lx_q;
    land_entry_d = land_entry_q;
    land_first_d = land_first_q;
    land_row_d   = land_row_q;
    pad_phase_d  = pad_phase_q;
    pad_first_d  = 1'b0;
    pad_count_d  = pad_count_q;
    pad_ptr_d    = pad_ptr_q;
    side_row_d   = side_row_q;
    side_col_d   = side_col_q;
    side_y_d     = side_y_q;
    // the walkers move only while active (grant, beat, pads and done imply it)
    if (active_q) begin
      if (req_wait_q != PAD_ZERO) req_wait_d = req_wait_q - PAD_ONE;
      // requests
      if (grant) begin
        raddr_d      = raddr_q + req_bytes;
        pend_beats_d = pend_beats_d + {{(WORD_W-BEATS_W){1'b0}}, req_beats};
        if (raddr_q + req_bytes == rend_q) begin
          if (ry_q + Y_ONE < y_size_q) begin
            ry_d      = ry_q + Y_ONE;
            req_row_d = req_row_q + stride_bytes_q;
            raddr_d   = req_row_q + stride_bytes_q;
            rend_d    = req_row_q + stride_bytes_q + row_bytes_q;
          end else begin
            req_left_d = 1'b0;
          end
        end
      end
      // landing
      if (beat) begin
        pend_beats_d = pend_beats_d - W_ONE;
        if (uop_q) begin
          if (lx_q + uop_slots_n == x_size_q) begin
            lx_d         = X_ZERO;
            land_first_d = 1'b1;
            land_row_d   = land_row_q + stride_bytes_q;
          end else begin
            lx_d         = lx_q + uop_slots_n;
            land_first_d = 1'b0;
          end
        end else begin
          if (elem_write) begin
            beat_idx_d = BEAT_IDX_ZERO;
            if (lx_q + X_ONE == x_size_q) begin
              lx_d         = X_ZERO;
              land_entry_d = land_entry_q + W_ONE + zext_pad(x_pad_1_q) + zext_pad(x_pad_0_q);
            end else begin
              lx_d         = lx_q + X_ONE;
              land_entry_d = land_entry_q + W_ONE;
            end
          end else begin
            beat_idx_d = beat_idx_q + BEAT_IDX_ONE;
          end
        end
      end
      // padding
      if (pad_write) begin
        case (pad_phase_q)
          PHASE_TOP: begin
            pad_ptr_d   = pad_ptr_q + W_ONE;
            pad_count_d = pad_count_q + W_ONE;
            if (pad_count_q + W_ONE == top_pads_q) begin
              pad_count_d = W_ZERO;
              if (side_pads_q != SIDE_ZERO && y_size_q != Y_ZERO) pad_phase_d = PHASE_SIDE;
              else if (bottom_pads_q != W_ZERO && y_size_q != Y_ZERO) pad_phase_d = PHASE_SKIP;
              else if (bottom_pads_q != W_ZERO) begin
                pad_phase_d = PHASE_BOTTOM; pad_ptr_d = bottom_start_q;
              end
              else pad_phase_d = PHASE_DONE;
            end
          end
          PHASE_SIDE: begin
            side_col_d = side_col_q + SIDE_ONE;
            if (side_col_q + SIDE_ONE == side_pads_q) begin
              side_col_d = SIDE_ZERO;
              side_row_d = side_row_q + row_len_q;
              side_y_d   = side_y_q + Y_ONE;
              if (side_y_q + Y_ONE == y_size_q) begin
                if (bottom_pads_q != W_ZERO) begin
                  pad_phase_d = PHASE_BOTTOM; pad_ptr_d = bottom_start_q;
                end
                else pad_phase_d = PHASE_DONE;
              end
            end
          end
          default: begin // PHASE_BOTTOM
            pad_ptr_d   = pad_ptr_q + W_ONE;
            pad_count_d = pad_count_q + W_ONE;
            if (pad_count_q + W_ONE == bottom_pads_q) pad_phase_d = PHASE_DONE;
          end
        endcase
      end
      if (pad_skip) begin
        pad_count_d = pad_count_q + W_ONE;
        if (pad_count_q + W_ONE == zext_y(y_size_q)) begin
          pad_count_d = W_ZERO;
          pad_phase_d = PHASE_BOTTOM;
          pad_ptr_d   = bottom_start_q;
        end
      end
      if (done) active_d = 1'b0;
    end
    // S: set the walkers up
    if (start) begin
      active_d     = 1'b1;
      req_wait_d   = y_pad_0;
      req_left_d   = |y_size;
      ry_d         = Y_ZERO;
      req_row_d    = s_addr;
      raddr_d      = s_addr;
      rend_d       = s_addr + (zext_x(x_size) << log_e);
      pend_beats_d = W_ZERO;
      beat_idx_d   = BEAT_IDX_ZERO;
      lx_d         = X_ZERO;
      land_entry_d = zext_base(sram_base) + s_top_pads + zext_pad(x_pad_0);
      land_first_d = 1'b1;
      land_row_d   = s_addr;
      pad_phase_d  = s_pad_phase;
      pad_first_d  = 1'b1;
      pad_count_d  = W_ZERO;
      pad_ptr_d    = s_pad_phase == PHASE_BOTTOM ? s_bottom_start : zext_base(sram_base);
      side_row_d   = zext_base(sram_base) + s_top_pads;
      side_col_d   = SIDE_ZERO;
      side_y_d     = Y_ZERO;
    end
  end

  always @(posedge clk) begin
    if (clr) active_q <= 1'b0;
    else     active_q <= active_d;
  end

  // the walkers' registers change only while active or at S (pad_first_q is
  // read only while active, and S sets it)
  always @(posedge clk) begin
    if (active_q || start) begin
      req_wait_q   <= req_wait_d;
      req_left_q   <= req_left_d;
      ry_q         <= ry_d;
      req_row_q    <= req_row_d;
      raddr_q      <= raddr_d;
      rend_q       <= rend_d;
      pend_beats_q <= pend_beats_d;
      beat_idx_q   <= beat_idx_d;
      lx_q         <= lx_d;
      land_entry_q <= land_entry_d;
      land_first_q <= land_first_d;
      land_row_q   <= land_row_d;
      pad_phase_q  <= pad_phase_d;
      pad_first_q  <= pad_first_d;
      pad_count_q  <= pad_count_d;
      pad_ptr_q    <= pad_ptr_d;
      side_row_q   <= side_row_d;
      side_col_q   <= side_col_d;
      side_y_q     <= side_y_d;
    end
    if (beat && !uop_q) stage_q[beat_idx_q * BEAT_W +: BEAT_W] <= m_rdata;
    if (start) begin
      uop_q          <= is_uop;
      client_q       <= client;
      log_e_q        <= log_e;
      sram_base_q    <= sram_base;
      x_size_q       <= x_size;
      y_size_q       <= y_size;
      x_pad_0_q      <= x_pad_0;
      x_pad_1_q      <= x_pad_1;
      stride_bytes_q <= {{(WORD_W-INSN_MEM_X_STRIDE_W){1'b0}}, x_stride} << log_e;
      row_bytes_q    <= zext_x(x_size) << log_e;
      top_pads_q     <= s_top_pads;
      bottom_pads_q  <= s_bottom_pads;
      bottom_start_q <= s_bottom_start;
      row_len_q      <= s_row_len;
      side_pads_q    <= s_side_pads;
    end
  end
endmodule
