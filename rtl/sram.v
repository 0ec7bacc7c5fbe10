// sram.v - one scratchpad (inp, wgt, acc, out, or a uop bank): a synchronous
// RAM with one write port and one registered read port.
//
// docs/microarch.md 3: "an SRAM read in cycle t returns the contents at the
// start of t (read-before-write, as a synchronous Verilog RAM with registered
// output)".  The address is presented in cycle t and the data is on `rdata`
// from t+1 until the next read (`re` gates the output register, so a unit
// can hold a value, e.g. store's staged out element, without a copy).
// No reset: like the C model's calloc'd buffers, Verilator starts it at 0,
// and scratchpads persist across runs (docs/isa.md 5.3).
module sram #(
  parameter integer DEPTH = 16,
  parameter integer WIDTH = 8,
  parameter integer ADDR_W = 4
) (
  input  wire             clk,
  input  wire             we,
  input  wire [ADDR_W-1:0] waddr,
  input  wire [WIDTH-1:0] wdata,
  input  wire             re,
  input  wire [ADDR_W-1:0] raddr,
  output wire [WIDTH-1:0] rdata
);
  reg [WIDTH-1:0] mem_q [0:DEPTH-1];
  reg [WIDTH-1:0] rdata_q;

  always @(posedge clk) begin
    if (we) mem_q[waddr] <= wdata;
  end

  always @(posedge clk) begin
    if (re) rdata_q <= mem_q[raddr];
  end

  assign rdata = rdata_q;
endmodule
