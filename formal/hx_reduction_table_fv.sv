// hx_reduction_table_fv: proof harness of one reduction table (yosys -formal only; docs/formal.md).
//
// The table's inputs are free: any flit in any cycle, any readiness of the output, any time and
// timeout, constrained only by the table's own contract (ContributionsWithinExpected, an
// HX_ASSUME in hx_reduction_table.sv, kept as an assumption because the table is the block under
// proof). The properties are the table's assertions. The harness reads no output, so the data
// rows and the ALU fall outside every property and drop out of the netlists.
module hx_reduction_table_fv #(
  parameter int unsigned Entries   = 2,
  parameter int unsigned TimeWidth = 4
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic [TimeWidth-1:0] now_i,
  input logic [TimeWidth-1:0] timeout_i,
  input logic                 in_valid_i,
  input logic [127:0]         in_flit_i,
  input logic                 out_ready_i
);
  logic                          in_ready, out_valid;
  logic [127:0]                  out_flit;
  logic [$clog2(Entries + 1)-1:0] occupancy;

  hx_reduction_table #(.Entries (Entries), .TimeWidth (TimeWidth)) dut (
    .clk_i, .rst_ni, .now_i, .timeout_i, .in_valid_i, .in_ready_o (in_ready), .in_flit_i,
    .out_valid_o (out_valid), .out_ready_i, .out_flit_o (out_flit), .occupancy_o (occupancy)
  );

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (!rst_ni);
endmodule
