// burst.v - the burst rule of docs/microarch.md 5.2 for one request walker:
// the first burst of the bytes [addr, addr + remaining) ends at the next
// MAX_BURST * BUS_BYTES boundary or at the end, whichever comes first; it
// covers `beats` bus beats from the aligned address.  Combinational; shared by
// fetch, the tensor DMA engines (load, compute) and the store DMA.
module burst (
  input  wire [WORD_W-1:0]  addr,
  input  wire [WORD_W-1:0]  remaining,
  input  wire [WORD_W-1:0]  win_mask,   // MAX_BURST * BUS_BYTES - 1 (run time)
  output wire [WORD_W-1:0]  bytes,
  output wire [BEATS_W-1:0] beats       // 1 .. MAX_BURST
);
`include "vta_params.vh"
  localparam integer BYTE_CNT_W = WORD_W + 1;   // a byte count up to 2^WORD_W
  localparam [BYTE_CNT_W-1:0] CNT_ONE = 1, CNT_BUS_M1 = BUS_BYTES - 1;   // (BUS_BYTES minus 1)
  wire [BYTE_CNT_W-1:0] room = {1'b0, win_mask} + CNT_ONE - {1'b0, addr & win_mask};
  assign bytes = ({1'b0, remaining} < room) ? remaining : room[WORD_W-1:0];
  // beats = ceil((addr mod BUS + bytes) / BUS); at most MAX_BURST <= 256
  wire [BYTE_CNT_W-1:0] span = {1'b0, bytes}
                            + {{(BYTE_CNT_W-LOG_BUS_BYTES){1'b0}}, addr[LOG_BUS_BYTES-1:0]}
                            + CNT_BUS_M1;
  wire [BYTE_CNT_W-1:0] nbeats = span >> LOG_BUS_BYTES;
  assign beats = nbeats[BEATS_W-1:0];
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, nbeats[BYTE_CNT_W-1:BEATS_W]};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
