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
//    elements) writes up to BUS_BYTES/4 consecutive uop entries at once;
//  * padding: the zero entries in ascending order (top rows, then each data
//    row's left and right columns, then bottom rows), one per cycle, in
//    cycles in which no beat of this instruction lands.
//
// Done (`done` high in cycle D): inp/wgt/acc one register stage after the
// last write, D = 1 + max(S, last beat, last pad); uop in the cycle of its
// last beat.  `act` says the engine did something this cycle (busy), else
// the unit is waiting for the memory (mem_stall).
module dma_rd #(
  parameter integer EB   = 256,  // widest element in bytes (the stage register)
  parameter integer NS   = 2     // uop slots per beat: BUS_BYTES / 4
) (
  input  wire          clk,
  input  wire          clr,
  input  wire          start,
  input  wire [2:0]    client,       // read client id (RD_*)
  input  wire [3:0]    log_e,        // log2 of the element bytes
  input  wire          is_uop,       // 4-byte uop elements into the uop banks
  input  wire [15:0]   sram_base,
  input  wire [31:0]   dram_base,
  input  wire [15:0]   y_size,
  input  wire [15:0]   x_size,
  input  wire [15:0]   x_stride,
  input  wire [3:0]    y_pad_0,
  input  wire [3:0]    y_pad_1,
  input  wire [3:0]    x_pad_0,
  input  wire [3:0]    x_pad_1,
  input  wire [31:0]   win_mask,
  input  wire          pad_up,       // planted bug pad_row: bottom pads one row too high
  output wire          req_valid,
  output wire [31:0]   req_addr,
  output wire [31:0]   req_bytes,
  output wire [8:0]    req_beats,
  input  wire          grant,
  input  wire          m_rvalid,
  input  wire [2:0]    m_rid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  output wire          wr_en,        // element or pad write
  output wire [31:0]   wr_idx,
  output wire [EB*8-1:0] wr_data,
  output wire [NS-1:0] uop_we,       // uop slots of this beat written
  output wire [31:0]   uop_idx,      // uop entry of slot 0 of the beat
  output wire          done,
  output wire          act
);
`include "vta_params.vh"
  localparam integer BW = BUS_BYTES * 8;
  localparam [NS-1:0] ONE_NS = 1;
  localparam [1:0] P_TOP = 2'd0, P_SIDE = 2'd1, P_BOT = 2'd2, P_DONE = 2'd3;

  reg         act_q, act_d;
  reg         uop_q;
  reg [2:0]   client_q;
  reg [3:0]   log_e_q;
  reg [15:0]  base_q, xs_q, ys_q;
  reg [3:0]   xp0_q, xp1_q;
  reg [31:0]  stride_b_q, row_b_q;
  // request walker
  reg [3:0]   rwait_q, rwait_d;
  reg         rleft_q, rleft_d;
  reg [15:0]  ry_q, ry_d;
  reg [31:0]  rrow_q, rrow_d, raddr_q, raddr_d, rend_q, rend_d;
  reg [31:0]  pend_q, pend_d;
  // landing
  reg [7:0]   bidx_q, bidx_d;
  reg [15:0]  lx_q, lx_d;
  reg [31:0]  lptr_q, lptr_d;
  reg         lfirst_q, lfirst_d;
  reg [31:0]  lrow_q, lrow_d;
  reg [EB*8-1:0] stage_q, stage_d;
  // padding
  reg [1:0]   pph_q, pph_d;
  reg [31:0]  pk_q, pk_d, pptr_q, pptr_d, prow_q, prow_d;
  reg [4:0]   pc_q, pc_d;
  reg [15:0]  py_q, py_d;
  reg [31:0]  top_q, bot_q, bstart_q, rowlen_q;
  reg [4:0]   side_q;

  // ---- quantities of the instruction, at S -----------------------------------
  wire [31:0] s_rowlen = {28'd0, x_pad_0} + {16'd0, x_size} + {28'd0, x_pad_1};
  wire [31:0] s_top    = s_rowlen * {28'd0, y_pad_0};
  wire [31:0] s_bot    = s_rowlen * {28'd0, y_pad_1};
  wire        s_up     = pad_up && y_pad_1 != 4'd0 && ({12'd0, y_pad_0} + y_size) != 16'd0;
  wire [31:0] s_bstart = {16'd0, sram_base} + s_top + s_rowlen * {16'd0, y_size}
                       - (s_up ? s_rowlen : 32'd0);
  wire [4:0]  s_side   = {1'b0, x_pad_0} + {1'b0, x_pad_1};
  wire [31:0] s_addr   = dram_base << log_e;
  wire [1:0]  s_pph    = is_uop ? P_DONE
                       : s_top != 32'd0 ? P_TOP
                       : (s_side != 5'd0 && y_size != 16'd0) ? P_SIDE
                       : s_bot != 32'd0 ? P_BOT : P_DONE;

  // ---- this cycle ---------------------------------------------------------------
  wire beat     = act_q && m_rvalid && m_rid == client_q;
  wire n_done   = act_q && !uop_q && !rleft_q && pend_q == 32'd0 && pph_q == P_DONE;
  wire u_done   = act_q && uop_q && !rleft_q && pend_q == 32'd1 && beat;
  wire padw     = act_q && !uop_q && !beat && pph_q != P_DONE;
  wire [7:0] ob_last = (8'd1 << (log_e_q - LOG_BUS_BYTES[3:0])) - 8'd1;
  wire elem     = beat && !uop_q && bidx_q == ob_last;

  burst u_burst (.addr(raddr_q), .remaining(rend_q - raddr_q), .win_mask(win_mask),
                 .bytes(req_bytes), .beats(req_beats));
  assign req_valid = act_q && rleft_q && rwait_q == 4'd0;
  assign req_addr  = raddr_q;

  // uop beat: the first beat of a row may start mid-beat; the last may end early.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] u_boff  = {{(32-LOG_BUS_BYTES){1'b0}}, lrow_q[LOG_BUS_BYTES-1:0]} >> 2;
  /* verilator lint_on UNUSEDSIGNAL */
  wire [3:0]  u_off   = lfirst_q ? u_boff[3:0] : 4'd0;
  wire [15:0] u_left  = xs_q - lx_q;
  wire [15:0] u_room  = NS[15:0] - {12'd0, u_off};
  wire [15:0] u_cnt   = u_left < u_room ? u_left : u_room;
  wire [NS-1:0] u_mask = ((ONE_NS << u_cnt[3:0]) - ONE_NS) << u_off;
  assign uop_we  = (beat && uop_q) ? u_mask : {NS{1'b0}};
  assign uop_idx = {16'd0, base_q} + {16'd0, lx_q} - {28'd0, u_off};

  wire [31:0] pad_entry = pph_q == P_SIDE
      ? prow_q + {27'd0, pc_q} + ((pc_q >= {1'b0, xp0_q}) ? {16'd0, xs_q} : 32'd0)
      : pptr_q;
  assign wr_en   = elem || padw;
  assign wr_idx  = padw ? pad_entry : lptr_q;
  assign wr_data = padw ? {EB*8{1'b0}} : stage_d;
  assign done    = n_done || u_done;
  assign act     = n_done || grant || beat || padw;

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
    stage_d  = stage_q;
    pph_d    = pph_q;
    pk_d     = pk_q;
    pptr_d   = pptr_q;
    prow_d   = prow_q;
    pc_d     = pc_q;
    py_d     = py_q;
    if (act_q && rwait_q != 4'd0) rwait_d = rwait_q - 4'd1;
    // requests
    if (grant) begin
      raddr_d = raddr_q + req_bytes;
      pend_d  = pend_d + {23'd0, req_beats};
      if (raddr_q + req_bytes == rend_q) begin
        if (ry_q + 16'd1 < ys_q) begin
          ry_d    = ry_q + 16'd1;
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
      pend_d = pend_d - 32'd1;
      if (uop_q) begin
        if (lx_q + u_cnt == xs_q) begin
          lx_d     = 16'd0;
          lfirst_d = 1'b1;
          lrow_d   = lrow_q + stride_b_q;
        end else begin
          lx_d     = lx_q + u_cnt;
          lfirst_d = 1'b0;
        end
      end else begin
        stage_d[bidx_q * BW +: BW] = m_rdata;
        if (elem) begin
          bidx_d = 8'd0;
          if (lx_q + 16'd1 == xs_q) begin
            lx_d   = 16'd0;
            lptr_d = lptr_q + 32'd1 + {28'd0, xp1_q} + {28'd0, xp0_q};
          end else begin
            lx_d   = lx_q + 16'd1;
            lptr_d = lptr_q + 32'd1;
          end
        end else begin
          bidx_d = bidx_q + 8'd1;
        end
      end
    end
    // padding
    if (padw) begin
      case (pph_q)
        P_TOP: begin
          pptr_d = pptr_q + 32'd1;
          pk_d   = pk_q + 32'd1;
          if (pk_q + 32'd1 == top_q) begin
            pk_d = 32'd0;
            if (side_q != 5'd0 && ys_q != 16'd0) pph_d = P_SIDE;
            else if (bot_q != 32'd0) begin pph_d = P_BOT; pptr_d = bstart_q; end
            else pph_d = P_DONE;
          end
        end
        P_SIDE: begin
          pc_d = pc_q + 5'd1;
          if (pc_q + 5'd1 == side_q) begin
            pc_d   = 5'd0;
            prow_d = prow_q + rowlen_q;
            py_d   = py_q + 16'd1;
            if (py_q + 16'd1 == ys_q) begin
              if (bot_q != 32'd0) begin pph_d = P_BOT; pptr_d = bstart_q; end
              else pph_d = P_DONE;
            end
          end
        end
        default: begin // P_BOT
          pptr_d = pptr_q + 32'd1;
          pk_d   = pk_q + 32'd1;
          if (pk_q + 32'd1 == bot_q) pph_d = P_DONE;
        end
      endcase
    end
    if (done) act_d = 1'b0;
    // S: set the walkers up
    if (start) begin
      act_d    = 1'b1;
      rwait_d  = y_pad_0;
      rleft_d  = y_size != 16'd0;
      ry_d     = 16'd0;
      rrow_d   = s_addr;
      raddr_d  = s_addr;
      rend_d   = s_addr + ({16'd0, x_size} << log_e);
      pend_d   = 32'd0;
      bidx_d   = 8'd0;
      lx_d     = 16'd0;
      lptr_d   = {16'd0, sram_base} + s_top + {28'd0, x_pad_0};
      lfirst_d = 1'b1;
      lrow_d   = s_addr;
      pph_d    = s_pph;
      pk_d     = 32'd0;
      pptr_d   = s_pph == P_BOT ? s_bstart : {16'd0, sram_base};
      prow_d   = {16'd0, sram_base} + s_top;
      pc_d     = 5'd0;
      py_d     = 16'd0;
    end
  end

  always @(posedge clk) begin
    if (clr) act_q <= 1'b0;
    else     act_q <= act_d;
  end

  always @(posedge clk) begin
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
    stage_q  <= stage_d;
    pph_q    <= pph_d;
    pk_q     <= pk_d;
    pptr_q   <= pptr_d;
    prow_q   <= prow_d;
    pc_q     <= pc_d;
    py_q     <= py_d;
    if (start) begin
      uop_q      <= is_uop;
      client_q   <= client;
      log_e_q    <= log_e;
      base_q     <= sram_base;
      xs_q       <= x_size;
      ys_q       <= y_size;
      xp0_q      <= x_pad_0;
      xp1_q      <= x_pad_1;
      stride_b_q <= {16'd0, x_stride} << log_e;
      row_b_q    <= {16'd0, x_size} << log_e;
      top_q      <= s_top;
      bot_q      <= s_bot;
      bstart_q   <= s_bstart;
      rowlen_q   <= s_rowlen;
      side_q     <= s_side;
    end
  end
endmodule
