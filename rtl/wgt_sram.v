// wgt_sram.v - the weight scratchpad: WGT_DEPTH tiles, one write port (LOAD
// WGT, a tile in DRAM order) and a registered read-before-write read port
// (GEMM), the timing of sram.v (docs/microarch.md 3).  A tile is stored in
// the order of wgt_tile.vh (column groups), which the MAC
// array reads: pure wiring on the write port, invisible outside the core
// (the write port's event carries the DRAM-order data before it).  The
// reordering is inside the write enable so that a simulator forms it only
// in the cycles that write a tile.
module wgt_sram (
  input  wire                     clk,
  input  wire                     rst,
  input  wire                     we,
  input  wire [LOG_WGT_DEPTH-1:0] waddr,
  input  wire [TILE_W-1:0]        wdata,   // DRAM order
  input  wire                     re,
  input  wire [LOG_WGT_DEPTH-1:0] raddr,
  output wire [TILE_W-1:0]        rdata    // wgt_tile.vh order
);
`include "vta_params.vh"
`include "wgt_tile.vh"
  localparam integer TILE_W = WGT_ELEM_BYTES * 8;   // a weight tile's bits

  function [TILE_W-1:0] tile_order(input [TILE_W-1:0] w);
    integer o, k;
    begin
      tile_order = {TILE_W{1'b0}};
      for (o = 0; o < BLOCK_OUT; o = o + 1)
        for (k = 0; k < BLOCK_IN; k = k + 1)
          tile_order[wgt_slot(o, k)*WGT_WIDTH +: WGT_WIDTH] =
            w[(o*BLOCK_IN+k)*WGT_WIDTH +: WGT_WIDTH];
    end
  endfunction

  reg [TILE_W-1:0]        mem_q [0:WGT_DEPTH-1];
  reg [TILE_W-1:0]        rdata_q;
  // The read register already holds row last_q as it is now (fresh_q): a
  // read of that row again leaves it as it is.  The same data as a read
  // (read-before-write: the row at the start of the cycle); saves the
  // array access in hardware and a 2048-bit copy per GEMM uop in a
  // simulator, where consecutive uops often use one weight tile.
  reg [LOG_WGT_DEPTH-1:0] last_q;
  reg                     fresh_q;
  wire                    hit = fresh_q && raddr == last_q;

  always @(posedge clk) begin
    if (we) mem_q[waddr] <= tile_order(wdata);
  end

  always @(posedge clk) begin
    if (re && !hit) rdata_q <= mem_q[raddr];
    if (re) last_q <= raddr;
  end

  // rdata_q stays the row's content until a write to that row (a write in
  // the read's own cycle lands after it)
  always @(posedge clk) begin
    if (rst)     fresh_q <= 1'b0;
    else if (re) fresh_q <= !(we && waddr == raddr);
    else         fresh_q <= fresh_q && !(we && waddr == last_q);
  end

  assign rdata = rdata_q;
endmodule
