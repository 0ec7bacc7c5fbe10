// vcr.v - the register port and the counters (docs/isa.md 7.3, docs/microarch.md
// 8.1; the map is model/platform/vta_vcr.h, generated into VCR_* offsets).
//
// CTRL: the host writes bit 0 to launch; that write's clock edge starts the
// run (cycle 0 is the next cycle: every unit idle, queues empty, fetch about
// to request the first chunk).  At the finish pulse P the hardware sets CTRL
// to 0b10 (visible from P+1), latches ECNT = P and stops the run.  Tokens,
// scratchpads and the statistic counters persist across runs; ECNT and UCNT
// are per run.  Category counters count the cycles 0..P-1 of every run.
// Reads are combinational, while reg_ren is set (zero otherwise: a simulator
// then skips the read multiplexer in the cycles of a run, which read nothing).
module vcr (
  input  wire        clk,
  input  wire        rst,
  input  wire        reg_wen,
  input  wire [VCR_ADDR_W-1:0] reg_addr,
  input  wire [WORD_W-1:0] reg_wdata,
  input  wire        reg_ren,
  output reg  [WORD_W-1:0] reg_rdata,
  output wire        launch,
  output wire        run,
  output wire [WORD_W-1:0] insn_count,
  output wire [WORD_W-1:0] insn_addr,
  output wire [WORD_W-1:0] max_burst,
  output wire [WORD_W-1:0] max_outst,
  output wire [WORD_W-1:0] cmdq,
  output wire [INJECT_W-1:0] inject,  // planted bug (docs/microarch.md 8.4), 0 = none
  input  wire        finish,
  input  wire [WORD_W-1:0] tok_l2g,
  input  wire [WORD_W-1:0] tok_g2l,
  input  wire [WORD_W-1:0] tok_g2s,
  input  wire [WORD_W-1:0] tok_s2g,
  // what each counter adds this cycle (add_<counter>, the register VCR_<COUNTER>)
  input  wire        add_ucnt,
  input  wire [WORD_W-1:0] add_inp_load_nbytes,
  input  wire [WORD_W-1:0] add_wgt_load_nbytes,
  input  wire [WORD_W-1:0] add_acc_load_nbytes,
  input  wire [WORD_W-1:0] add_uop_load_nbytes,
  input  wire [WORD_W-1:0] add_out_store_nbytes,
  input  wire [WORD_W-1:0] add_gemm_counter,
  input  wire [WORD_W-1:0] add_alu_counter,
  input  wire        add_gemm_uops,
  input  wire        add_gemm_reset_uops,
  input  wire        add_alu_uops,
  input  wire [ALU_SLOTS_W-1:0] add_alu_slots,
  input  wire        add_insns_load,
  input  wire        add_insns_compute,
  input  wire        add_insns_store,
  input  wire        add_insns_fetch,
  input  wire [CAT_W-1:0] cat_fetch,
  input  wire [CAT_W-1:0] cat_load,
  input  wire [CAT_W-1:0] cat_compute,
  input  wire [CAT_W-1:0] cat_store
);
`include "vta_params.vh"
  localparam integer CTRL_W = 2;                 // CTRL: bit 0 launch, bit 1 finish
  localparam [CTRL_W-1:0] CTRL_IDLE = 0, CTRL_FINISHED = 2;
  localparam [WORD_W-1:0] W_ZERO = 0, W_ONE = 1;
  reg [CTRL_W-1:0] ctrl_q;
  reg              run_q;
  reg [WORD_W-1:0] ecnt_q, ucnt_q, insn_count_q, insn_addr_q, max_burst_q, max_outst_q, cmdq_q;
  // statistics, counted from reset, across runs; each counter is named after
  // its register (VCR_<NAME>: <name>_q) and counts add_<name> (or step_<name>)
  reg [WORD_W-1:0] inp_load_nbytes_q, wgt_load_nbytes_q, acc_load_nbytes_q, uop_load_nbytes_q,
                   out_store_nbytes_q, gemm_counter_q, alu_counter_q;
  reg [WORD_W-1:0] gemm_uops_q, gemm_reset_uops_q, alu_uops_q, alu_slots_q;
  reg [WORD_W-1:0] insns_load_q, insns_compute_q, insns_store_q, insns_fetch_q;
  reg [WORD_W-1:0] fetch_busy_q, fetch_mem_q, fetch_queue_q, fetch_idle_q;
  reg [WORD_W-1:0] load_busy_q, load_mem_q, load_dep_g2l_q, load_idle_q;
  reg [WORD_W-1:0] compute_busy_q, compute_mem_q, compute_dep_l2g_q, compute_dep_s2g_q,
                   compute_idle_q;
  reg [WORD_W-1:0] store_busy_q, store_mem_q, store_dep_g2s_q, store_idle_q;

  assign launch     = reg_wen && reg_addr == VCR_CTRL && reg_wdata[0];
  assign run        = run_q;
  assign insn_count = insn_count_q;
  assign insn_addr  = insn_addr_q;
  assign max_burst  = max_burst_q;
  assign max_outst  = max_outst_q;
  assign cmdq       = cmdq_q;
  wire   counting   = run_q && !finish;   // the cycles 0..ECNT-1

  // Planted bugs exist only in builds for the co-simulation's self-test
  // (define VTA_INJECT); elsewhere `inject` is 0 and the bug logic vanishes.
`ifdef VTA_INJECT
  reg [INJECT_W-1:0] inject_q;
  always @(posedge clk) begin
    if (rst) inject_q <= {INJECT_W{1'b0}};
    else if (reg_wen && reg_addr == VCR_INJECT) inject_q <= reg_wdata[INJECT_W-1:0];
  end
  assign inject = inject_q;
`else
  assign inject = {INJECT_W{1'b0}};
`endif

  always @(posedge clk) begin
    if (rst) begin
      ctrl_q       <= CTRL_IDLE;
      run_q        <= 1'b0;
      ecnt_q       <= W_ZERO;
      ucnt_q       <= W_ZERO;
      insn_count_q <= W_ZERO;
      insn_addr_q  <= W_ZERO;
      max_burst_q  <= MAX_BURST;
      max_outst_q  <= MAX_OUTST;
      cmdq_q       <= CMDQ;
    end else begin
      if (reg_wen) begin
        case (reg_addr)
          VCR_CTRL:       ctrl_q <= reg_wdata[CTRL_W-1:0];
          VCR_INSN_COUNT: insn_count_q <= reg_wdata;
          VCR_INSN_ADDR:  insn_addr_q <= reg_wdata;
          VCR_MAX_BURST:  max_burst_q <= reg_wdata;
          VCR_MAX_OUTST:  max_outst_q <= reg_wdata;
          VCR_CMDQ:       cmdq_q <= reg_wdata;
          default: ;
        endcase
      end
      if (launch) begin
        run_q  <= 1'b1;
        ecnt_q <= W_ZERO;
        ucnt_q <= W_ZERO;
      end else if (run_q) begin
        if (finish) begin
          run_q  <= 1'b0;
          ctrl_q <= CTRL_FINISHED;
        end else begin
          ecnt_q <= ecnt_q + W_ONE;
        end
        if (add_ucnt) ucnt_q <= ucnt_q + W_ONE;
      end
    end
  end

  // The counters are plain sums, one add each per cycle and no condition:
  // the simulator then updates each register in place (a conditional or
  // function-made update costs Verilator a shadow copy per counter and
  // cycle).
  // step_*: each counter's step, zero-extended (category counters: the
  // cycles 0..ECNT-1 only).
  localparam integer BIT_PAD_W = WORD_W - 1;   // above a one-bit step
  wire [WORD_W-1:0] step_gemm_uops       = {{BIT_PAD_W{1'b0}}, add_gemm_uops};
  wire [WORD_W-1:0] step_gemm_reset_uops = {{BIT_PAD_W{1'b0}}, add_gemm_reset_uops};
  wire [WORD_W-1:0] step_alu_uops        = {{BIT_PAD_W{1'b0}}, add_alu_uops};
  wire [WORD_W-1:0] step_alu_slots       = {{(WORD_W-ALU_SLOTS_W){1'b0}}, add_alu_slots};
  wire [WORD_W-1:0] step_insns_load      = {{BIT_PAD_W{1'b0}}, add_insns_load};
  wire [WORD_W-1:0] step_insns_compute   = {{BIT_PAD_W{1'b0}}, add_insns_compute};
  wire [WORD_W-1:0] step_insns_store     = {{BIT_PAD_W{1'b0}}, add_insns_store};
  wire [WORD_W-1:0] step_insns_fetch     = {{BIT_PAD_W{1'b0}}, add_insns_fetch};
  wire [WORD_W-1:0] step_fetch_busy      = {{BIT_PAD_W{1'b0}},
                                            counting && cat_fetch == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] step_fetch_mem       = {{BIT_PAD_W{1'b0}},
                                            counting && cat_fetch == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] step_fetch_queue     = {{BIT_PAD_W{1'b0}},
                                            counting && cat_fetch == CAT_QUEUE[CAT_W-1:0]};
  wire [WORD_W-1:0] step_fetch_idle      = {{BIT_PAD_W{1'b0}},
                                            counting && cat_fetch == CAT_IDLE[CAT_W-1:0]};
  wire [WORD_W-1:0] step_load_busy       = {{BIT_PAD_W{1'b0}},
                                            counting && cat_load == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] step_load_mem        = {{BIT_PAD_W{1'b0}},
                                            counting && cat_load == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] step_load_dep_g2l    = {{BIT_PAD_W{1'b0}},
                         counting && cat_load == CAT_DEP[CAT_W-1:0] + Q_G2L[CAT_W-1:0]};
  wire [WORD_W-1:0] step_load_idle       = {{BIT_PAD_W{1'b0}},
                                            counting && cat_load == CAT_IDLE[CAT_W-1:0]};
  wire [WORD_W-1:0] step_compute_busy    = {{BIT_PAD_W{1'b0}},
                                            counting && cat_compute == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] step_compute_mem     = {{BIT_PAD_W{1'b0}},
                                            counting && cat_compute == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] step_compute_dep_l2g = {{BIT_PAD_W{1'b0}},
                         counting && cat_compute == CAT_DEP[CAT_W-1:0] + Q_L2G[CAT_W-1:0]};
  wire [WORD_W-1:0] step_compute_dep_s2g = {{BIT_PAD_W{1'b0}},
                         counting && cat_compute == CAT_DEP[CAT_W-1:0] + Q_S2G[CAT_W-1:0]};
  wire [WORD_W-1:0] step_compute_idle    = {{BIT_PAD_W{1'b0}},
                                            counting && cat_compute == CAT_IDLE[CAT_W-1:0]};
  wire [WORD_W-1:0] step_store_busy      = {{BIT_PAD_W{1'b0}},
                                            counting && cat_store == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] step_store_mem       = {{BIT_PAD_W{1'b0}},
                                            counting && cat_store == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] step_store_dep_g2s   = {{BIT_PAD_W{1'b0}},
                         counting && cat_store == CAT_DEP[CAT_W-1:0] + Q_G2S[CAT_W-1:0]};
  wire [WORD_W-1:0] step_store_idle      = {{BIT_PAD_W{1'b0}},
                                            counting && cat_store == CAT_IDLE[CAT_W-1:0]};

  always @(posedge clk) begin
    if (rst) begin
      inp_load_nbytes_q  <= W_ZERO;
      wgt_load_nbytes_q  <= W_ZERO;
      acc_load_nbytes_q  <= W_ZERO;
      uop_load_nbytes_q  <= W_ZERO;
      out_store_nbytes_q <= W_ZERO;
      gemm_counter_q     <= W_ZERO;
      alu_counter_q      <= W_ZERO;
      gemm_uops_q        <= W_ZERO;
      gemm_reset_uops_q  <= W_ZERO;
      alu_uops_q         <= W_ZERO;
      alu_slots_q        <= W_ZERO;
      insns_load_q       <= W_ZERO;
      insns_compute_q    <= W_ZERO;
      insns_store_q      <= W_ZERO;
      insns_fetch_q      <= W_ZERO;
      fetch_busy_q       <= W_ZERO;
      fetch_mem_q        <= W_ZERO;
      fetch_queue_q      <= W_ZERO;
      fetch_idle_q       <= W_ZERO;
      load_busy_q        <= W_ZERO;
      load_mem_q         <= W_ZERO;
      load_dep_g2l_q     <= W_ZERO;
      load_idle_q        <= W_ZERO;
      compute_busy_q     <= W_ZERO;
      compute_mem_q      <= W_ZERO;
      compute_dep_l2g_q  <= W_ZERO;
      compute_dep_s2g_q  <= W_ZERO;
      compute_idle_q     <= W_ZERO;
      store_busy_q       <= W_ZERO;
      store_mem_q        <= W_ZERO;
      store_dep_g2s_q    <= W_ZERO;
      store_idle_q       <= W_ZERO;
    end else begin
      inp_load_nbytes_q  <= inp_load_nbytes_q + add_inp_load_nbytes;
      wgt_load_nbytes_q  <= wgt_load_nbytes_q + add_wgt_load_nbytes;
      acc_load_nbytes_q  <= acc_load_nbytes_q + add_acc_load_nbytes;
      uop_load_nbytes_q  <= uop_load_nbytes_q + add_uop_load_nbytes;
      out_store_nbytes_q <= out_store_nbytes_q + add_out_store_nbytes;
      gemm_counter_q     <= gemm_counter_q + add_gemm_counter;
      alu_counter_q      <= alu_counter_q + add_alu_counter;
      gemm_uops_q        <= gemm_uops_q + step_gemm_uops;
      gemm_reset_uops_q  <= gemm_reset_uops_q + step_gemm_reset_uops;
      alu_uops_q         <= alu_uops_q + step_alu_uops;
      alu_slots_q        <= alu_slots_q + step_alu_slots;
      insns_load_q       <= insns_load_q + step_insns_load;
      insns_compute_q    <= insns_compute_q + step_insns_compute;
      insns_store_q      <= insns_store_q + step_insns_store;
      insns_fetch_q      <= insns_fetch_q + step_insns_fetch;
      fetch_busy_q       <= fetch_busy_q + step_fetch_busy;
      fetch_mem_q        <= fetch_mem_q + step_fetch_mem;
      fetch_queue_q      <= fetch_queue_q + step_fetch_queue;
      fetch_idle_q       <= fetch_idle_q + step_fetch_idle;
      load_busy_q        <= load_busy_q + step_load_busy;
      load_mem_q         <= load_mem_q + step_load_mem;
      load_dep_g2l_q     <= load_dep_g2l_q + step_load_dep_g2l;
      load_idle_q        <= load_idle_q + step_load_idle;
      compute_busy_q     <= compute_busy_q + step_compute_busy;
      compute_mem_q      <= compute_mem_q + step_compute_mem;
      compute_dep_l2g_q  <= compute_dep_l2g_q + step_compute_dep_l2g;
      compute_dep_s2g_q  <= compute_dep_s2g_q + step_compute_dep_s2g;
      compute_idle_q     <= compute_idle_q + step_compute_idle;
      store_busy_q       <= store_busy_q + step_store_busy;
      store_mem_q        <= store_mem_q + step_store_mem;
      store_dep_g2s_q    <= store_dep_g2s_q + step_store_dep_g2s;
      store_idle_q       <= store_idle_q + step_store_idle;
    end
  end

  always @(*) begin
    reg_rdata = W_ZERO;
    if (reg_ren) case (reg_addr)
      VCR_CTRL:             reg_rdata = {{(WORD_W-CTRL_W){1'b0}}, ctrl_q};
      VCR_ECNT:             reg_rdata = ecnt_q;
      VCR_INSN_COUNT:       reg_rdata = insn_count_q;
      VCR_INSN_ADDR:        reg_rdata = insn_addr_q;
      VCR_UCNT:             reg_rdata = ucnt_q;
      VCR_TOK_L2G:          reg_rdata = tok_l2g;
      VCR_TOK_G2L:          reg_rdata = tok_g2l;
      VCR_TOK_G2S:          reg_rdata = tok_g2s;
      VCR_TOK_S2G:          reg_rdata = tok_s2g;
      VCR_MAX_BURST:        reg_rdata = max_burst_q;
      VCR_MAX_OUTST:        reg_rdata = max_outst_q;
      VCR_INP_LOAD_NBYTES:  reg_rdata = inp_load_nbytes_q;
      VCR_WGT_LOAD_NBYTES:  reg_rdata = wgt_load_nbytes_q;
      VCR_ACC_LOAD_NBYTES:  reg_rdata = acc_load_nbytes_q;
      VCR_UOP_LOAD_NBYTES:  reg_rdata = uop_load_nbytes_q;
      VCR_OUT_STORE_NBYTES: reg_rdata = out_store_nbytes_q;
      VCR_GEMM_COUNTER:     reg_rdata = gemm_counter_q;
      VCR_ALU_COUNTER:      reg_rdata = alu_counter_q;
      VCR_GEMM_UOPS:        reg_rdata = gemm_uops_q;
      VCR_GEMM_RESET_UOPS:  reg_rdata = gemm_reset_uops_q;
      VCR_ALU_UOPS:         reg_rdata = alu_uops_q;
      VCR_ALU_SLOTS:        reg_rdata = alu_slots_q;
      VCR_INSNS_LOAD:       reg_rdata = insns_load_q;
      VCR_INSNS_COMPUTE:    reg_rdata = insns_compute_q;
      VCR_INSNS_STORE:      reg_rdata = insns_store_q;
      VCR_INSNS_FETCH:      reg_rdata = insns_fetch_q;
      VCR_CMDQ:             reg_rdata = cmdq_q;
      VCR_FETCH_BUSY:       reg_rdata = fetch_busy_q;
      VCR_FETCH_MEM:        reg_rdata = fetch_mem_q;
      VCR_FETCH_QUEUE:      reg_rdata = fetch_queue_q;
      VCR_FETCH_IDLE:       reg_rdata = fetch_idle_q;
      VCR_LOAD_BUSY:        reg_rdata = load_busy_q;
      VCR_LOAD_MEM:         reg_rdata = load_mem_q;
      VCR_LOAD_DEP_G2L:     reg_rdata = load_dep_g2l_q;
      VCR_LOAD_IDLE:        reg_rdata = load_idle_q;
      VCR_COMPUTE_BUSY:     reg_rdata = compute_busy_q;
      VCR_COMPUTE_MEM:      reg_rdata = compute_mem_q;
      VCR_COMPUTE_DEP_L2G:  reg_rdata = compute_dep_l2g_q;
      VCR_COMPUTE_DEP_S2G:  reg_rdata = compute_dep_s2g_q;
      VCR_COMPUTE_IDLE:     reg_rdata = compute_idle_q;
      VCR_STORE_BUSY:       reg_rdata = store_busy_q;
      VCR_STORE_MEM:        reg_rdata = store_mem_q;
      VCR_STORE_DEP_G2S:    reg_rdata = store_dep_g2s_q;
      VCR_STORE_IDLE:       reg_rdata = store_idle_q;
      // what this core was built with (build/rtl/vta_params.vh), for the testbench
      VCR_BUILD_CFG0:       reg_rdata = {{(WORD_W-5*VCR_CFG0_W){1'b0}}, LOG_BLOCK[VCR_CFG0_W-1:0],
                                         LOG_BATCH[VCR_CFG0_W-1:0], LOG_ACC_WIDTH[VCR_CFG0_W-1:0],
                                         LOG_WGT_WIDTH[VCR_CFG0_W-1:0], LOG_INP_WIDTH[VCR_CFG0_W-1:0]};
      VCR_BUILD_CFG1:       reg_rdata = {LOG_ACC_BUFF_SIZE[VCR_CFG1_W-1:0], LOG_WGT_BUFF_SIZE[VCR_CFG1_W-1:0],
                                         LOG_INP_BUFF_SIZE[VCR_CFG1_W-1:0], LOG_UOP_BUFF_SIZE[VCR_CFG1_W-1:0]};
      VCR_BUILD_BUS_BYTES:  reg_rdata = BUS_BYTES;
      VCR_BUILD_MAX_BURST:  reg_rdata = MAX_BURST;
      VCR_BUILD_MAX_OUTST:  reg_rdata = MAX_OUTST;
      VCR_BUILD_CMDQ:       reg_rdata = CMDQ;
      VCR_BUILD_TOKQ:       reg_rdata = TOKQ;
      VCR_INJECT:           reg_rdata = {{(WORD_W-INJECT_W){1'b0}}, inject};
      default:              reg_rdata = W_ZERO;
    endcase
  end
endmodule
