// hx_in_buffer_fv: proof harness of the input buffer (read by yosys -formal only; docs/formal.md).
//
// The environment pushes and pops freely within the buffer's contract (its HX_ASSUMEs). One
// pushed flit, chosen by the solver (pick_i), is tracked: the harness notes its data and how many
// flits are ahead of it in its VC, counts that down on every pop of the VC, and checks that the
// pop that reaches it returns exactly that data. Since the solver may pick any flit, no flit is
// lost, duplicated, reordered or changed (a duplicate or a lost flit shifts every later one).
`include "hx_assert.svh"
module hx_in_buffer_fv #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned Depth  = 2,
  parameter int unsigned Width  = 4
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic                       push_i,
  input logic [$clog2(NumVcs)-1:0]  push_vc_i,
  input logic [Width-1:0]           data_i,
  input logic [$clog2(NumVcs)-1:0]  rd_vc_i,
  input logic                       pop_i,
  input logic                       pick_i
);
  localparam int unsigned VcIdxW = $clog2(NumVcs);
  localparam int unsigned PosW   = $clog2(Depth + 1);

  logic [NumVcs-1:0] empty, full, front_head;
  logic [NumVcs*2-1:0] front_hdr;
  logic [Width-1:0] rd_data;

  hx_in_buffer #(
    .NumVcs (NumVcs), .Depth (Depth), .Width (Width), .HeadBit (Width - 1), .HdrWidth (2)
  ) dut (
    .clk_i, .rst_ni, .push_i, .push_vc_i, .data_i,
    .empty_o (empty), .full_o (full), .front_head_o (front_head), .front_hdr_o (front_hdr),
    .rd_vc_i, .rd_data_o (rd_data), .pop_i
  );

  // Reset in the first cycle (formal.py starts every register at zero), free afterwards.
  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (!rst_ni);

  // Per-VC occupancy as the environment sees it (pushes minus pops).
  logic [PosW-1:0] occ_q [NumVcs];
  // The tracked flit: picked once, at a push.
  logic               picked_q, inside_q;
  logic [VcIdxW-1:0]  t_vc_q;
  logic [Width-1:0]   t_data_q;
  logic [PosW-1:0]    t_ahead_q;  // flits of its VC that leave before it

  wire pick = push_i && pick_i && !picked_q;
  wire t_pop = inside_q && pop_i && rd_vc_i == t_vc_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int v = 0; v < NumVcs; v++) occ_q[v] <= '0;
      picked_q  <= 1'b0;
      inside_q  <= 1'b0;
      t_vc_q    <= '0;
      t_data_q  <= '0;
      t_ahead_q <= '0;
    end else begin
      for (int v = 0; v < NumVcs; v++) begin
        occ_q[v] <= occ_q[v] + PosW'(push_i && push_vc_i == VcIdxW'(v))
                             - PosW'(pop_i && rd_vc_i == VcIdxW'(v));
      end
      if (pick) begin
        picked_q  <= 1'b1;
        inside_q  <= 1'b1;
        t_vc_q    <= push_vc_i;
        t_data_q  <= data_i;
        // those in the buffer, less the one leaving in this same cycle
        t_ahead_q <= occ_q[push_vc_i] - PosW'(pop_i && rd_vc_i == push_vc_i);
      end
      if (t_pop) begin
        if (t_ahead_q == '0) inside_q <= 1'b0;
        else t_ahead_q <= t_ahead_q - 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // the tracked flit comes out of the read port unchanged when its turn comes
      `HX_ASSERT(TrackedFlitIntact, !(t_pop && t_ahead_q == '0) || rd_data == t_data_q)
      `HX_ASSERT(TrackedFlitCounted, !inside_q || t_ahead_q < occ_q[t_vc_q])
    end
  end
  // the buffer agrees with the environment about how many flits each VC holds
  for (genvar v = 0; v < NumVcs; v++) begin : g_chk
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        `HX_ASSERT(OccupancyAgrees, empty[v] == (occ_q[v] == '0) && full[v] == (32'(occ_q[v]) == Depth))
      end
    end
  end
endmodule
