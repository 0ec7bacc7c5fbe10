// vcr.v - the register port and the counters (spec 7.3, docs/microarch.md
// 8.1; the map is model/vta_vcr.h, generated into VCR_* offsets).
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
  input  wire        c_ucnt,
  input  wire [WORD_W-1:0] st_inp,
  input  wire [WORD_W-1:0] st_wgt,
  input  wire [WORD_W-1:0] st_acc,
  input  wire [WORD_W-1:0] st_uop,
  input  wire [WORD_W-1:0] st_out,
  input  wire [WORD_W-1:0] st_gemm,
  input  wire [WORD_W-1:0] st_alu,
  input  wire        c_gemm_uop,
  input  wire        c_gemm_reset,
  input  wire        c_alu_uop,
  input  wire [ALU_SLOTS_W-1:0] c_alu_slots,
  input  wire        d_load,
  input  wire        d_compute,
  input  wire        d_store,
  input  wire        d_fetch,
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
  reg        run_q;
  reg [WORD_W-1:0] ecnt_q, ucnt_q, count_q, addr_q, mb_q, mo_q, cmdq_q;
  // statistics, counted from reset, across runs
  reg [WORD_W-1:0] s_inp_q, s_wgt_q, s_acc_q, s_uop_q, s_out_q, s_gemm_q, s_alu_q;
  reg [WORD_W-1:0] gu_q, gr_q, au_q, as_q, il_q, ic_q, is_q, if_q;
  reg [WORD_W-1:0] fb_q, fm_q, fq_q, fi_q, lb_q, lm_q, ld_q, li_q;
  reg [WORD_W-1:0] cb_q, cm_q, cl_q, cs_q, ci_q, sb_q, sm_q, sd_q, si_q;

  assign launch     = reg_wen && reg_addr == VCR_CTRL && reg_wdata[0];
  assign run        = run_q;
  assign insn_count = count_q;
  assign insn_addr  = addr_q;
  assign max_burst  = mb_q;
  assign max_outst  = mo_q;
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
      ctrl_q <= CTRL_IDLE;
      run_q  <= 1'b0;
      ecnt_q <= W_ZERO;
      ucnt_q <= W_ZERO;
      count_q <= W_ZERO;
      addr_q <= W_ZERO;
      mb_q   <= MAX_BURST;
      mo_q   <= MAX_OUTST;
      cmdq_q <= CMDQ;
    end else begin
      if (reg_wen) begin
        case (reg_addr)
          VCR_CTRL:       ctrl_q <= reg_wdata[CTRL_W-1:0];
          VCR_INSN_COUNT: count_q <= reg_wdata;
          VCR_INSN_ADDR:  addr_q <= reg_wdata;
          VCR_MAX_BURST:  mb_q <= reg_wdata;
          VCR_MAX_OUTST:  mo_q <= reg_wdata;
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
        if (c_ucnt) ucnt_q <= ucnt_q + W_ONE;
      end
    end
  end

  // The counters are plain sums, one add each per cycle and no condition:
  // the simulator then updates each register in place (a conditional or
  // function-made update costs Verilator a shadow copy per counter and
  // cycle).
  // z_*: each counter's step, zero-extended (category counters: the cycles
  // 0..ECNT-1 only).
  localparam integer PAD1 = WORD_W - 1;
  wire [WORD_W-1:0] z_gu = {{PAD1{1'b0}}, c_gemm_uop};
  wire [WORD_W-1:0] z_gr = {{PAD1{1'b0}}, c_gemm_reset};
  wire [WORD_W-1:0] z_au = {{PAD1{1'b0}}, c_alu_uop};
  wire [WORD_W-1:0] z_as = {{(WORD_W-ALU_SLOTS_W){1'b0}}, c_alu_slots};
  wire [WORD_W-1:0] z_il = {{PAD1{1'b0}}, d_load};
  wire [WORD_W-1:0] z_ic = {{PAD1{1'b0}}, d_compute};
  wire [WORD_W-1:0] z_is = {{PAD1{1'b0}}, d_store};
  wire [WORD_W-1:0] z_if = {{PAD1{1'b0}}, d_fetch};
  wire [WORD_W-1:0] z_fb = {{PAD1{1'b0}}, counting && cat_fetch == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] z_fm = {{PAD1{1'b0}}, counting && cat_fetch == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] z_fq = {{PAD1{1'b0}}, counting && cat_fetch == CAT_QUEUE[CAT_W-1:0]};
  wire [WORD_W-1:0] z_fi = {{PAD1{1'b0}}, counting && cat_fetch == CAT_IDLE[CAT_W-1:0]};
  wire [WORD_W-1:0] z_lb = {{PAD1{1'b0}}, counting && cat_load == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] z_lm = {{PAD1{1'b0}}, counting && cat_load == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] z_ld = {{PAD1{1'b0}}, counting && cat_load == CAT_DEP[CAT_W-1:0] + Q_G2L[CAT_W-1:0]};
  wire [WORD_W-1:0] z_li = {{PAD1{1'b0}}, counting && cat_load == CAT_IDLE[CAT_W-1:0]};
  wire [WORD_W-1:0] z_cb = {{PAD1{1'b0}}, counting && cat_compute == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] z_cm = {{PAD1{1'b0}}, counting && cat_compute == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] z_cl = {{PAD1{1'b0}}, counting && cat_compute == CAT_DEP[CAT_W-1:0] + Q_L2G[CAT_W-1:0]};
  wire [WORD_W-1:0] z_cs = {{PAD1{1'b0}}, counting && cat_compute == CAT_DEP[CAT_W-1:0] + Q_S2G[CAT_W-1:0]};
  wire [WORD_W-1:0] z_ci = {{PAD1{1'b0}}, counting && cat_compute == CAT_IDLE[CAT_W-1:0]};
  wire [WORD_W-1:0] z_sb = {{PAD1{1'b0}}, counting && cat_store == CAT_BUSY[CAT_W-1:0]};
  wire [WORD_W-1:0] z_sm = {{PAD1{1'b0}}, counting && cat_store == CAT_MEM[CAT_W-1:0]};
  wire [WORD_W-1:0] z_sd = {{PAD1{1'b0}}, counting && cat_store == CAT_DEP[CAT_W-1:0] + Q_G2S[CAT_W-1:0]};
  wire [WORD_W-1:0] z_si = {{PAD1{1'b0}}, counting && cat_store == CAT_IDLE[CAT_W-1:0]};

  always @(posedge clk) begin
    if (rst) begin
      s_inp_q <= W_ZERO; s_wgt_q <= W_ZERO; s_acc_q <= W_ZERO; s_uop_q <= W_ZERO;
      s_out_q <= W_ZERO; s_gemm_q <= W_ZERO; s_alu_q <= W_ZERO;
      gu_q <= W_ZERO; gr_q <= W_ZERO; au_q <= W_ZERO; as_q <= W_ZERO;
      il_q <= W_ZERO; ic_q <= W_ZERO; is_q <= W_ZERO; if_q <= W_ZERO;
      fb_q <= W_ZERO; fm_q <= W_ZERO; fq_q <= W_ZERO; fi_q <= W_ZERO;
      lb_q <= W_ZERO; lm_q <= W_ZERO; ld_q <= W_ZERO; li_q <= W_ZERO;
      cb_q <= W_ZERO; cm_q <= W_ZERO; cl_q <= W_ZERO; cs_q <= W_ZERO; ci_q <= W_ZERO;
      sb_q <= W_ZERO; sm_q <= W_ZERO; sd_q <= W_ZERO; si_q <= W_ZERO;
    end else begin
      s_inp_q <= s_inp_q + st_inp;   s_wgt_q <= s_wgt_q + st_wgt;
      s_acc_q <= s_acc_q + st_acc;   s_uop_q <= s_uop_q + st_uop;
      s_out_q <= s_out_q + st_out;   s_gemm_q <= s_gemm_q + st_gemm;
      s_alu_q <= s_alu_q + st_alu;
      gu_q <= gu_q + z_gu;  gr_q <= gr_q + z_gr;  au_q <= au_q + z_au;  as_q <= as_q + z_as;
      il_q <= il_q + z_il;  ic_q <= ic_q + z_ic;  is_q <= is_q + z_is;  if_q <= if_q + z_if;
      fb_q <= fb_q + z_fb;  fm_q <= fm_q + z_fm;  fq_q <= fq_q + z_fq;  fi_q <= fi_q + z_fi;
      lb_q <= lb_q + z_lb;  lm_q <= lm_q + z_lm;  ld_q <= ld_q + z_ld;  li_q <= li_q + z_li;
      cb_q <= cb_q + z_cb;  cm_q <= cm_q + z_cm;  cl_q <= cl_q + z_cl;  cs_q <= cs_q + z_cs;
      ci_q <= ci_q + z_ci;
      sb_q <= sb_q + z_sb;  sm_q <= sm_q + z_sm;  sd_q <= sd_q + z_sd;  si_q <= si_q + z_si;
    end
  end

  always @(*) begin
    reg_rdata = W_ZERO;
    if (reg_ren) case (reg_addr)
      VCR_CTRL:             reg_rdata = {{(WORD_W-CTRL_W){1'b0}}, ctrl_q};
      VCR_ECNT:             reg_rdata = ecnt_q;
      VCR_INSN_COUNT:       reg_rdata = count_q;
      VCR_INSN_ADDR:        reg_rdata = addr_q;
      VCR_UCNT:             reg_rdata = ucnt_q;
      VCR_TOK_L2G:          reg_rdata = tok_l2g;
      VCR_TOK_G2L:          reg_rdata = tok_g2l;
      VCR_TOK_G2S:          reg_rdata = tok_g2s;
      VCR_TOK_S2G:          reg_rdata = tok_s2g;
      VCR_MAX_BURST:        reg_rdata = mb_q;
      VCR_MAX_OUTST:        reg_rdata = mo_q;
      VCR_INP_LOAD_NBYTES:  reg_rdata = s_inp_q;
      VCR_WGT_LOAD_NBYTES:  reg_rdata = s_wgt_q;
      VCR_ACC_LOAD_NBYTES:  reg_rdata = s_acc_q;
      VCR_UOP_LOAD_NBYTES:  reg_rdata = s_uop_q;
      VCR_OUT_STORE_NBYTES: reg_rdata = s_out_q;
      VCR_GEMM_COUNTER:     reg_rdata = s_gemm_q;
      VCR_ALU_COUNTER:      reg_rdata = s_alu_q;
      VCR_GEMM_UOPS:        reg_rdata = gu_q;
      VCR_GEMM_RESET_UOPS:  reg_rdata = gr_q;
      VCR_ALU_UOPS:         reg_rdata = au_q;
      VCR_ALU_SLOTS:        reg_rdata = as_q;
      VCR_INSNS_LOAD:       reg_rdata = il_q;
      VCR_INSNS_COMPUTE:    reg_rdata = ic_q;
      VCR_INSNS_STORE:      reg_rdata = is_q;
      VCR_INSNS_FETCH:      reg_rdata = if_q;
      VCR_CMDQ:             reg_rdata = cmdq_q;
      VCR_FETCH_BUSY:       reg_rdata = fb_q;
      VCR_FETCH_MEM:        reg_rdata = fm_q;
      VCR_FETCH_QUEUE:      reg_rdata = fq_q;
      VCR_FETCH_IDLE:       reg_rdata = fi_q;
      VCR_LOAD_BUSY:        reg_rdata = lb_q;
      VCR_LOAD_MEM:         reg_rdata = lm_q;
      VCR_LOAD_DEP_G2L:     reg_rdata = ld_q;
      VCR_LOAD_IDLE:        reg_rdata = li_q;
      VCR_COMPUTE_BUSY:     reg_rdata = cb_q;
      VCR_COMPUTE_MEM:      reg_rdata = cm_q;
      VCR_COMPUTE_DEP_L2G:  reg_rdata = cl_q;
      VCR_COMPUTE_DEP_S2G:  reg_rdata = cs_q;
      VCR_COMPUTE_IDLE:     reg_rdata = ci_q;
      VCR_STORE_BUSY:       reg_rdata = sb_q;
      VCR_STORE_MEM:        reg_rdata = sm_q;
      VCR_STORE_DEP_G2S:    reg_rdata = sd_q;
      VCR_STORE_IDLE:       reg_rdata = si_q;
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
