// hx_rr_arbiter: round-robin arbiter over N requesters.
//
// The requester after the last one granted has the highest priority. The priority pointer moves
// only when the caller says the grant was used (advance_i), so a grant that a later allocation
// stage throws away does not cost the requester its turn. With all N requesting persistently and
// every grant used, each gets exactly one grant in every N cycles: this is what makes the
// router's switch allocation fair.
//
// Assertions (hx_assert.svh): a grant goes to a requester, there is one whenever someone asks,
// and the priority pointer stays in range.
`include "hx_assert.svh"
module hx_rr_arbiter #(
  parameter int unsigned N = 4,
  localparam int unsigned IdxWidth = (N > 1) ? $clog2(N) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [N-1:0]        req_i,
  input  logic                advance_i,  // the current grant was used: rotate priority past it
  output logic                valid_o,    // some request is granted
  output logic [IdxWidth-1:0] idx_o       // index of the granted requester (0 when none)
);

  logic [IdxWidth-1:0] prio_q;

  // First requester at or after prio_q, circularly. The wrap is a compare and subtract, not a
  // modulo, so that synthesis builds no divider when N is not a power of two. The search runs
  // only when some request is present (in a simulator, most arbiters are idle most cycles).
  logic [IdxWidth:0] cand;
  always_comb begin
    valid_o = 1'b0;
    idx_o   = '0;
    cand    = '0;
    if (req_i != '0) begin
      for (int unsigned k = 0; k < N; k++) begin
        cand = {1'b0, prio_q} + (IdxWidth+1)'(k);
        if (cand >= (IdxWidth+1)'(N)) cand = cand - (IdxWidth+1)'(N);
        if (!valid_o && req_i[cand[IdxWidth-1:0]]) begin
          valid_o = 1'b1;
          idx_o   = cand[IdxWidth-1:0];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q <= '0;
    end else if (valid_o && advance_i) begin
      prio_q <= (32'(idx_o) == N - 1) ? '0 : idx_o + 1'b1;
    end
  end

`ifdef HX_ASSERTS_ON
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      `HX_ASSERT(ArbGrantsRequester, !valid_o || req_i[idx_o])
      `HX_ASSERT(ArbGrantsWhenAsked, valid_o == (req_i != '0))
      `HX_ASSERT(ArbPrioInRange, 32'(prio_q) < N)
    end
  end
`endif

endmodule
