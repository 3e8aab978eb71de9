// hx_rr_arbiter_fv: proof harness of the round-robin arbiter (yosys -formal only; docs/formal.md).
// Two arbiters with free requests, at the sizes the router uses (5 inputs: one lane; 8: four
// lanes); their own assertions (hx_rr_arbiter.sv) are the properties, plus fairness here: a
// requester that keeps asking while every grant is used waits at most N - 1 grants.
`include "hx_assert.svh"
module hx_rr_arbiter_fv (
  input logic       clk_i,
  input logic       rst_ni,
  input logic [4:0] req5_i,
  input logic       adv5_i,
  input logic [7:0] req8_i,
  input logic       adv8_i,
  input logic [2:0] watch_i   // the requester of the 8-input arbiter whose wait is counted
);
  logic       v5, v8;
  logic [2:0] i5, i8;
  hx_rr_arbiter #(.N (5)) u_arb5 (.clk_i, .rst_ni, .req_i (req5_i), .advance_i (adv5_i),
                                  .valid_o (v5), .idx_o (i5));
  hx_rr_arbiter #(.N (8)) u_arb8 (.clk_i, .rst_ni, .req_i (req8_i), .advance_i (adv8_i),
                                  .valid_o (v8), .idx_o (i8));

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (!rst_ni);

  // Fairness of the 8-input arbiter when every grant is used: the watched requester, while it
  // keeps requesting, sees at most 7 grants go to others.
  logic [2:0] watch_q;
  logic [3:0] waited_q;
  always_ff @(posedge clk_i) if (!started_q) watch_q <= watch_i;
  always_comb if (started_q) assume (adv8_i);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) waited_q <= '0;
    else if (!req8_i[watch_q] || (v8 && i8 == watch_q)) waited_q <= '0;
    else if (v8) waited_q <= waited_q + 1'b1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      `HX_ASSERT(ArbFairWithin8, waited_q < 4'd8)
    end
  end
endmodule
