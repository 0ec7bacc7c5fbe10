// wgt_tile.vh - the order in which the weight scratchpad (wgt_sram.v) keeps a
// weight tile and the MAC array (mac_array.v) reads it; included inside both
// module bodies, after vta_params.vh, so that the order is written once.
//
// A tile is BLOCK_OUT rows o of BLOCK_IN weights k, row-major in DRAM (docs/isa.md
// 2.1).  The scratchpad keeps it as BLOCK_IN/G column groups c (G =
// WGT_GROUP), each of BLOCK_OUT slices of G weights (k = c*G + s, s < G),
// slice (c, o) holding weights k = c*G .. c*G+G-1 of row o, each weight as it
// is (a row never written reads as zeros, as in the C model).  With
// G*WGT_WIDTH = ALU_W a slice is one ALU_W-bit word, so for each
// (c, s) the weights of all BLOCK_OUT outputs sit at the same bit of
// consecutive words: in hardware this is wiring on the write port; in a
// simulator the products of one input with a column of the tile are one
// vector operation over the outputs (shift, mask, multiply, add), where the
// row-major order needs a different byte extraction per output.
localparam integer WGTS_PER_WORD = ALU_W / WGT_WIDTH;   // weights per ALU_W bits
localparam integer WGT_GROUP     = WGTS_PER_WORD < 1 ? 1
                                 : WGTS_PER_WORD > BLOCK_IN ? BLOCK_IN : WGTS_PER_WORD;

// the slot (in weights from bit 0 of the tile) of weight k of row o
function integer wgt_slot(input integer o, input integer k);
  wgt_slot = ((k / WGT_GROUP) * BLOCK_OUT + o) * WGT_GROUP + k % WGT_GROUP;
endfunction
