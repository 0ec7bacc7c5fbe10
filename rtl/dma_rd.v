// dma_rd.v - the tensor load DMA (docs/microarch.md 6.2, 6.3), one per unit
// that loads: load (LOAD INP, LOAD WGT) and compute (LOAD ACC, LOAD UOP).
// Like the C model's dma_rd_t (model/tensor.c) it has three walkers, all
// running from S+1 (`start` is the instruction's start cycle S):
//
//  * requests: after y_pad_0 cycles (the command generator walks the top
//    padding rows first), the bursts of DRAM row 0, row 1, ... are presented
//    one per cycle; a burst not granted is presented again the next cycle;
//  * landing: an element (E bytes, E a multiple of BUS_BYTES) is written in
//    the cycle the beat holding its last byte lands, at entry
//    sram_base + (y_pad_0 + y) * row_len + x_pad_0 + x; a uop beat (4-byte
//    elements) writes up to BUS_BYTES/UOP_ELEM_BYTES consecutive uop entries at once;
//  * padding: the zero entries in ascending order (top rows, then each data
//    row's left and right columns, then bottom rows), one per cycle from
//    S+2 (S+1 counts as busy when pads are due), in cycles in which no beat
//    of this instruction lands.
//
// Done (`done` high in cycle D): inp/wgt/acc one register stage after the
// last write, D = 1 + max(S, last beat, last pad); uop in the cycle of its
// last beat.  `act` says the engine did something this cycle (busy), else
// the unit is waiting for the memory (mem_stall).
//
// Structure for simulation speed (docs/rtl.md 4): an idle engine does next
// to nothing per cycle.  The instruction's quantities (with multipliers)
// are formed only at S, the walkers' next state only while active, the uop
// slots and pad entries only in their cycles, the element's write data
// only in the cycle it is written (zero otherwise: it is used only then),
// and the stage register takes each landing beat in place instead of being
// copied every cycle.
module dma_rd #(
  parameter integer EB   = 256,  // widest element in bytes (the stage register)
  parameter integer NS   = 2     // uop slots per beat: BUS_BYTES / UOP_ELEM_BYTES
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
  output wire [EB*8-1:0]      wr_data,
  output wire [NS-1:0]        uop_we,       // uop slots of this beat written
  output wire [WORD_W-1:0]    uop_idx,      // uop entry of slot 0 of the beat
  output wire                 done,
  output wire                 act
);
`include "vta_params.vh"
  localparam integer BW     = BUS_BYTES * 8;
  localparam integer SW     = INSN_MEM_SRAM_BASE_W;
  localparam integer XW     = INSN_MEM_X_SIZE_W;
  localparam integer YW     = INSN_MEM_Y_SIZE_W;
  localparam integer SIDE_W = PAD_W + 1;                     // x_pad_0 + x_pad_1
  localparam integer BIDX_W = $clog2(EB / BUS_BYTES + 1);    // a beat of an element
  localparam integer SLOT_W = $clog2(NS + 1);                // a uop slot of a beat, or NS
  localparam integer LOG_UOP_SLOT = $clog2(UOP_ELEM_BYTES);
  localparam [NS-1:0]     ONE_NS = 1;
  localparam [WORD_W-1:0] W_ZERO = 0, W_ONE = 1;
  localparam [XW-1:0]     X_ZERO = 0, X_ONE = 1;
  localparam [YW-1:0]     Y_ZERO = 0, Y_ONE = 1;
  localparam [PAD_W-1:0]  PAD_ZERO = 0, PAD_ONE = 1;
  localparam [SIDE_W-1:0] SIDE_ZERO = 0, SIDE_ONE = 1;
  localparam [BIDX_W-1:0] BIDX_ZERO = 0, BIDX_ONE = 1;
  localparam [SLOT_W-1:0] SLOT_ZERO = 0;

  // zero-extended to WORD_W
  function [WORD_W-1:0] wp(input [PAD_W-1:0] v);   wp = {{(WORD_W-PAD_W){1'b0}}, v};  endfunction
  function [WORD_W-1:0] wx(input [XW-1:0] v);      wx = {{(WORD_W-XW){1'b0}}, v};     endfunction
  function [WORD_W-1:0] wy(input [YW-1:0] v);      wy = {{(WORD_W-YW){1'b0}}, v};     endfunction
  function [WORD_W-1:0] wb(input [SW-1:0] v);      wb = {{(WORD_W-SW){1'b0}}, v};     endfunction
  localparam integer PH_W = 2;
  localparam [PH_W-1:0] P_TOP = 0, P_SIDE = 1, P_BOT = 2, P_DONE = 3;

  reg         act_q, act_d;
  reg         uop_q;
  reg [RD_ID_W-1:0] client_q;
  reg [LOG_E_W-1:0] log_e_q;
  reg [SW-1:0]      base_q;
  reg [XW-1:0]      xs_q;
  reg [YW-1:0]      ys_q;
  reg [PAD_W-1:0]   xp0_q, xp1_q;
  reg [WORD_W-1:0]  stride_b_q, row_b_q;
  // request walker
  reg [PAD_W-1:0] rwait_q, rwait_d;
  reg         rleft_q, rleft_d;
  reg [YW-1:0]  ry_q, ry_d;
  reg [WORD_W-1:0] rrow_q, rrow_d, raddr_q, raddr_d, rend_q, rend_d;
  reg [WORD_W-1:0] pend_q, pend_d;
  // landing
  reg [BIDX_W-1:0] bidx_q, bidx_d;
  reg [XW-1:0]  lx_q, lx_d;
  reg [WORD_W-1:0] lptr_q, lptr_d;
  reg         lfirst_q, lfirst_d;
  reg [WORD_W-1:0] lrow_q, lrow_d;
  reg [EB*8-1:0] stage_q;
  // padding
  reg [PH_W-1:0]   pph_q, pph_d;
  reg              pfirst_q, pfirst_d;  // S+1: no pad yet (pads from S+2)
  reg [WORD_W-1:0] pk_q, pk_d, pptr_q, pptr_d, prow_q, prow_d;
  reg [SIDE_W-1:0] pc_q, pc_d;
  reg [YW-1:0]     py_q, py_d;
  reg [WORD_W-1:0] top_q, bot_q, bstart_q, rowlen_q;
  reg [SIDE_W-1:0] side_q;

  // ---- quantities of the instruction, at S (zero in other cycles: used only at S)
  reg [WORD_W-1:0] s_rowlen, s_top, s_bot, s_bstart, s_addr;
  reg [SIDE_W-1:0] s_side;
  reg [PH_W-1:0]   s_pph;
  reg [YW-1:0]     s_ypy;   // (YW bits, as y_size)
  reg              s_up;
  always @(*) begin
    s_rowlen = W_ZERO;
    s_top    = W_ZERO;
    s_bot    = W_ZERO;
    s_bstart = W_ZERO;
    s_addr   = W_ZERO;
    s_side   = SIDE_ZERO;
    s_pph    = P_DONE;
    s_ypy    = Y_ZERO;
    s_up     = 1'b0;
    if (start) begin
      s_rowlen = wp(x_pad_0) + wx(x_size) + wp(x_pad_1);
      s_top    = s_rowlen * wp(y_pad_0);
      s_bot    = s_rowlen * wp(y_pad_1);
      s_ypy    = {{(YW-PAD_W){1'b0}}, y_pad_0} + y_size;
      s_up     = pad_up && |y_pad_1 && |s_ypy;
      s_bstart = wb(sram_base) + s_top + s_rowlen * wy(y_size) - (s_up ? s_rowlen : W_ZERO);
      s_side   = {1'b0, x_pad_0} + {1'b0, x_pad_1};
      s_addr   = dram_base << log_e;
      s_pph    = is_uop ? P_DONE
               : |s_top ? P_TOP
               : (|s_side && |y_size) ? P_SIDE
               : |s_bot ? P_BOT : P_DONE;
    end
  end

  // ---- this cycle ---------------------------------------------------------------
  wire beat     = act_q && m_rvalid && m_rid == client_q;
  wire n_done   = act_q && !uop_q && !rleft_q && pend_q == W_ZERO && pph_q == P_DONE;
  wire u_done   = act_q && uop_q && !rleft_q && pend_q == W_ONE && beat;
  wire padp     = act_q && !uop_q && !beat && pph_q != P_DONE;   // a pad is due
  wire padw     = padp && !pfirst_q;
  // the last beat of an element (inp/wgt/acc: E / BUS_BYTES beats)
  wire [BIDX_W-1:0] ob_last = (BIDX_ONE << (log_e_q - LOG_BUS_BYTES[LOG_E_W-1:0])) - BIDX_ONE;
  wire elem     = beat && !uop_q && bidx_q == ob_last;

  burst u_burst (.addr(raddr_q), .remaining(rend_q - raddr_q), .win_mask(win_mask),
                 .bytes(req_bytes), .beats(req_beats));
  assign req_valid = act_q && rleft_q && rwait_q == PAD_ZERO;
  assign req_addr  = raddr_q;

  // uop beat: the first beat of a row may start mid-beat; the last may end
  // early.  Formed only in the cycle of a uop beat (zero otherwise).
  reg [XW-1:0]     u_cnt;
  reg [NS-1:0]     u_we;
  reg [WORD_W-1:0] u_idx;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [WORD_W-1:0] u_boff;   // at most NS - 1: SLOT_W bits
  /* verilator lint_on UNUSEDSIGNAL */
  reg [SLOT_W-1:0] u_off;
  reg [XW-1:0]     u_left, u_room;
  always @(*) begin
    u_cnt  = X_ZERO;
    u_we   = {NS{1'b0}};
    u_idx  = W_ZERO;
    u_boff = W_ZERO;
    u_off  = SLOT_ZERO;
    u_left = X_ZERO;
    u_room = X_ZERO;
    if (beat && uop_q) begin
      u_boff = {{(WORD_W-LOG_BUS_BYTES){1'b0}}, lrow_q[LOG_BUS_BYTES-1:0]} >> LOG_UOP_SLOT;
      u_off  = lfirst_q ? u_boff[SLOT_W-1:0] : SLOT_ZERO;
      u_left = xs_q - lx_q;
      u_room = NS[XW-1:0] - {{(XW-SLOT_W){1'b0}}, u_off};
      u_cnt  = u_left < u_room ? u_left : u_room;         // at most NS: SLOT_W bits
      u_we   = ((ONE_NS << u_cnt[SLOT_W-1:0]) - ONE_NS) << u_off;
      u_idx  = wb(base_q) + wx(lx_q) - {{(WORD_W-SLOT_W){1'b0}}, u_off};
    end
  end
  assign uop_we  = u_we;
  assign uop_idx = u_idx;

  // a pad's entry (in a pad cycle) and an element's write data (in the cycle
  // of its last beat: the staged beats and this one)
  reg [WORD_W-1:0] pad_entry;
  reg [EB*8-1:0]   elem_data;
  always @(*) begin
    pad_entry = pptr_q;
    if (padw && pph_q == P_SIDE)
      pad_entry = prow_q + {{(WORD_W-SIDE_W){1'b0}}, pc_q}
                + ((pc_q >= {1'b0, xp0_q}) ? wx(xs_q) : W_ZERO);
  end
  always @(*) begin
    elem_data = {EB*8{1'b0}};
    if (elem) begin
      elem_data = stage_q;
      elem_data[bidx_q * BW +: BW] = m_rdata;
    end
  end
  assign wr_en   = elem || padw;
  assign wr_idx  = padw ? pad_entry : lptr_q;
  assign wr_data = elem_data;
  assign done    = n_done || u_done;
  assign act     = n_done || grant || beat || padp;

  always @(*) begin
    act_d    = act_q;
    rwait_d  = rwait_q;
    rleft_d  = rleft_q;
    ry_d     = ry_q;
    rrow_d   = rrow_q;
    raddr_d  = raddr_q;
    rend_d   = rend_q;
    pend_d   = pend_q;
    bidx_d   = bidx_q;
    lx_d     = lx_q;
    lptr_d   = lptr_q;
    lfirst_d = lfirst_q;
    lrow_d   = lrow_q;
    pph_d    = pph_q;
    pfirst_d = 1'b0;
    pk_d     = pk_q;
    pptr_d   = pptr_q;
    prow_d   = prow_q;
    pc_d     = pc_q;
    py_d     = py_q;
    // the walkers move only while active (grant, beat, pads and done imply it)
    if (act_q) begin
      if (rwait_q != PAD_ZERO) rwait_d = rwait_q - PAD_ONE;
      // requests
      if (grant) begin
        raddr_d = raddr_q + req_bytes;
        pend_d  = pend_d + {{(WORD_W-BEATS_W){1'b0}}, req_beats};
        if (raddr_q + req_bytes == rend_q) begin
          if (ry_q + Y_ONE < ys_q) begin
            ry_d    = ry_q + Y_ONE;
            rrow_d  = rrow_q + stride_b_q;
            raddr_d = rrow_q + stride_b_q;
            rend_d  = rrow_q + stride_b_q + row_b_q;
          end else begin
            rleft_d = 1'b0;
          end
        end
      end
      // landing
      if (beat) begin
        pend_d = pend_d - W_ONE;
        if (uop_q) begin
          if (lx_q + u_cnt == xs_q) begin
            lx_d     = X_ZERO;
            lfirst_d = 1'b1;
            lrow_d   = lrow_q + stride_b_q;
          end else begin
            lx_d     = lx_q + u_cnt;
            lfirst_d = 1'b0;
          end
        end else begin
          if (elem) begin
            bidx_d = BIDX_ZERO;
            if (lx_q + X_ONE == xs_q) begin
              lx_d   = X_ZERO;
              lptr_d = lptr_q + W_ONE + wp(xp1_q) + wp(xp0_q);
            end else begin
              lx_d   = lx_q + X_ONE;
              lptr_d = lptr_q + W_ONE;
            end
          end else begin
            bidx_d = bidx_q + BIDX_ONE;
          end
        end
      end
      // padding
      if (padw) begin
        case (pph_q)
          P_TOP: begin
            pptr_d = pptr_q + W_ONE;
            pk_d   = pk_q + W_ONE;
            if (pk_q + W_ONE == top_q) begin
              pk_d = W_ZERO;
              if (side_q != SIDE_ZERO && ys_q != Y_ZERO) pph_d = P_SIDE;
              else if (bot_q != W_ZERO) begin pph_d = P_BOT; pptr_d = bstart_q; end
              else pph_d = P_DONE;
            end
          end
          P_SIDE: begin
            pc_d = pc_q + SIDE_ONE;
            if (pc_q + SIDE_ONE == side_q) begin
              pc_d   = SIDE_ZERO;
              prow_d = prow_q + rowlen_q;
              py_d   = py_q + Y_ONE;
              if (py_q + Y_ONE == ys_q) begin
                if (bot_q != W_ZERO) begin pph_d = P_BOT; pptr_d = bstart_q; end
                else pph_d = P_DONE;
              end
            end
          end
          default: begin // P_BOT
            pptr_d = pptr_q + W_ONE;
            pk_d   = pk_q + W_ONE;
            if (pk_q + W_ONE == bot_q) pph_d = P_DONE;
          end
        endcase
      end
      if (done) act_d = 1'b0;
    end
    // S: set the walkers up
    if (start) begin
      act_d    = 1'b1;
      rwait_d  = y_pad_0;
      rleft_d  = |y_size;
      ry_d     = Y_ZERO;
      rrow_d   = s_addr;
      raddr_d  = s_addr;
      rend_d   = s_addr + (wx(x_size) << log_e);
      pend_d   = W_ZERO;
      bidx_d   = BIDX_ZERO;
      lx_d     = X_ZERO;
      lptr_d   = wb(sram_base) + s_top + wp(x_pad_0);
      lfirst_d = 1'b1;
      lrow_d   = s_addr;
      pph_d    = s_pph;
      pfirst_d = 1'b1;
      pk_d     = W_ZERO;
      pptr_d   = s_pph == P_BOT ? s_bstart : wb(sram_base);
      prow_d   = wb(sram_base) + s_top;
      pc_d     = SIDE_ZERO;
      py_d     = Y_ZERO;
    end
  end

  always @(posedge clk) begin
    if (clr) act_q <= 1'b0;
    else     act_q <= act_d;
  end

  // the walkers' registers change only while active or at S (pfirst_q is
  // read only while active, and S sets it)
  always @(posedge clk) begin
    if (act_q || start) begin
      rwait_q  <= rwait_d;
      rleft_q  <= rleft_d;
      ry_q     <= ry_d;
      rrow_q   <= rrow_d;
      raddr_q  <= raddr_d;
      rend_q   <= rend_d;
      pend_q   <= pend_d;
      bidx_q   <= bidx_d;
      lx_q     <= lx_d;
      lptr_q   <= lptr_d;
      lfirst_q <= lfirst_d;
      lrow_q   <= lrow_d;
      pph_q    <= pph_d;
      pfirst_q <= pfirst_d;
      pk_q     <= pk_d;
      pptr_q   <= pptr_d;
      prow_q   <= prow_d;
      pc_q     <= pc_d;
      py_q     <= py_d;
    end
    if (beat && !uop_q) stage_q[bidx_q * BW +: BW] <= m_rdata;
    if (start) begin
      uop_q      <= is_uop;
      client_q   <= client;
      log_e_q    <= log_e;
      base_q     <= sram_base;
      xs_q       <= x_size;
      ys_q       <= y_size;
      xp0_q      <= x_pad_0;
      xp1_q      <= x_pad_1;
      stride_b_q <= {{(WORD_W-INSN_MEM_X_STRIDE_W){1'b0}}, x_stride} << log_e;
      row_b_q    <= wx(x_size) << log_e;
      top_q      <= s_top;
      bot_q      <= s_bot;
      bstart_q   <= s_bstart;
      rowlen_q   <= s_rowlen;
      side_q     <= s_side;
    end
  end
endmodule
