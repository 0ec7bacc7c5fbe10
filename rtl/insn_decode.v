// insn_decode.v - the one instruction-field decoder of the core: splits a
// 128-bit VTA instruction (docs/isa.md 3) into its fields at the positions and
// widths of the generated package (INSN_*_LSB/_W from vta_insn_layout(),
// isa/vta_isa.c), and says which unit executes it (docs/isa.md 5.1).  Fetch uses
// `unit`; load, store and compute use the fields of the head of their
// command queue.  Combinational; a field a format lacks reads whatever bits
// lie there (the units look only at the fields of the formats they run).
module insn_decode (
  input  wire [INSN_W-1:0]               insn,
  output wire [OPCODE_BITS-1:0]          opcode,
  output wire                            pop_prev, pop_next, push_prev, push_next,
  output wire [UNIT_W-1:0]               unit,
  // LOAD / STORE
  output wire [MEM_TYPE_W-1:0]           mem_type,
  output wire [INSN_MEM_SRAM_BASE_W-1:0] sram_base,
  output wire [INSN_MEM_DRAM_BASE_W-1:0] dram_base,
  output wire [INSN_MEM_Y_SIZE_W-1:0]    y_size,
  output wire [INSN_MEM_X_SIZE_W-1:0]    x_size,
  output wire [INSN_MEM_X_STRIDE_W-1:0]  x_stride,
  output wire [PAD_W-1:0]                y_pad_0, y_pad_1, x_pad_0, x_pad_1,
  // GEMM / ALU: uop_bgn zero-extended; the index factors zero-extended to
  // SRAM_IDX_W, the source factors in the format of the opcode (GEMM: inp
  // indices, ALU: acc indices; docs/isa.md 3.4)
  output wire                            reset_reg,
  output wire [UOP_IDX_W-1:0]            uop_bgn, uop_end,
  output wire [LOOP_W-1:0]               iter_out, iter_in,
  output wire [SRAM_IDX_W-1:0]           dst_factor_out, dst_factor_in, src_factor_out,
                                         src_factor_in, wgt_factor_out, wgt_factor_in,
  output wire [ALU_OP_W-1:0]             alu_opcode,
  output wire                            use_imm,
  output wire [IMM_W-1:0]                imm
);
`include "vta_params.vh"
  assign opcode    = insn[INSN_OPCODE_LSB +: OPCODE_BITS];
  assign pop_prev  = insn[INSN_POP_PREV_LSB];
  assign pop_next  = insn[INSN_POP_NEXT_LSB];
  assign push_prev = insn[INSN_PUSH_PREV_LSB];
  assign push_next = insn[INSN_PUSH_NEXT_LSB];
  assign unit = opcode == OP_STORE[OPCODE_BITS-1:0] ? UNIT_STORE[UNIT_W-1:0]
              : (opcode == OP_LOAD[OPCODE_BITS-1:0] &&
                 (mem_type == MEM_INP[MEM_TYPE_W-1:0] || mem_type == MEM_WGT[MEM_TYPE_W-1:0]))
                ? UNIT_LOAD[UNIT_W-1:0] : UNIT_COMPUTE[UNIT_W-1:0];

  assign mem_type  = insn[INSN_MEM_MEMORY_TYPE_LSB +: MEM_TYPE_W];
  assign sram_base = insn[INSN_MEM_SRAM_BASE_LSB +: INSN_MEM_SRAM_BASE_W];
  assign dram_base = insn[INSN_MEM_DRAM_BASE_LSB +: INSN_MEM_DRAM_BASE_W];
  assign y_size    = insn[INSN_MEM_Y_SIZE_LSB +: INSN_MEM_Y_SIZE_W];
  assign x_size    = insn[INSN_MEM_X_SIZE_LSB +: INSN_MEM_X_SIZE_W];
  assign x_stride  = insn[INSN_MEM_X_STRIDE_LSB +: INSN_MEM_X_STRIDE_W];
  assign y_pad_0   = insn[INSN_MEM_Y_PAD_0_LSB +: PAD_W];
  assign y_pad_1   = insn[INSN_MEM_Y_PAD_1_LSB +: PAD_W];
  assign x_pad_0   = insn[INSN_MEM_X_PAD_0_LSB +: PAD_W];
  assign x_pad_1   = insn[INSN_MEM_X_PAD_1_LSB +: PAD_W];

  // an index field, zero-extended to SRAM_IDX_W (the factor fields are as wide as
  // the depth of the scratchpad they index; the two formats' sources differ).
  // A constant part-select of the instruction padded with zeros above (bits
  // past INSN_W read 0), not a shift of the whole 128-bit word: Verilator
  // makes it a word extract instead of a wide shift in every evaluation.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [INSN_W+SRAM_IDX_W-1:0] insn_zext = {{SRAM_IDX_W{1'b0}}, insn};   // (fields of some formats)
  /* verilator lint_on UNUSEDSIGNAL */
  function [SRAM_IDX_W-1:0] idx_mask(input integer width);
    idx_mask = ~({SRAM_IDX_W{1'b1}} << width);
  endfunction

  wire is_alu = opcode == OP_ALU[OPCODE_BITS-1:0];
  assign reset_reg      = insn[INSN_GEMM_RESET_REG_LSB];
  assign uop_bgn        = {{(UOP_IDX_W-INSN_GEMM_UOP_BGN_W){1'b0}},
                           insn[INSN_GEMM_UOP_BGN_LSB +: INSN_GEMM_UOP_BGN_W]};
  assign uop_end        = insn[INSN_GEMM_UOP_END_LSB +: INSN_GEMM_UOP_END_W];
  assign iter_out       = insn[INSN_GEMM_ITER_OUT_LSB +: INSN_GEMM_ITER_OUT_W];
  assign iter_in        = insn[INSN_GEMM_ITER_IN_LSB +: INSN_GEMM_ITER_IN_W];
  assign dst_factor_out = (insn_zext[INSN_GEMM_DST_FACTOR_OUT_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_GEMM_DST_FACTOR_OUT_W));
  assign dst_factor_in  = (insn_zext[INSN_GEMM_DST_FACTOR_IN_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_GEMM_DST_FACTOR_IN_W));
  assign src_factor_out = is_alu
      ? (insn_zext[INSN_ALU_SRC_FACTOR_OUT_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_ALU_SRC_FACTOR_OUT_W))
      : (insn_zext[INSN_GEMM_SRC_FACTOR_OUT_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_GEMM_SRC_FACTOR_OUT_W));
  assign src_factor_in  = is_alu
      ? (insn_zext[INSN_ALU_SRC_FACTOR_IN_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_ALU_SRC_FACTOR_IN_W))
      : (insn_zext[INSN_GEMM_SRC_FACTOR_IN_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_GEMM_SRC_FACTOR_IN_W));
  assign wgt_factor_out = (insn_zext[INSN_GEMM_WGT_FACTOR_OUT_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_GEMM_WGT_FACTOR_OUT_W));
  assign wgt_factor_in  = (insn_zext[INSN_GEMM_WGT_FACTOR_IN_LSB +: SRAM_IDX_W]
                          & idx_mask(INSN_GEMM_WGT_FACTOR_IN_W));
  assign alu_opcode     = insn[INSN_ALU_ALU_OPCODE_LSB +: ALU_OP_W];
  assign use_imm        = insn[INSN_ALU_USE_IMM_LSB];
  assign imm            = insn[INSN_ALU_IMM_LSB +: IMM_W];
endmodule
