// hx_switch_reduction: the reduction tables of every port of one NVSwitch-like switch, grouped so
// that a whole switch is one Verilated model (docs/reduction-unit.md). Port p's table uses slice
// p of every vector: in_valid_i[p], in_flit_i[128p +: 128], occupancy_o[OccWidth*p +: OccWidth],
// and so on. The tables are independent; now_i and timeout_i are shared.
module hx_switch_reduction #(
  parameter int unsigned Ports     = 16,
  parameter int unsigned Entries   = 8,   // per port: table bytes / 128
  parameter int unsigned TimeWidth = 32,
  localparam int unsigned OccWidth = $clog2(Entries + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [TimeWidth-1:0]      now_i,
  input  logic [TimeWidth-1:0]      timeout_i,
  input  logic [Ports-1:0]          in_valid_i,
  output logic [Ports-1:0]          in_ready_o,
  input  logic [Ports*128-1:0]      in_flit_i,
  output logic [Ports-1:0]          out_valid_o,
  input  logic [Ports-1:0]          out_ready_i,
  output logic [Ports*128-1:0]      out_flit_o,
  output logic [Ports*OccWidth-1:0] occupancy_o
);

  for (genvar p = 0; p < Ports; p++) begin : g_port
    hx_reduction_table #(
      .Entries   (Entries),
      .TimeWidth (TimeWidth)
    ) u_table (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .now_i       (now_i),
      .timeout_i   (timeout_i),
      .in_valid_i  (in_valid_i[p]),
      .in_ready_o  (in_ready_o[p]),
      .in_flit_i   (in_flit_i[128*p +: 128]),
      .out_valid_o (out_valid_o[p]),
      .out_ready_i (out_ready_i[p]),
      .out_flit_o  (out_flit_o[128*p +: 128]),
      .occupancy_o (occupancy_o[OccWidth*p +: OccWidth])
    );
  end

endmodule
