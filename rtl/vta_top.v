// vta_top.v - the VTA core of vtasim (docs/microarch.md): fetch, the three
// command queues, load, compute and store, the four token semaphores, the
// scratchpads, the memory engine (read arbiter with MAX_OUTST; the store
// owns the write channel), and the register port with the counters.
//
// Interfaces:
//  * clk, rst (synchronous, active high): power-on reset; tokens 0.
//  * register port (model/platform/vta_vcr.h): reg_wen/reg_addr/reg_wdata written at
//    the clock edge, reg_rdata combinational while reg_ren is set (zero
//    otherwise).  Writing CTRL bit 0 launches a
//    run whose cycle 0 is the cycle after that write.
//  * AXI4-style memory master.  AR: exact byte address (may be unaligned),
//    ARLEN = beats - 1, ARID = read client (0 fetch, 1 uop, 2 inp, 3 wgt,
//    4 acc); at most one request per cycle, by priority, only while fewer
//    than MAX_OUTST bursts are in flight, so the memory never has to refuse.
//    R: beats in order, always accepted (no RREADY).  AW/W/B: one burst at a
//    time from store; B always accepted.  ev_ar_bytes is the exact byte
//    length of the AR request (AXI carries only beats).  The port's inputs
//    of a cycle (m_arready, R, m_awready, m_wready, m_bvalid) are presented
//    before the rising clock edge that begins that cycle and registered at
//    it: a memory whose responses come from its own registers one cycle
//    ahead (its readies decided before it sees the cycle's valids, as AXI
//    allows).  testbench/vta_rtl.cpp serves model/platform/memsys.c that way.  The
//    core then depends on registers only, so Verilator evaluates the whole
//    core once per cycle, in the evaluation of the rising edge (docs/rtl.md
//    4); nothing is sensitive to the falling edge (the testbench relies on
//    it and need not evaluate that edge).  m_rlast_soon and m_rd_frees are the exceptions:
//    they go straight into mem_arbiter's registers at the edge that ends their cycle, so the
//    memory presents them with the next cycle's inputs.
//  * ev_*: the observable events of docs/microarch.md 8.2 of this cycle, for
//    co-simulation (testbench/vta_rtl.cpp turns them into vta_event_t).
module vta_top (
  input  wire        clk,
  input  wire        rst,
  input  wire        reg_wen,
  input  wire        reg_ren,
  input  wire [VCR_ADDR_W-1:0] reg_addr,
  input  wire [WORD_W-1:0] reg_wdata,
  output wire [WORD_W-1:0] reg_rdata,
  output wire        m_arvalid,
  input  wire        m_arready,
  output wire [WORD_W-1:0] m_araddr,
  output wire [AXI_LEN_W-1:0] m_arlen,
  output wire [RD_ID_W-1:0] m_arid,
  input  wire        m_rvalid,
  input  wire [BUS_BYTES*8-1:0] m_rdata,
  input  wire [RD_ID_W-1:0] m_rid,
  input  wire        m_rlast,
  input  wire        m_rlast_soon,   // the memory: a last beat lands in 4 cycles (mem_arbiter)
  input  wire        m_rd_frees,     // the memory: a burst frees its MAX_OUTST slot (mem_arbiter)
  output wire        m_awvalid,
  input  wire        m_awready,
  output wire [WORD_W-1:0] m_awaddr,
  output wire [AXI_LEN_W-1:0] m_awlen,
  output wire        m_wvalid,
  input  wire        m_wready,
  output wire [BUS_BYTES*8-1:0] m_wdata,
  output wire [BUS_BYTES-1:0]   m_wstrb,
  output wire        m_wlast,
  input  wire        m_bvalid,
  output wire [WORD_W-1:0] ev_ar_bytes,
  output wire        ev_dispatch,
  output wire [UNIT_W-1:0] ev_dispatch_unit,
  output wire [QIDX_W-1:0] ev_dispatch_idx,
  output wire        ev_load_start,
  output wire        ev_load_done,
  output wire [QIDX_W-1:0] ev_load_idx,
  output wire        ev_compute_start,
  output wire        ev_compute_done,
  output wire [QIDX_W-1:0] ev_compute_idx,
  output wire        ev_store_start,
  output wire        ev_store_done,
  output wire [QIDX_W-1:0] ev_store_idx,
  output wire [NQUEUES-1:0] ev_pop,     // bit = queue l2g, g2l, g2s, s2g
  output wire [NQUEUES-1:0] ev_push,
  output wire        ev_inp_we,
  output wire [WORD_W-1:0] ev_inp_idx,
  output wire [INP_ELEM_BYTES*8-1:0] ev_inp_wdata,
  output wire        ev_wgt_we,
  output wire [WORD_W-1:0] ev_wgt_idx,
  output wire [WGT_ELEM_BYTES*8-1:0] ev_wgt_wdata,
  output wire        ev_acc_we,
  output wire [WORD_W-1:0] ev_acc_idx,
  output wire [ACC_ELEM_BYTES*8-1:0] ev_acc_wdata,
  output wire        ev_out_we,
  output wire [WORD_W-1:0] ev_out_idx,
  output wire [OUT_ELEM_BYTES*8-1:0] ev_out_wdata,
  output wire [BUS_BYTES/UOP_ELEM_BYTES-1:0] ev_uop_we,  // slot k writes entry ev_uop_idx + k
  output wire [WORD_W-1:0] ev_uop_idx,
  output wire [BUS_BYTES*8-1:0] ev_uop_wdata,
  output wire        ev_out_rd,
  output wire [WORD_W-1:0] ev_out_rd_idx,
  output wire        ev_finish,
  output wire [(NUNITS+1)*CAT_W-1:0] ev_cat  // this cycle's category (VTA_CAT_*) of
                                             // fetch, store, compute, load (MSB first)
);
`include "vta_params.vh"

  // ---- the memory port's inputs of this cycle, registered at its rising edge (see above)
  reg                   m_arready_q, m_rvalid_q;
  reg                   m_awready_q, m_wready_q, m_bvalid_q;
  reg [BUS_BYTES*8-1:0] m_rdata_q;
  reg [RD_ID_W-1:0]     m_rid_q;
  // RLAST is not needed: each client counts its beats, and MAX_OUTST slots
  // free with m_rd_frees (the reference frees them before the last beat lands)
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_rlast = m_rlast;
  /* verilator lint_on UNUSEDSIGNAL */
  always @(posedge clk) begin
    m_arready_q <= m_arready;
    m_rvalid_q  <= m_rvalid;
    m_rdata_q   <= m_rdata;
    m_rid_q     <= m_rid;
    m_awready_q <= m_awready;
    m_wready_q  <= m_wready;
    m_bvalid_q  <= m_bvalid;
  end
  localparam integer CMDQ_CNT_W = $clog2(CMDQ + 1);                 // a queue's count
  localparam integer CMDQ_PTR_W = CMDQ > 1 ? $clog2(CMDQ) : 1;      // a queue's slot
  localparam integer OUTST_W    = $clog2(MAX_OUTST + 1);            // bursts in flight
  localparam integer TOK_W      = $clog2(TOKQ + 1);                 // a token count

  // ---- registers and run control -------------------------------------------------
  wire        launch, run, finish;
  wire [WORD_W-1:0] insn_count, insn_addr, max_burst, max_outst, cmdq;
  wire [INJECT_W-1:0] inject;
  // The end of a run (the finish pulse) drops whatever the units were doing,
  // like a launch (docs/microarch.md 3); tokens and scratchpads persist.
  wire        clr = rst || launch || finish;
  localparam integer LOG_INS_BYTES = $clog2(INS_BYTES);
  localparam [WORD_W-1:0] WORD_ONE = 1;
  wire [WORD_W-1:0] win_mask = (max_burst << LOG_BUS_BYTES) - WORD_ONE;
  // FETCH_CHUNK of the run-time MAX_BURST: the instructions of one burst, at least 1
  wire [WORD_W-1:0] burst_insns = max_burst >> (LOG_INS_BYTES - LOG_BUS_BYTES);
  wire [WORD_W-1:0] chunk       = ~|burst_insns ? WORD_ONE : burst_insns;

  // ---- token semaphores ------------------------------------------------------------
  wire [TOK_W-1:0]   tok [0:NQUEUES-1];
  wire [NQUEUES-1:0] tok_nz, pop, push;
  genvar q;
  generate
    for (q = 0; q < NQUEUES; q = q + 1) begin : g_sem
      semaphore #(.CAP(TOKQ), .COUNT_W(TOK_W)) u_sem (.clk(clk), .rst(rst), .push(push[q]),
        .pop(pop[q]), .nonzero(tok_nz[q]), .count(tok[q]));
    end
  endgenerate
  assign ev_pop  = pop;
  assign ev_push = push;

  // ---- fetch and the command queues --------------------------------------------------
  wire [NUNITS-1:0] q_full, q_empty, q_push, q_pop;
  wire [QWORD_W-1:0] q_data;
  // the head entry of each unit's queue: plain wires, not an array (a simulator
  // then reads the queue's register in place instead of copying it every cycle)
  wire [QWORD_W-1:0] q_head_load, q_head_compute, q_head_store;
  wire [CAT_W-1:0]  cat_fetch, cat_load, cat_compute, cat_store;
  assign ev_cat = {cat_fetch, cat_store, cat_compute, cat_load};
  wire [RD_NCLIENTS-1:0] req_valid, grant;
  // fetch's read request (plain wires, not arrays per client: no per-cycle copies)
  wire [WORD_W-1:0]  fetch_req_addr, fetch_req_bytes;
  wire [BEATS_W-1:0] fetch_req_beats;

  fetch u_fetch (
    .clk(clk), .rst(rst), .launch(launch), .stop(finish), .run(run), .insn_count(insn_count),
    .insn_addr(insn_addr), .win_mask(win_mask), .chunk(chunk),
    .req_valid(req_valid[RD_FETCH]), .req_addr(fetch_req_addr), .req_bytes(fetch_req_bytes),
    .req_beats(fetch_req_beats), .grant(grant[RD_FETCH]), .m_rvalid(m_rvalid_q),
    .m_rid(m_rid_q), .m_rdata(m_rdata_q), .q_full(q_full), .q_push(q_push), .q_data(q_data),
    .disp_unit(ev_dispatch_unit), .disp_idx(ev_dispatch_idx), .cat(cat_fetch));
  assign ev_dispatch = |q_push;

  cmd_queue #(.DEPTH(CMDQ), .WIDTH(QWORD_W), .CNT_W(CMDQ_CNT_W), .PTR_W(CMDQ_PTR_W)) u_q_load (
    .clk(clk), .clr(clr), .limit(cmdq[CMDQ_CNT_W-1:0]), .push(q_push[UNIT_LOAD]),
    .push_data(q_data), .pop(q_pop[UNIT_LOAD]), .head(q_head_load), .empty(q_empty[UNIT_LOAD]),
    .full(q_full[UNIT_LOAD]));
  cmd_queue #(.DEPTH(CMDQ), .WIDTH(QWORD_W), .CNT_W(CMDQ_CNT_W), .PTR_W(CMDQ_PTR_W)) u_q_compute (
    .clk(clk), .clr(clr), .limit(cmdq[CMDQ_CNT_W-1:0]), .push(q_push[UNIT_COMPUTE]),
    .push_data(q_data), .pop(q_pop[UNIT_COMPUTE]), .head(q_head_compute),
    .empty(q_empty[UNIT_COMPUTE]), .full(q_full[UNIT_COMPUTE]));
  cmd_queue #(.DEPTH(CMDQ), .WIDTH(QWORD_W), .CNT_W(CMDQ_CNT_W), .PTR_W(CMDQ_PTR_W)) u_q_store (
    .clk(clk), .clr(clr), .limit(cmdq[CMDQ_CNT_W-1:0]), .push(q_push[UNIT_STORE]),
    .push_data(q_data), .pop(q_pop[UNIT_STORE]), .head(q_head_store), .empty(q_empty[UNIT_STORE]),
    .full(q_full[UNIT_STORE]));

  // ---- scratchpads ----------------------------------------------------------------------
  wire                         inp_we, wgt_we, inp_wgt_re;
  wire [WORD_W-1:0]            load_wr_idx, inp_ridx, wgt_ridx;
  wire [WGT_ELEM_BYTES*8-1:0]  load_wr_data;   // inp rows in the low bits
  wire [INP_ELEM_BYTES*8-1:0]  inp_rdata;
  wire [WGT_ELEM_BYTES*8-1:0]  wgt_rdata;
  wire                         acc_re, acc_we, out_we, out_re;
  wire [WORD_W-1:0]            acc_ridx, acc_widx, out_widx, out_ridx;
  wire [ACC_ELEM_BYTES*8-1:0]  acc_rdata, acc_wdata;
  wire [OUT_ELEM_BYTES*8-1:0]  out_rdata, out_wdata;
  wire [BUS_BYTES/UOP_ELEM_BYTES-1:0] uop_we;
  wire                         uop_re;
  wire [WORD_W-1:0]            uop_widx, uop_ridx;
  wire [UOP_ELEM_BYTES*8-1:0]  uop_rdata;

  sram #(.DEPTH(INP_DEPTH), .WIDTH(INP_ELEM_BYTES*8), .ADDR_W(LOG_INP_DEPTH)) u_inp (
    .clk(clk), .we(inp_we), .waddr(load_wr_idx[LOG_INP_DEPTH-1:0]),
    .wdata(load_wr_data[INP_ELEM_BYTES*8-1:0]), .re(inp_wgt_re),
    .raddr(inp_ridx[LOG_INP_DEPTH-1:0]), .rdata(inp_rdata));
  wgt_sram u_wgt (
    .clk(clk), .rst(rst), .we(wgt_we), .waddr(load_wr_idx[LOG_WGT_DEPTH-1:0]),
    .wdata(load_wr_data), .re(inp_wgt_re), .raddr(wgt_ridx[LOG_WGT_DEPTH-1:0]),
    .rdata(wgt_rdata));
  sram #(.DEPTH(ACC_DEPTH), .WIDTH(ACC_ELEM_BYTES*8), .ADDR_W(LOG_ACC_DEPTH)) u_acc (
    .clk(clk), .we(acc_we), .waddr(acc_widx[LOG_ACC_DEPTH-1:0]), .wdata(acc_wdata),
    .re(acc_re), .raddr(acc_ridx[LOG_ACC_DEPTH-1:0]), .rdata(acc_rdata));
  sram #(.DEPTH(OUT_DEPTH), .WIDTH(OUT_ELEM_BYTES*8), .ADDR_W(LOG_OUT_DEPTH)) u_out (
    .clk(clk), .we(out_we), .waddr(out_widx[LOG_OUT_DEPTH-1:0]), .wdata(out_wdata),
    .re(out_re), .raddr(out_ridx[LOG_OUT_DEPTH-1:0]), .rdata(out_rdata));
  uop_sram u_uop (.clk(clk), .we(uop_we), .widx(uop_widx), .wdata(m_rdata_q), .re(uop_re),
    .ridx(uop_ridx), .rdata(uop_rdata));

  // ---- the units -------------------------------------------------------------------------
  // their read requests, and what they add to the counters of vcr.v (add_<counter>)
  wire [RD_ID_W-1:0] load_req_client, compute_req_client;
  wire               load_req_valid, compute_req_valid;
  wire [WORD_W-1:0]  load_req_addr, load_req_bytes, compute_req_addr, compute_req_bytes;
  wire [BEATS_W-1:0] load_req_beats, compute_req_beats;
  wire [WORD_W-1:0]  add_inp_load_nbytes, add_wgt_load_nbytes, add_acc_load_nbytes,
                     add_uop_load_nbytes, add_out_store_nbytes, add_gemm_counter, add_alu_counter;
  wire               add_gemm_uops, add_gemm_reset_uops, add_alu_uops, add_ucnt;
  wire [ALU_SLOTS_W-1:0] add_alu_slots;

  load u_load (
    .clk(clk), .clr(clr), .run(run), .inject(inject), .head(q_head_load),
    .q_empty(q_empty[UNIT_LOAD]), .q_pop(q_pop[UNIT_LOAD]), .g2l_nz(tok_nz[Q_G2L]),
    .pop_g2l(pop[Q_G2L]), .push_l2g(push[Q_L2G]), .win_mask(win_mask),
    .req_valid(load_req_valid), .req_client(load_req_client), .req_addr(load_req_addr),
    .req_bytes(load_req_bytes), .req_beats(load_req_beats), .grant(grant[RD_INP] || grant[RD_WGT]),
    .m_rvalid(m_rvalid_q), .m_rid(m_rid_q), .m_rdata(m_rdata_q), .inp_we(inp_we), .wgt_we(wgt_we),
    .wr_idx(load_wr_idx), .wr_data(load_wr_data), .ev_start(ev_load_start),
    .ev_done(ev_load_done), .ev_idx(ev_load_idx), .cat(cat_load),
    .add_inp_load_nbytes(add_inp_load_nbytes), .add_wgt_load_nbytes(add_wgt_load_nbytes));

  compute u_compute (
    .clk(clk), .clr(clr), .run(run), .inject(inject), .head(q_head_compute),
    .q_empty(q_empty[UNIT_COMPUTE]), .q_pop(q_pop[UNIT_COMPUTE]), .l2g_nz(tok_nz[Q_L2G]),
    .s2g_nz(tok_nz[Q_S2G]), .pop_l2g(pop[Q_L2G]), .pop_s2g(pop[Q_S2G]), .push_g2l(push[Q_G2L]),
    .push_g2s(push[Q_G2S]), .win_mask(win_mask), .req_valid(compute_req_valid),
    .req_client(compute_req_client), .req_addr(compute_req_addr), .req_bytes(compute_req_bytes),
    .req_beats(compute_req_beats), .grant(grant[RD_UOP] || grant[RD_ACC]), .m_rvalid(m_rvalid_q),
    .m_rid(m_rid_q), .m_rdata(m_rdata_q), .uop_we(uop_we), .uop_widx(uop_widx),
    .uop_re(uop_re), .uop_ridx(uop_ridx), .uop_rdata(uop_rdata), .inp_wgt_re(inp_wgt_re),
    .inp_ridx(inp_ridx), .wgt_ridx(wgt_ridx), .inp_rdata(inp_rdata), .wgt_rdata(wgt_rdata),
    .acc_re(acc_re), .acc_ridx(acc_ridx), .acc_rdata(acc_rdata), .acc_we(acc_we),
    .acc_widx(acc_widx), .acc_wdata(acc_wdata), .out_we(out_we), .out_widx(out_widx),
    .out_wdata(out_wdata), .ev_start(ev_compute_start), .ev_done(ev_compute_done),
    .ev_idx(ev_compute_idx), .finish(finish), .cat(cat_compute),
    .add_acc_load_nbytes(add_acc_load_nbytes), .add_uop_load_nbytes(add_uop_load_nbytes),
    .add_gemm_counter(add_gemm_counter), .add_alu_counter(add_alu_counter),
    .add_gemm_uops(add_gemm_uops), .add_gemm_reset_uops(add_gemm_reset_uops),
    .add_alu_uops(add_alu_uops), .add_alu_slots(add_alu_slots), .add_ucnt(add_ucnt));

  store u_store (
    .clk(clk), .clr(clr), .run(run), .head(q_head_store), .q_empty(q_empty[UNIT_STORE]),
    .q_pop(q_pop[UNIT_STORE]), .g2s_nz(tok_nz[Q_G2S]), .pop_g2s(pop[Q_G2S]),
    .push_s2g(push[Q_S2G]), .win_mask(win_mask), .out_re(out_re), .out_idx(out_ridx),
    .out_rdata(out_rdata), .m_awvalid(m_awvalid), .m_awready(m_awready_q), .m_awaddr(m_awaddr),
    .m_awlen(m_awlen), .m_wvalid(m_wvalid), .m_wready(m_wready_q), .m_wdata(m_wdata),
    .m_wstrb(m_wstrb), .m_wlast(m_wlast), .m_bvalid(m_bvalid_q), .ev_start(ev_store_start),
    .ev_done(ev_store_done), .ev_idx(ev_store_idx), .cat(cat_store),
    .add_out_store_nbytes(add_out_store_nbytes));

  // ---- the read arbiter: one request slot per client -------------------------------------
  assign req_valid[RD_UOP] = compute_req_valid && compute_req_client == RD_UOP[RD_ID_W-1:0];
  assign req_valid[RD_ACC] = compute_req_valid && compute_req_client == RD_ACC[RD_ID_W-1:0];
  assign req_valid[RD_INP] = load_req_valid && load_req_client == RD_INP[RD_ID_W-1:0];
  assign req_valid[RD_WGT] = load_req_valid && load_req_client == RD_WGT[RD_ID_W-1:0];

  mem_arbiter #(.OUTST_W(OUTST_W)) u_arb (
    .clk(clk), .clr(clr), .max_outst(max_outst[OUTST_W-1:0]), .req_valid(req_valid),
    // clients RD_ACC, RD_WGT, RD_INP, RD_UOP, RD_FETCH (4 .. 0): compute's and load's
    // DMA serve two each
    .req_addr({compute_req_addr, load_req_addr, load_req_addr, compute_req_addr,
               fetch_req_addr}),
    .req_bytes({compute_req_bytes, load_req_bytes, load_req_bytes, compute_req_bytes,
                fetch_req_bytes}),
    .req_beats({compute_req_beats, load_req_beats, load_req_beats, compute_req_beats,
                fetch_req_beats}),
    .grant(grant), .m_arvalid(m_arvalid), .m_arready(m_arready_q), .m_araddr(m_araddr),
    .m_arlen(m_arlen), .m_arid(m_arid), .ar_bytes(ev_ar_bytes), .frees(m_rd_frees),
    .rlast_soon(m_rlast_soon));

  // ---- registers and counters -------------------------------------------------------------
  vcr u_vcr (
    .clk(clk), .rst(rst), .reg_wen(reg_wen), .reg_addr(reg_addr), .reg_wdata(reg_wdata),
    .reg_ren(reg_ren), .reg_rdata(reg_rdata), .launch(launch), .run(run),
    .insn_count(insn_count), .insn_addr(insn_addr), .max_burst(max_burst),
    .max_outst(max_outst), .cmdq(cmdq), .inject(inject), .finish(finish),
    .tok_l2g({{(WORD_W-TOK_W){1'b0}}, tok[Q_L2G]}), .tok_g2l({{(WORD_W-TOK_W){1'b0}}, tok[Q_G2L]}),
    .tok_g2s({{(WORD_W-TOK_W){1'b0}}, tok[Q_G2S]}), .tok_s2g({{(WORD_W-TOK_W){1'b0}}, tok[Q_S2G]}),
    .add_ucnt(add_ucnt), .add_inp_load_nbytes(add_inp_load_nbytes),
    .add_wgt_load_nbytes(add_wgt_load_nbytes), .add_acc_load_nbytes(add_acc_load_nbytes),
    .add_uop_load_nbytes(add_uop_load_nbytes), .add_out_store_nbytes(add_out_store_nbytes),
    .add_gemm_counter(add_gemm_counter), .add_alu_counter(add_alu_counter),
    .add_gemm_uops(add_gemm_uops), .add_gemm_reset_uops(add_gemm_reset_uops),
    .add_alu_uops(add_alu_uops), .add_alu_slots(add_alu_slots),
    .add_insns_load(q_pop[UNIT_LOAD]), .add_insns_compute(q_pop[UNIT_COMPUTE]),
    .add_insns_store(q_pop[UNIT_STORE]), .add_insns_fetch(ev_dispatch),
    .cat_fetch(cat_fetch), .cat_load(cat_load), .cat_compute(cat_compute),
    .cat_store(cat_store));

  /* verilator lint_off UNUSEDSIGNAL */
  // Scratchpad indices wrap at the buffer depth, as in hardware (the C model
  // reports an out-of-range index as an error instead); the run-time limits
  // are at most the built ones.
  wire unused_ok = &{1'b0, max_outst, cmdq, inp_ridx, wgt_ridx, acc_ridx};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- events ------------------------------------------------------------------------------
  assign ev_inp_we     = inp_we;
  assign ev_inp_idx    = load_wr_idx;
  assign ev_inp_wdata  = load_wr_data[INP_ELEM_BYTES*8-1:0];
  assign ev_wgt_we     = wgt_we;
  assign ev_wgt_idx    = load_wr_idx;
  assign ev_wgt_wdata  = load_wr_data;
  assign ev_acc_we     = acc_we;
  assign ev_acc_idx    = acc_widx;
  assign ev_acc_wdata  = acc_wdata;
  assign ev_out_we     = out_we;
  assign ev_out_idx    = out_widx;
  assign ev_out_wdata  = out_wdata;
  assign ev_uop_we     = uop_we;
  assign ev_uop_idx    = uop_widx;
  assign ev_uop_wdata  = m_rdata_q;
  assign ev_out_rd     = out_re;
  assign ev_out_rd_idx = out_ridx;
  assign ev_finish     = finish;
endmodule
