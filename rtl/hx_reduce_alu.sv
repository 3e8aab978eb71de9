// hx_reduce_alu: the ALU array of the switch reduction unit (Klenk et al., Fig. 5): one 128-bit
// flit per cycle as four independent 32-bit lanes, combinational. Lane k is bits [32k+31:32k] of
// each operand. a_i is the table's partial, b_i the incoming flit; every op is commutative except
// for which NaN/zero representation is returned, and those are fixed (see hx_fp32_alu).
module hx_reduce_alu #(
  parameter int unsigned Lanes = 4
) (
  input  logic [2:0]          op_i,
  input  logic [Lanes*32-1:0] a_i,
  input  logic [Lanes*32-1:0] b_i,
  output logic [Lanes*32-1:0] y_o
);

  for (genvar k = 0; k < Lanes; k++) begin : g_lane
    hx_fp32_alu u_lane (
      .op_i (op_i),
      .a_i  (a_i[32*k +: 32]),
      .b_i  (b_i[32*k +: 32]),
      .y_o  (y_o[32*k +: 32])
    );
  end

endmodule
