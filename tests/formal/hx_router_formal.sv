// hx_router_formal: bounded-proof harness around one hx_router (scripts/formal.sh, docs/formal.md).
//
// Read with `read_verilog -formal -sv`. Every router input is free ($anyseq each cycle, $anyconst
// for the straps) and only the assumptions below restrict it; the assertions must then hold in
// every cycle up to the proof depth. Immediate assume/assert/cover in always blocks only: the
// project avoids `assert property`.
//
// Environment (assume):
//   reset     rst_ni is low in cycle 0 and high afterwards; nothing arrives during reset.
//   straps    constant: node_x <= last_x, node_y <= last_y, route_mode in 0..2, vc_policy any,
//             board coordinates any.
//   upstream  per input port and VC a credit counter starting at BufDepth, decremented on each
//             flit sent, incremented on each in_credit_o for that VC; a flit is sent only while
//             the counter is non-zero. Flits carry a VC < NumVcs.
//             Per input VC the flit types form packets: head (body)* tail, or single; a packet
//             is contiguous on its VC (no second head before the tail).
//   downstream per output port and VC a count of flits received and not yet credited back; a
//             credit comes back only for such a flit (count > 0) and names a VC < NumVcs.
//   marker    a symbolic payload value ($anyconst); at most one injected flit carries it.
//
// Properties (assert), checked in every cycle:
//   P1 credit bound, output: a flit leaves on an output VC only while fewer than BufDepth of its
//      flits are outstanding downstream.
//   P2 credit bound, input: the router returns a credit on an input VC only for a flit it has
//      received and not yet credited; the credit names a VC < NumVcs.
//   P3 no overflow: error_o[0] (flit into a full buffer) and error_o[1] (credit into a full
//      counter) stay 0; also error_o[3] (body/tail without a head) stays 0, since the input is
//      well formed.
//   P4 no duplication: the marker payload leaves the router at most once, and never unless it
//      was injected.
//   P5 conservation: cumulative flits out <= cumulative flits in, every cycle.
//   P6 framing at the outputs: per output VC the flits leaving form packets (head ... tail, or
//      single), i.e. wormhole packets are never interleaved on an output VC.
//
// Non-vacuity: the cover statements (C1..C4) are reached with `yosys-smtbmc -c`, and each
// HX_FORMAL_BREAK_* define removes one assumption so that a property must fail (scripts/formal.sh
// runs both and expects exactly that).
module hx_router_formal #(
  parameter int unsigned NumVcs          = 2,
  parameter int unsigned BufDepth        = 2,
  parameter int unsigned PayloadWidth    = 32,
  parameter int unsigned BoardCoordWidth = 2,
  parameter int unsigned NodeCoordWidth  = 2
) (
  input logic clk_i
);
  localparam int unsigned NumPorts  = hx_pkg::NumPorts;
  localparam int unsigned VcWidth   = hx_pkg::VcWidth;
  localparam int unsigned FlitWidth = PayloadWidth + VcWidth + hx_pkg::TypeWidth;
  localparam int unsigned TypeLsb   = PayloadWidth + VcWidth;
  localparam int unsigned NumCh     = NumPorts * NumVcs;           // (port, VC) pairs
  localparam int unsigned CntW      = $clog2(BufDepth + 1) + 1;    // one spare bit: no wrap
  localparam int unsigned TotW      = 12;                          // cumulative flit counts
  localparam int unsigned BW        = BoardCoordWidth;
  localparam int unsigned NW        = NodeCoordWidth;

  // The routing header (4*(BW+NW)+15 bits) must fit in the payload; scripts/formal.sh checks it.

  // ---------------------------------------------------------------------------------------------
  // Free inputs
  // ---------------------------------------------------------------------------------------------
  // Straps and the marker: free but constant over the whole trace.
  logic [NW-1:0]           node_x, node_y, last_x, last_y;
  logic [BW-1:0]           board_x, board_y;
  logic [1:0]              route_mode;
  logic                    vc_policy;
  logic [PayloadWidth-1:0] marker;
  assign node_x     = $anyconst;
  assign node_y     = $anyconst;
  assign last_x     = $anyconst;
  assign last_y     = $anyconst;
  assign board_x    = $anyconst;
  assign board_y    = $anyconst;
  assign route_mode = $anyconst;
  assign vc_policy  = $anyconst;
  assign marker     = $anyconst;

  // Flits from upstream and credits from downstream: free in every cycle.
  logic [NumPorts-1:0]           in_valid;
  logic [NumPorts*FlitWidth-1:0] in_flit;
  logic [NumPorts-1:0]           out_credit;
  logic [NumPorts*VcWidth-1:0]   out_credit_vc;
  assign in_valid      = $anyseq;
  assign in_flit       = $anyseq;
  assign out_credit    = $anyseq;
  assign out_credit_vc = $anyseq;

  // Reset in cycle 0 only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_n;
  assign rst_n = !init_q;

  // ---------------------------------------------------------------------------------------------
  // The router
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts-1:0]           in_credit, out_valid;
  logic [NumPorts*VcWidth-1:0]   in_credit_vc;
  logic [NumPorts*FlitWidth-1:0] out_flit;
  logic [3:0]                    error;

  hx_router #(
    .NumVcs          (NumVcs),
    .BufDepth        (BufDepth),
    .PayloadWidth    (PayloadWidth),
    .BoardCoordWidth (BW),
    .NodeCoordWidth  (NW)
  ) dut (
    .clk_i           (clk_i),
    .rst_ni          (rst_n),
    .node_x_i        (node_x),
    .node_y_i        (node_y),
    .last_x_i        (last_x),
    .last_y_i        (last_y),
    .board_x_i       (board_x),
    .board_y_i       (board_y),
    .route_mode_i    (route_mode),
    .vc_policy_i     (vc_policy),
    .in_valid_i      (in_valid),
    .in_flit_i       (in_flit),
    .in_credit_o     (in_credit),
    .in_credit_vc_o  (in_credit_vc),
    .out_valid_o     (out_valid),
    .out_flit_o      (out_flit),
    .out_credit_i    (out_credit),
    .out_credit_vc_i (out_credit_vc),
    .error_o         (error)
  );

  // ---------------------------------------------------------------------------------------------
  // Straps
  // ---------------------------------------------------------------------------------------------
  always @* begin
    assume (node_x <= last_x);
    assume (node_y <= last_y);
    assume (route_mode <= 2'd2);
  end

  // ---------------------------------------------------------------------------------------------
  // Per (port, VC) bookkeeping: upstream credits, flits held by the router, downstream
  // outstanding flits, packet framing at inputs and outputs.
  // ---------------------------------------------------------------------------------------------
  logic [NumCh-1:0] in_send;     // a flit enters on input (port, VC) this cycle
  logic [NumCh-1:0] in_ret;      // the router returns a credit for input (port, VC)
  logic [NumCh-1:0] out_send;    // a flit leaves on output (port, VC)
  logic [NumCh-1:0] out_ret;     // the downstream returns a credit for output (port, VC)

  logic [NumCh*CntW-1:0] up_cred_q = '0;   // upstream's credits; set to BufDepth in cycle 0
  logic [NumCh*CntW-1:0] held_q    = '0;   // flits received by the router and not yet credited
  logic [NumCh*CntW-1:0] outst_q   = '0;   // flits sent downstream and not yet credited back
  logic [NumCh-1:0]      in_open_q  = '0;  // a packet is open (head seen, tail not yet) on input
  logic [NumCh-1:0]      out_open_q = '0;  // ... on output

  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic [FlitWidth-1:0] fin, fout;
    assign fin  = in_flit[p*FlitWidth +: FlitWidth];
    assign fout = out_flit[p*FlitWidth +: FlitWidth];

    // Flits name a VC the router has; nothing arrives during reset.
    always @* begin
      if (in_valid[p]) assume (32'(fin[PayloadWidth +: VcWidth]) < NumVcs);
      if (out_credit[p]) assume (32'(out_credit_vc[p*VcWidth +: VcWidth]) < NumVcs);
      if (init_q) begin
        assume (!in_valid[p]);
        assume (!out_credit[p]);
      end
    end

    for (genvar v = 0; v < NumVcs; v++) begin : g_vc
      localparam int unsigned C = p * NumVcs + v;
      logic [CntW-1:0] up_cred, held, outst;
      assign up_cred = up_cred_q[C*CntW +: CntW];
      assign held    = held_q[C*CntW +: CntW];
      assign outst   = outst_q[C*CntW +: CntW];

      assign in_send[C]  = in_valid[p] && (fin[PayloadWidth +: VcWidth] == VcWidth'(v));
      assign in_ret[C]   = in_credit[p] && (in_credit_vc[p*VcWidth +: VcWidth] == VcWidth'(v));
      assign out_send[C] = out_valid[p] && (fout[PayloadWidth +: VcWidth] == VcWidth'(v));
      assign out_ret[C]  = out_credit[p] && (out_credit_vc[p*VcWidth +: VcWidth] == VcWidth'(v));

      logic in_head, in_tail, out_head, out_tail;
      assign in_head  = fin[TypeLsb + 1];
      assign in_tail  = fin[TypeLsb];
      assign out_head = fout[TypeLsb + 1];
      assign out_tail = fout[TypeLsb];

      always @* begin
        if (!init_q) begin
          // Upstream respects the router's credits.
`ifndef HX_FORMAL_BREAK_UPSTREAM_CREDITS
          if (in_send[C]) assume (up_cred != '0);
`endif
          // Well-formed packets per input VC.
`ifndef HX_FORMAL_BREAK_FRAMING
          if (in_send[C]) assume (in_head == !in_open_q[C]);
`endif
          // Downstream returns a credit only for a flit it holds.
`ifndef HX_FORMAL_BREAK_DOWNSTREAM_CREDITS
          if (out_ret[C]) assume (outst != '0);
`endif

          // P1: never send on an output VC whose downstream buffer is full.
          if (out_send[C]) assert (32'(outst) < BufDepth);
          // P2: a returned credit matches a received flit.
          if (in_ret[C]) assert (held != '0);
          // P6: packets are framed per output VC.
          if (out_send[C]) assert (out_head == !out_open_q[C]);
        end
      end

      always_ff @(posedge clk_i) begin
        if (init_q) begin
          up_cred_q[C*CntW +: CntW] <= CntW'(BufDepth);
          held_q[C*CntW +: CntW]    <= '0;
          outst_q[C*CntW +: CntW]   <= '0;
          in_open_q[C]              <= 1'b0;
          out_open_q[C]             <= 1'b0;
        end else begin
          up_cred_q[C*CntW +: CntW] <= up_cred - CntW'(in_send[C]) + CntW'(in_ret[C]);
          held_q[C*CntW +: CntW]    <= held + CntW'(in_send[C]) - CntW'(in_ret[C]);
          outst_q[C*CntW +: CntW]   <= outst + CntW'(out_send[C]) - CntW'(out_ret[C]);
          if (in_send[C])  in_open_q[C]  <= !in_tail;
          if (out_send[C]) out_open_q[C] <= !out_tail;
        end
      end
    end

    // P2: the credit's VC exists.
    always @* begin
      if (!init_q && in_credit[p]) assert (32'(in_credit_vc[p*VcWidth +: VcWidth]) < NumVcs);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Marker (P4) and conservation (P5)
  // ---------------------------------------------------------------------------------------------
  logic [2:0] mark_in, mark_out;     // flits carrying the marker this cycle
  logic [2:0] n_in, n_out;           // flits this cycle
  always @* begin
    mark_in  = '0;
    mark_out = '0;
    n_in     = '0;
    n_out    = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (in_valid[p]) begin
        n_in = n_in + 3'd1;
        if (in_flit[p*FlitWidth +: PayloadWidth] == marker) mark_in = mark_in + 3'd1;
      end
      if (out_valid[p]) begin
        n_out = n_out + 3'd1;
        if (out_flit[p*FlitWidth +: PayloadWidth] == marker) mark_out = mark_out + 3'd1;
      end
    end
  end

  logic [1:0]      mark_in_q  = '0;   // marker flits injected so far (saturating at 2)
  logic [1:0]      mark_out_q = '0;   // marker flits seen at the outputs so far
  logic [TotW-1:0] tot_in_q   = '0;
  logic [TotW-1:0] tot_out_q  = '0;
  logic [TotW-1:0] tot_in, tot_out;
  logic [3:0]      mark_in_all, mark_out_all;
  assign tot_in       = tot_in_q + TotW'(n_in);
  assign tot_out      = tot_out_q + TotW'(n_out);
  assign mark_in_all  = 4'(mark_in_q) + 4'(mark_in);
  assign mark_out_all = 4'(mark_out_q) + 4'(mark_out);

  always_ff @(posedge clk_i) begin
    tot_in_q   <= tot_in;
    tot_out_q  <= tot_out;
    mark_in_q  <= (mark_in_all > 4'd2) ? 2'd2 : 2'(mark_in_all);
    mark_out_q <= (mark_out_all > 4'd2) ? 2'd2 : 2'(mark_out_all);
  end

  always @* begin
`ifndef HX_FORMAL_BREAK_MARKER
    assume (mark_in_all <= 4'd1);                 // at most one injected flit carries the marker
`endif
    if (!init_q) begin
      assert (mark_out_all <= 4'd1);              // P4: delivered at most once ...
      assert (mark_out_all <= mark_in_all);       // ... and only if injected
      assert (tot_out <= tot_in);                 // P5
      assert (!error[0]);                         // P3
      assert (!error[1]);
      assert (!error[3]);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Cover points (non-vacuity), reached by `yosys-smtbmc -c`
  // ---------------------------------------------------------------------------------------------
  logic [NumCh-1:0] busy_in;
  logic             n_head, n_tail;   // type bits of the flit on output N
  assign n_head = out_flit[TypeLsb + 1];
  assign n_tail = out_flit[TypeLsb];
  for (genvar c = 0; c < NumCh; c++) begin : g_cov
    assign busy_in[c] = (held_q[c*CntW +: CntW] == CntW'(BufDepth));
  end
  always @* begin
    if (!init_q) begin
      cover (mark_out_all == 4'd1);                        // C1: the marker crosses the router
      cover (&out_valid);                                  // C2: all five outputs busy at once
      cover (|busy_in);                                    // C3: an input buffer is full
      cover (out_valid[0] && n_head && !n_tail);           // C4: a multi-flit packet leaves N
    end
  end

endmodule
