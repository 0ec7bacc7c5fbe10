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
  wire [32:0] span;
  assign bytes = ({1'b0, remaining} < room) ? remaining : room[31:0];
  // beats = ceil((addr mod BUS + bytes) / BUS)
  assign span  = {1'b0, bytes} + {24'd0, addr[LOG_BUS_BYTES-1:0]} + BUS_BYTES - 1;
  assign beats = span[LOG_BUS_BYTES+8:LOG_BUS_BYTES];
endmodule
