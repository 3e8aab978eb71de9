// hx_router_fv: proof harness of the router (read by yosys -formal only; docs/formal.md).
//
// A closed loop around one router: every input port has an upstream that sends only with a
// credit, only on the router's VCs and in well-framed packets (a head opens a packet on its VC, a
// tail closes it); every output port has a downstream buffer of BufDepth flits per VC that frees
// slots whenever the solver likes and returns a credit for each. The straps are any constant
// (any position on any board, any routing mode, tree span and VC policy). Everything else is
// free.
//
// Properties at the ports (the router's own are in hx_router.sv, hx_in_buffer.sv, ...):
//   FlitTrackedIntact  one flit, picked by the solver, leaves exactly when the router returns its
//                      credit (the pop), on exactly one output, with payload and type unchanged;
//                      at any other time no output carries it. So no flit is lost (popped but
//                      not sent), duplicated (sent twice or by two outputs) or changed.
//   DownstreamNoOverflow  the router sends on an output VC only while its downstream has room:
//                      credits never exceed what the buffer holds.
//   OutputVcFramed     on every output VC the flits form whole packets, one at a time: a head
//                      only when no packet is open on that VC, a body or tail only inside one
//                      (a VC is never granted to two packets at once).
//   OutputVcExists     every output flit is on an existing VC.
//
// Invariants: the properties above and the router's own are true in every reachable state, but
// most are not inductive alone: a solver that starts from an arbitrary state finds states where,
// say, a credit counter and the downstream buffer disagree, which no run reaches. These state
// what a run keeps, in terms of the router's registers (its FORMAL-only fv_* ports) and the
// harness's model of its neighbours; scripts/formal.py proves them first and then uses them as
// lemmas for the rest (docs/formal.md):
//   CreditConservation       per output VC: credits + the flit on the output wires + the flits
//                            in the downstream buffer = BufDepth.
//   InputCreditConservation  per input VC: the upstream's credits + the flits in the buffer + a
//                            credit on its way back = BufDepth.
//   OutputVcOpenAgrees       an output VC is busy exactly when the packet stream downstream is
//                            open once the flit on the output wires has arrived.
//   InputVcFramed            per input VC, the flits in the buffer continue the packet its
//                            allocation says is open (a head only when none is), and the last
//                            leaves open what the upstream has open.
//   TrackedFlitInBuffer      until it leaves, the tracked flit sits unchanged in its input VC,
//                            behind exactly the flits whose credits it waits for; no other
//                            buffered flit carries the mark.
// The payload's top bit marks the tracked flit; the header (dst board x/y, node x/y) is below.
`include "hx_assert.svh"
module hx_router_fv #(
  parameter int unsigned NumVcs       = 2,
  parameter int unsigned BufDepth     = 2,
  parameter int unsigned BW           = 1,  // board coordinate bits
  parameter int unsigned NW           = 1,  // node coordinate bits
  localparam int unsigned PayloadWidth = 2 * BW + 2 * NW + 1,
  localparam int unsigned NumPorts     = hx_pkg::num_ports(1),
  localparam int unsigned FlitWidth    = PayloadWidth + 4,
  localparam int unsigned PortW        = $clog2(NumPorts)
) (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic [NW-1:0]                 node_x_i, node_y_i, last_x_i, last_y_i,
  input logic [BW-1:0]                 board_x_i, board_y_i,
  input logic [1:0]                    route_mode_i,
  input logic                          span_board_i,
  input logic                          vc_policy_i,
  input logic [NumPorts-1:0]           in_valid_i,
  input logic [NumPorts*FlitWidth-1:0] in_flit_i,
  input logic [NumPorts-1:0]           out_credit_i,
  input logic [NumPorts*2-1:0]         out_credit_vc_i,
  input logic                          pick_i,       // track the flit entering on pick_port_i
  input logic [PortW-1:0]              pick_port_i
);
  localparam int unsigned CntW = $clog2(BufDepth + 1);
  localparam int unsigned Mark = PayloadWidth - 1;  // payload bit that marks the tracked flit

  logic [NumPorts-1:0]           in_credit, out_valid;
  logic [NumPorts*2-1:0]         in_credit_vc;
  logic [NumPorts*FlitWidth-1:0] out_flit;
  logic [3:0]                    error;
  // The router's state, through its FORMAL-only ports, for the invariants below.
  localparam int unsigned PtrW = (BufDepth > 1) ? $clog2(BufDepth) : 1;
  logic [NumPorts*NumVcs*CntW-1:0]               fv_cred, fv_in_count;
  logic [NumPorts*NumVcs-1:0]                    fv_busy, fv_alloc;
  logic [NumPorts*NumVcs*BufDepth*FlitWidth-1:0] fv_in_mem;
  logic [NumPorts*NumVcs*PtrW-1:0]               fv_in_rd;

  // Straps: sampled in the first (reset) cycle, constant afterwards.
  logic          started_q = 1'b0;
  logic [NW-1:0] node_x_q, node_y_q, last_x_q, last_y_q;
  logic [BW-1:0] board_x_q, board_y_q;
  logic [1:0]    route_mode_q;
  logic          span_board_q;
  logic          vc_policy_q;
  always_ff @(posedge clk_i) begin
    started_q <= 1'b1;
    if (!started_q) begin
      {node_x_q, node_y_q, last_x_q, last_y_q} <= {node_x_i, node_y_i, last_x_i, last_y_i};
      {board_x_q, board_y_q, route_mode_q, span_board_q, vc_policy_q} <=
          {board_x_i, board_y_i, route_mode_i, span_board_i, vc_policy_i};
    end
  end
  logic [NW-1:0] node_x, node_y, last_x, last_y;
  logic [BW-1:0] board_x, board_y;
  logic [1:0]    route_mode;
  logic          span_board;
  logic          vc_policy;
  assign {node_x, node_y, last_x, last_y} = started_q ? {node_x_q, node_y_q, last_x_q, last_y_q}
                                                      : {node_x_i, node_y_i, last_x_i, last_y_i};
  assign {board_x, board_y, route_mode, span_board, vc_policy} =
      started_q ? {board_x_q, board_y_q, route_mode_q, span_board_q, vc_policy_q}
                : {board_x_i, board_y_i, route_mode_i, span_board_i, vc_policy_i};

  hx_router #(
    .NumVcs (NumVcs), .BufDepth (BufDepth), .PayloadWidth (PayloadWidth),
    .BoardCoordWidth (BW), .NodeCoordWidth (NW), .LocalPorts (1)
  ) dut (
    .clk_i, .rst_ni,
    .node_x_i (node_x), .node_y_i (node_y), .last_x_i (last_x), .last_y_i (last_y),
    .board_x_i (board_x), .board_y_i (board_y),
    .route_mode_i (route_mode), .span_board_i (span_board), .vc_policy_i (vc_policy),
    .in_valid_i, .in_flit_i, .in_credit_o (in_credit), .in_credit_vc_o (in_credit_vc),
    .out_valid_o (out_valid), .out_flit_o (out_flit),
    .out_credit_i, .out_credit_vc_i, .error_o (error),
    .fv_cred_o (fv_cred), .fv_busy_o (fv_busy), .fv_alloc_o (fv_alloc), .fv_in_mem_o (fv_in_mem),
    .fv_in_rd_o (fv_in_rd), .fv_in_count_o (fv_in_count)
  );

  // The router is in reset in the first cycle (formal.py starts every register at zero).
  always_comb begin
    if (!started_q) assume (!rst_ni);
    // the router lies on its board
    assume (node_x <= last_x && node_y <= last_y);
  end

  // ---- upstream of each input port: credits and packet framing per VC ----
  logic [CntW-1:0]   up_cred_q [NumPorts*NumVcs];  // free slots of the router's buffer
  logic [NumVcs-1:0] up_open_q [NumPorts];         // a packet is open on the VC
  // ---- downstream of each output port: its buffer's occupancy, and open packets per VC ----
  logic [CntW-1:0]   dn_occ_q [NumPorts*NumVcs];
  logic [NumVcs-1:0] dn_open_q [NumPorts];

  function automatic logic [1:0] vc_of(logic [FlitWidth-1:0] f);
    vc_of = f[PayloadWidth +: 2];
  endfunction
  function automatic logic is_head(logic [FlitWidth-1:0] f);
    is_head = f[PayloadWidth + 3];
  endfunction
  function automatic logic is_tail(logic [FlitWidth-1:0] f);
    is_tail = f[PayloadWidth + 2];
  endfunction

  // ---- the tracked flit ----
  logic                    pick;       // it enters in this cycle
  logic                    picked_q;   // it has entered
  logic                    inside_q;   // ... and its credit has not come back yet
  logic [PortW-1:0]        t_port_q;
  logic [1:0]              t_vc_q;
  logic [FlitWidth-1:0]    t_flit_q;
  logic [CntW-1:0]         t_ahead_q;  // credits of its input VC that come back before its own
  logic                    t_credit;   // a credit of its input VC comes back in this cycle
  logic                    t_leaves;   // ... and it is its own: the flit is on an output now
  logic [FlitWidth-1:0]    pick_flit;
  logic [1:0]              pick_vc;

  always_comb begin
    pick_flit = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (pick_port_i == PortW'(p)) pick_flit = in_flit_i[p*FlitWidth +: FlitWidth];
    end
  end
  assign pick_vc  = vc_of(pick_flit);
  assign pick     = started_q && rst_ni && pick_i && !picked_q && 32'(pick_port_i) < NumPorts
                    && in_valid_i[pick_port_i];
  assign t_credit = inside_q && in_credit[t_port_q] && in_credit_vc[t_port_q*2 +: 2] == t_vc_q;
  assign t_leaves = t_credit && t_ahead_q == '0;

  // Environment constraints on every input port.
  for (genvar p = 0; p < NumPorts; p++) begin : g_up
    logic [FlitWidth-1:0] f;
    assign f = in_flit_i[p*FlitWidth +: FlitWidth];
    always_comb begin
      if (in_valid_i[p]) begin
        assume (32'(vc_of(f)) < NumVcs);
        assume (up_cred_q[p*NumVcs + 32'(vc_of(f))] != '0);  // (vc < NumVcs, above)
        assume (is_head(f) ? !up_open_q[p][vc_of(f)] : up_open_q[p][vc_of(f)]);
        // only the picked flit carries the mark
        assume (f[Mark] == (pick && pick_port_i == PortW'(p)));
      end
    end
  end
  // Downstream: a credit only for a flit it holds, on an existing VC.
  for (genvar p = 0; p < NumPorts; p++) begin : g_dn
    always_comb begin
      if (out_credit_i[p]) begin
        assume (32'(out_credit_vc_i[p*2 +: 2]) < NumVcs);
        assume (dn_occ_q[p*NumVcs + 32'(out_credit_vc_i[p*2 +: 2])] != '0);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < NumPorts * NumVcs; i++) begin
        up_cred_q[i] <= CntW'(BufDepth);
        dn_occ_q[i]  <= '0;
      end
      for (int unsigned p = 0; p < NumPorts; p++) begin
        up_open_q[p] <= '0;
        dn_open_q[p] <= '0;
      end
      picked_q  <= 1'b0;
      inside_q  <= 1'b0;
      t_port_q  <= '0;
      t_vc_q    <= '0;
      t_flit_q  <= '0;
      t_ahead_q <= '0;
    end else begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        for (int unsigned v = 0; v < NumVcs; v++) begin
          up_cred_q[p*NumVcs + v] <= up_cred_q[p*NumVcs + v]
              - CntW'(in_valid_i[p] && vc_of(in_flit_i[p*FlitWidth +: FlitWidth]) == 2'(v))
              + CntW'(in_credit[p] && in_credit_vc[p*2 +: 2] == 2'(v));
          dn_occ_q[p*NumVcs + v] <= dn_occ_q[p*NumVcs + v]
              + CntW'(out_valid[p] && vc_of(out_flit[p*FlitWidth +: FlitWidth]) == 2'(v))
              - CntW'(out_credit_i[p] && out_credit_vc_i[p*2 +: 2] == 2'(v));
        end
        if (in_valid_i[p]) begin
          up_open_q[p][vc_of(in_flit_i[p*FlitWidth +: FlitWidth])] <=
              !is_tail(in_flit_i[p*FlitWidth +: FlitWidth]);
        end
        if (out_valid[p] && 32'(vc_of(out_flit[p*FlitWidth +: FlitWidth])) < NumVcs) begin
          dn_open_q[p][vc_of(out_flit[p*FlitWidth +: FlitWidth])] <=
              !is_tail(out_flit[p*FlitWidth +: FlitWidth]);
        end
      end
      if (pick) begin
        picked_q <= 1'b1;
        inside_q <= 1'b1;
        t_port_q <= pick_port_i;
        t_vc_q   <= pick_vc;
        t_flit_q <= pick_flit;
        // flits of its input VC sent earlier whose credits have not come back (less one that
        // comes back in this very cycle)
        t_ahead_q <= CntW'(BufDepth) - up_cred_q[32'(pick_port_i) * NumVcs + 32'(pick_vc)]
                     - CntW'(in_credit[pick_port_i] && in_credit_vc[pick_port_i*2 +: 2] == pick_vc);
      end
      if (t_credit) begin
        if (t_ahead_q == '0) inside_q <= 1'b0;
        else t_ahead_q <= t_ahead_q - 1'b1;
      end
    end
  end

  // ---- properties at the ports ----
  logic [NumPorts-1:0] marked_out, match_out;
  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      marked_out[p] = out_valid[p] && out_flit[p*FlitWidth + Mark];
      // the same flit: type and payload unchanged (the VC field is the router's to change)
      match_out[p]  = marked_out[p]
                      && out_flit[p*FlitWidth + PayloadWidth + 2 +: 2] == t_flit_q[PayloadWidth + 2 +: 2]
                      && out_flit[p*FlitWidth +: PayloadWidth] == t_flit_q[PayloadWidth-1:0];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      `HX_ASSERT(FlitTrackedIntact, t_leaves ? ($countones(marked_out) == 1 && match_out != '0)
                                             : marked_out == '0)
    end
  end
  for (genvar p = 0; p < NumPorts; p++) begin : g_chk_out
    logic [FlitWidth-1:0] f;
    logic [1:0]           vc;
    assign f  = out_flit[p*FlitWidth +: FlitWidth];
    assign vc = vc_of(f);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        `HX_ASSERT(OutputVcExists, !out_valid[p] || 32'(vc) < NumVcs)
        `HX_ASSERT(DownstreamNoOverflow,
                   !out_valid[p] || 32'(vc) >= NumVcs || 32'(dn_occ_q[p*NumVcs + 32'(vc)]) < BufDepth)
        `HX_ASSERT(OutputVcFramed,
                   !out_valid[p] || (is_head(f) ? !dn_open_q[p][vc] : dn_open_q[p][vc]))
      end
    end
  end

  // ---- invariants (see the header) ----
  // Flit i (0 = the front) of input VC iv, and whether the VC holds it.
  function automatic logic [FlitWidth-1:0] slot(int unsigned iv, int unsigned i);
    int unsigned rd, pos;
    rd  = 32'(fv_in_rd[iv*PtrW +: PtrW]);
    pos = (rd + i >= BufDepth) ? rd + i - BufDepth : rd + i;
    slot = fv_in_mem[(iv*BufDepth + pos)*FlitWidth +: FlitWidth];
  endfunction
  function automatic int unsigned count_of(int unsigned iv);
    count_of = 32'(fv_in_count[iv*CntW +: CntW]);
  endfunction
  // The tracked flit has left its buffer and is on an output now (t_leaves), or else it is at
  // position t_pos of its input VC: the credits it waits for, less one already on its way back
  // (t_credit).
  int unsigned t_pos;
  assign t_pos = 32'(t_ahead_q) - 32'(t_credit);

  for (genvar p = 0; p < NumPorts; p++) begin : g_inv_port
    for (genvar v = 0; v < NumVcs; v++) begin : g_inv_vc
      localparam int unsigned Iv = p * NumVcs + v;
      logic cw;             // a credit of this input VC is on its way back upstream
      logic framed, open;   // the buffered flits continue the open packet; open after the last
      logic marks_ok;       // the mark is on the tracked flit only, which is intact
      logic t_here;         // the tracked flit is in this VC's buffer
      logic [FlitWidth-1:0] f;
      assign cw     = in_credit[p] && in_credit_vc[p*2 +: 2] == 2'(v);
      assign t_here = inside_q && !t_leaves && 32'(t_port_q) == p && 32'(t_vc_q) == v;
      always_comb begin
        f        = '0;
        framed   = 1'b1;
        open     = fv_alloc[Iv];
        marks_ok = (!inside_q || picked_q) && (!t_here || t_pos < count_of(Iv));
        for (int unsigned i = 0; i < BufDepth; i++) begin
          f = slot(Iv, i);
          if (i < count_of(Iv)) begin
            if (is_head(f) == open) framed = 1'b0;
            open = !is_tail(f);
            if (f[Mark] != (t_here && i == t_pos)) marks_ok = 1'b0;
            if (t_here && i == t_pos && f != t_flit_q) marks_ok = 1'b0;
          end
        end
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (rst_ni) begin
          `HX_ASSERT(InputCreditConservation,
                     32'(up_cred_q[Iv]) + count_of(Iv) + 32'(cw) == BufDepth)
          `HX_ASSERT(InputVcFramed, framed && open == up_open_q[p][v])
          `HX_ASSERT(TrackedFlitInBuffer, marks_ok)
        end
      end
    end
  end
  for (genvar p = 0; p < NumPorts; p++) begin : g_inv_out
    logic [FlitWidth-1:0] f;
    assign f = out_flit[p*FlitWidth +: FlitWidth];
    for (genvar w = 0; w < NumVcs; w++) begin : g_vc
      localparam int unsigned Ov = p * NumVcs + w;
      logic on_wire;  // the flit on the output wires is on this VC
      assign on_wire = out_valid[p] && vc_of(f) == 2'(w);
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (rst_ni) begin
          `HX_ASSERT(CreditConservation, 32'(fv_cred[Ov*CntW +: CntW]) + 32'(dn_occ_q[Ov])
                                         + 32'(on_wire) == BufDepth)
          `HX_ASSERT(OutputVcOpenAgrees, fv_busy[Ov] == (on_wire ? !is_tail(f) : dn_open_q[p][w]))
        end
      end
    end
  end
endmodule
