// mac_array.v - the GEMM core of compute.v (its pipeline stage P2): the
// BATCH x BLOCK_OUT dot products of an input row pair (BATCH rows of BLOCK_IN
// INP_WIDTH-bit ints) with a weight tile (BLOCK_OUT rows of BLOCK_IN
// WGT_WIDTH-bit ints, as the weight scratchpad keeps it: wgt_tile.vh), each
// ALU_W bits (mod 2^ALU_W, docs/isa.md 6.4).  Combinational; zero unless `en`.
//
// The weights are taken in offset binary, q = w + 2^(WGT_WIDTH-1) >= 0 (the
// sign bit of each flipped: one XOR over the tile's words), so that
//   sum_k a_k*w_k = sum_k a_k*q_k - 2^(WGT_WIDTH-1) * sum_k a_k   (mod 2^ALU_W):
// signed-by-unsigned products and one correction per input row, shared by
// its BLOCK_OUT outputs (hardware: the multipliers see an unsigned weight;
// a simulator extracts a weight with a shift and a mask, no sign extension).
// The inputs are sign-extended once per row (a = (x ^ 2^(INP_WIDTH-1)) -
// 2^(INP_WIDTH-1)).  Each output's sum runs over k in the same order for
// every output and reads its weight at the same bit of consecutive ALU_W-bit
// words (wgt_tile.vh), so the BLOCK_OUT sums are one vector computation in a
// simulator (Verilator's C++ vectorised by the compiler), and `en` limits it
// to the cycles that hold a GEMM uop.
module mac_array (
  input  wire                             en,
  input  wire [INP_ELEM_BYTES*8-1:0]      inp,
  input  wire [WGT_ELEM_BYTES*8-1:0]      wgt,
  output reg  [ALU_W*BATCH*BLOCK_OUT-1:0] dot
);
`include "vta_params.vh"
`include "wgt_tile.vh"
  /*verilator tracing_off*/
  // (the sums are locals of the simulator's evaluation, not traced state;
  // waves show the inputs and `dot`)
  localparam [INP_WIDTH-1:0] INP_SIGN         = {1'b1, {(INP_WIDTH-1){1'b0}}};
  localparam [ALU_W-1:0]     INP_OFFSET       = {{(ALU_W-INP_WIDTH){1'b0}}, INP_SIGN};
  localparam integer         WGT_OFFSET_SHIFT = WGT_WIDTH - 1;

  localparam [WGT_WIDTH-1:0] WGT_SIGN = {1'b1, {(WGT_WIDTH-1){1'b0}}};

  // (loops: b a row of the batch, o an output, k an input)
  reg [WGT_ELEM_BYTES*8-1:0] wgt_offset;   // the tile in offset binary (q above)
  reg [ALU_W*BLOCK_IN-1:0]   inp_ext;      // the row's inputs, sign-extended to ALU_W bits (a)
  reg [ALU_W-1:0]            inp_sum, sum; // sum_k a_k; an output's sum
  integer b, o, k;
  always @(*) begin
    dot        = {(ALU_W*BATCH*BLOCK_OUT){1'b0}};
    inp_ext    = {(ALU_W*BLOCK_IN){1'b0}};
    inp_sum    = {ALU_W{1'b0}};
    sum        = inp_sum;
    wgt_offset = {(WGT_ELEM_BYTES*8){1'b0}};
    if (en) begin
      wgt_offset = wgt ^ {(BLOCK_OUT*BLOCK_IN){WGT_SIGN}};
      for (b = 0; b < BATCH; b = b + 1) begin
        inp_sum = {ALU_W{1'b0}};
        for (k = 0; k < BLOCK_IN; k = k + 1) begin
          inp_ext[k*ALU_W +: ALU_W] = {{(ALU_W-INP_WIDTH){1'b0}},
                                       inp[(b*BLOCK_IN+k)*INP_WIDTH +: INP_WIDTH] ^ INP_SIGN}
                                      - INP_OFFSET;
          inp_sum = inp_sum + inp_ext[k*ALU_W +: ALU_W];
        end
        for (o = 0; o < BLOCK_OUT; o = o + 1) begin
          sum = {ALU_W{1'b0}} - (inp_sum << WGT_OFFSET_SHIFT);
          for (k = 0; k < BLOCK_IN; k = k + 1)
            sum = sum + inp_ext[k*ALU_W +: ALU_W]
                * {{(ALU_W-WGT_WIDTH){1'b0}}, wgt_offset[wgt_slot(o, k)*WGT_WIDTH +: WGT_WIDTH]};
          dot[(b*BLOCK_OUT+o)*ALU_W +: ALU_W] = sum;
        end
      end
    end
  end
  /*verilator tracing_on*/
endmodule
