// burst.v - the burst rule of docs/microarch.md 5.2 for one request walker:
// the first burst of the bytes [addr, addr + remaining) ends at the next
// MAX_BURST * BUS_BYTES boundary or at the end, whichever comes first; it
// covers `beats` bus beats from the aligned address.  Combinational; shared by
// fetch, the tensor DMA engines (load, compute) and the store DMA.
module burst (
  input  wire [31:0] addr,
  input  wire [31:0] remaining,
  input  wire [31:0] win_mask,   // MAX_BURST * BUS_BYTES - 1 (run time)
  output wire [31:0] bytes,
  output wire [8:0]  beats       // 1 .. MAX_BURST
);
`include "vta_params.vh"
  wire [32:0] room = {1'b0, win_mask} + 33'd1 - {1'b0, addr & win_mask};
  assign bytes = ({1'b0, remaining} < room) ? remaining : room[31:0];
  // beats = ceil((addr mod BUS + bytes) / BUS); at most MAX_BURST <= 256
  wire [32:0] span = {1'b0, bytes} + {{(33-LOG_BUS_BYTES){1'b0}}, addr[LOG_BUS_BYTES-1:0]}
                   + BUS_BYTES - 1;
  wire [32:0] nbeats = span >> LOG_BUS_BYTES;
  assign beats = nbeats[8:0];
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = &{1'b0, nbeats[32:9]};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
