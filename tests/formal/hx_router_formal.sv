// hx_router_formal: bounded-proof harness around one hx_router (scripts/formal.sh, docs/formal.md).
//
// Read with `read_verilog -formal -sv`. Every router input is free ($anyseq each cycle, $anyconst
// for the straps) and only the assumptions below restrict it; the assertions must then hold in
// every cycle up to the proof depth. Immediate assume/assert/cover in always blocks only: the
// project avoids `assert property`.
//
// Environment (assume):
//   reset      rst_ni is low in cycle 0 and high afterwards; nothing arrives during reset.
//   straps     constant ($anyconst): node_x <= last_x, node_y <= last_y, route_mode in 0..2,
//              vc_policy 0..1, board coordinates any.
//   upstream   per input port and VC a credit counter starting at BufDepth, decremented on each
//              flit sent, incremented on each in_credit_o for that VC; a flit is sent only while
//              the counter is non-zero. A flit names a VC < NumVcs.
//              Per input VC the flit types form packets: head (body)* tail, or single; a packet
//              is contiguous on its VC (no second head before the tail). Payloads are free.
//   downstream per output port and VC a count of flits received and not yet credited back; a
//              credit comes back only for such a flit (count > 0) and names a VC < NumVcs.
//   marker     a symbolic payload value ($anyconst); at most one injected flit carries it.
//
// Properties (assert), checked in every cycle after reset:
//   P1 output credits: a flit leaves on an output VC only while fewer than BufDepth of its flits
//      are outstanding downstream.
//   P2 input credits: the router returns a credit on an input VC only for a flit it received
//      and has not yet credited.
//   P3 no overflow: error_o[0] (flit into a full buffer) and error_o[1] (credit into a full
//      counter) stay 0. Also error_o[3] (body/tail flit with no head) stays 0: the input is well
//      formed.
//   P4 no duplication: the marker payload leaves the router at most once, and only if injected.
//   P5 conservation: cumulative flits out <= cumulative flits in, every cycle.
//   P6 framing at the outputs: per output VC the flits leaving form packets (head ... tail, or
//      single): wormhole packets never interleave on an output VC.
//
// Auxiliary invariants (L1..L9, also asserted, hence also proved): exact relations between the
// harness's counters and the router's state, e.g. "flits held by the router on an input VC =
// its buffer occupancy + the credit on its way back". yosys-smtbmc adds every assertion proved in
// a step as a fact for the later steps, so with these each step is checked from the previous
// one instead of by re-deriving the whole history; without them z3 needs minutes for step 8.
// They read router internals through the spy_* wires, which this file leaves undriven and
// scripts/formal.sh connects to the flattened router (yosys `connect`) by hierarchical name.
//
// Non-vacuity: the cover statements C1..C4 must be reached (`yosys-smtbmc -c`), and each
// HX_FORMAL_BREAK_* define removes one assumption so that a property must fail; scripts/formal.sh
// runs both and expects exactly that.
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
  localparam int unsigned NumCh     = NumPorts * NumVcs;         // (port, VC) pairs
  localparam int unsigned CntW      = 8;                         // harness counters
  localparam int unsigned TotW      = 12;                        // cumulative flit counts
  localparam int unsigned BW        = BoardCoordWidth;
  localparam int unsigned NW        = NodeCoordWidth;
  // Widths of the router's own registers (as in hx_router / hx_vc_fifo).
  localparam int unsigned FifoCntW  = $clog2(BufDepth + 1);
  localparam int unsigned FifoPtrW  = (BufDepth > 1) ? $clog2(BufDepth) : 1;
  localparam int unsigned CredW     = $clog2(BufDepth + 1);
  localparam int unsigned PortW     = 3;

  // ---------------------------------------------------------------------------------------------
  // Free inputs
  // ---------------------------------------------------------------------------------------------
  // Straps and the marker: free, constant over the whole trace.
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

  // Router internals for the auxiliary invariants; connected by scripts/formal.sh.
  // Per input VC C = port * NumVcs + vc: hx_vc_fifo's count_q, rd_q, wr_q and mem_q[0..BufDepth-1].
  // Per output VC: cred_q, busy_q. Per input VC: alloc_q, alloc_port_q, alloc_vc_q.
  (* keep *) logic [NumCh*FifoCntW-1:0]           spy_count;
  (* keep *) logic [NumCh*FifoPtrW-1:0]           spy_rd, spy_wr;
  (* keep *) logic [NumCh*BufDepth*FlitWidth-1:0] spy_mem;
  (* keep *) logic [NumCh*CredW-1:0]              spy_cred;
  (* keep *) logic [NumCh-1:0]                    spy_busy, spy_alloc;
  (* keep *) logic [NumCh*PortW-1:0]              spy_alloc_port;
  (* keep *) logic [NumCh*VcWidth-1:0]            spy_alloc_vc;

  // ---------------------------------------------------------------------------------------------
  // Straps
  // ---------------------------------------------------------------------------------------------
  always @* begin
    assume (node_x <= last_x);
    assume (node_y <= last_y);
    assume (route_mode <= 2'd2);
  end

  // ---------------------------------------------------------------------------------------------
  // Per (port, VC) bookkeeping
  // ---------------------------------------------------------------------------------------------
  logic [NumCh-1:0] in_send;     // a flit enters on input (port, VC) this cycle
  logic [NumCh-1:0] in_ret;      // the router returns a credit for input (port, VC)
  logic [NumCh-1:0] out_send;    // a flit leaves on output (port, VC)
  logic [NumCh-1:0] out_ret;     // the downstream returns a credit for output (port, VC)
  logic [NumCh-1:0] out_tail;    // ... and that flit is a tail

  logic [NumCh*CntW-1:0] up_cred_q  = '0;  // upstream's credits; BufDepth after reset
  logic [NumCh*CntW-1:0] held_q     = '0;  // flits received by the router, not yet credited
  logic [NumCh*CntW-1:0] outst_q    = '0;  // flits sent downstream, not yet credited back
  logic [NumCh-1:0]      in_open_q  = '0;  // a packet is open (head seen, tail not) on input
  logic [NumCh-1:0]      out_open_q = '0;  // ... on output

  // Places the marker can be: each buffer slot, each output this cycle, delivered before.
  localparam int unsigned NumPlaces = NumCh * BufDepth + NumPorts + 1;
  logic [NumPlaces-1:0] mark_places;
  logic                 mark_amo;          // at most one place holds the marker
  logic [CntW-1:0]      mark_in_q  = '0; // marker flits injected before this cycle
  logic [CntW-1:0]      mark_out_q = '0; // marker flits delivered before this cycle

  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic [FlitWidth-1:0] fin, fout;
    assign fin  = in_flit[p*FlitWidth +: FlitWidth];
    assign fout = out_flit[p*FlitWidth +: FlitWidth];

    // Flits and credits name a VC that exists; nothing arrives during reset.
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
      assign out_tail[C] = fout[TypeLsb];

      logic in_head, in_tail, out_head;
      assign in_head  = fin[TypeLsb + 1];
      assign in_tail  = fin[TypeLsb];
      assign out_head = fout[TypeLsb + 1];

      // The router's state for this input VC (as input C) and this output VC (as output C).
      logic [FifoCntW-1:0] count;
      logic [FifoPtrW-1:0] rd, wr;
      logic [CredW-1:0]    cred;
      logic [PortW-1:0]    aport;
      logic [VcWidth-1:0]  avc;
      assign count = spy_count[C*FifoCntW +: FifoCntW];
      assign rd    = spy_rd[C*FifoPtrW +: FifoPtrW];
      assign wr    = spy_wr[C*FifoPtrW +: FifoPtrW];
      assign cred  = spy_cred[C*CredW +: CredW];
      assign aport = spy_alloc_port[C*PortW +: PortW];
      assign avc   = spy_alloc_vc[C*VcWidth +: VcWidth];

      // Buffer slots in queue order: slot k of the queue is mem_q[(rd + k) mod BufDepth].
      logic [FlitWidth-1:0] qflit [BufDepth];
      logic [BufDepth-1:0]  qvalid;
      // (Wrap-arounds are written as compare-and-subtract: a modulo would put dividers into the
      // proof.)
      always @* begin
        for (int unsigned k = 0; k < BufDepth; k++) begin
          qflit[k] = '0;
          for (int unsigned s = 0; s < BufDepth; s++) begin
            if (32'(rd) + k == s || 32'(rd) + k == s + BufDepth) begin
              qflit[k] = spy_mem[(C*BufDepth + s)*FlitWidth +: FlitWidth];
            end
          end
          qvalid[k] = k < 32'(count);
          mark_places[C*BufDepth + k] = qvalid[k] && qflit[k][PayloadWidth-1:0] == marker;
        end
      end

      // How many input VCs hold this output VC (port p, VC v).
      logic [CntW-1:0] holders;
      always @* begin
        holders = '0;
        for (int unsigned c = 0; c < NumCh; c++) begin
          if (spy_alloc[c] && spy_alloc_port[c*PortW +: PortW] == PortW'(p)
              && spy_alloc_vc[c*VcWidth +: VcWidth] == VcWidth'(v)) holders = holders + 1'b1;
        end
      end

      always @* begin
        if (!init_q) begin
          // Environment.
`ifndef HX_FORMAL_BREAK_UPSTREAM_CREDITS
          if (in_send[C]) assume (up_cred != '0);
`endif
`ifndef HX_FORMAL_BREAK_FRAMING
          if (in_send[C]) assume (in_head == !in_open_q[C]);
`endif
`ifndef HX_FORMAL_BREAK_DOWNSTREAM_CREDITS
          if (out_ret[C]) assume (outst != '0);
`endif

          // P1, P2, P6.
          if (out_send[C]) assert (32'(outst) < BufDepth);
          if (in_ret[C])   assert (held != '0);
          if (out_send[C]) assert (out_head == !out_open_q[C]);

          // L1: upstream credits + flits the router holds = BufDepth.
          assert (32'(up_cred) + 32'(held) == BufDepth);
          // L2: flits held = buffer occupancy + the credit being returned this cycle.
          assert (32'(held) == 32'(count) + 32'(in_ret[C]));
          // L3: buffer pointers agree with the occupancy.
          assert (32'(count) <= BufDepth);
          assert (32'(wr) == 32'(rd) + 32'(count) || 32'(wr) + BufDepth == 32'(rd) + 32'(count));
          // L4: output credits + flits outstanding downstream + the flit on the wires = BufDepth.
          assert (32'(cred) + 32'(outst) + 32'(out_send[C]) == BufDepth);
          // L5: framing inside the buffer. The front flit is a head iff the input VC holds no
          // output VC; each buffered flit is a head iff the one before it is a tail; the last
          // one is a tail iff no packet is open on the input. An empty buffer holds an output
          // VC iff a packet is open on the input.
          if (count == '0) begin
            assert (spy_alloc[C] == in_open_q[C]);
          end else begin
            assert (qflit[0][TypeLsb + 1] == !spy_alloc[C]);
            for (int unsigned k = 0; k < BufDepth; k++) begin
              if (k + 1 == 32'(count)) assert (qflit[k][TypeLsb] == !in_open_q[C]);
            end
          end
          for (int unsigned k = 1; k < BufDepth; k++) begin
            if (qvalid[k]) assert (qflit[k][TypeLsb + 1] == qflit[k-1][TypeLsb]);
          end
          // L6: an output VC is busy iff exactly one input VC holds it, and it is busy iff a
          // packet on it is open once the flit on the wires is counted.
          assert (holders <= 1);
          assert (spy_busy[C] == (holders == 1));
          assert (spy_busy[C] == (out_send[C] ? !out_tail[C] : out_open_q[C]));
          // L7: an input VC that holds an output VC names an existing one.
          if (spy_alloc[C]) assert (32'(aport) < NumPorts && 32'(avc) < NumVcs);
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
          if (out_send[C]) out_open_q[C] <= !out_tail[C];
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
  logic [CntW-1:0] mark_in, mark_out;             // marker flits this cycle
  logic [CntW-1:0] n_in, n_out, n_ret, n_held;    // flits this cycle / held by the router
  always @* begin
    mark_in   = '0;
    mark_out  = '0;
    n_in      = '0;
    n_out     = '0;
    n_ret     = '0;
    n_held    = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (in_valid[p]) begin
        n_in = n_in + 1'b1;
        if (in_flit[p*FlitWidth +: PayloadWidth] == marker) mark_in = mark_in + 1'b1;
      end
      if (out_valid[p]) begin
        n_out = n_out + 1'b1;
        if (out_flit[p*FlitWidth +: PayloadWidth] == marker) mark_out = mark_out + 1'b1;
      end
      mark_places[NumCh*BufDepth + p] = out_valid[p] && out_flit[p*FlitWidth +: PayloadWidth] == marker;
      if (in_credit[p]) n_ret = n_ret + 1'b1;
    end
    for (int unsigned c = 0; c < NumCh; c++) n_held = n_held + held_q[c*CntW +: CntW];
  end
  assign mark_places[NumPlaces-1] = (mark_out_q != '0);
  always @* begin
    mark_amo = 1'b1;
    for (int unsigned i = 0; i < NumPlaces; i++) begin
      for (int unsigned j = i + 1; j < NumPlaces; j++) begin
        if (mark_places[i] && mark_places[j]) mark_amo = 1'b0;
      end
    end
  end

  logic [TotW-1:0] tot_in_q   = '0;   // flits in / out / credits returned before this cycle
  logic [TotW-1:0] tot_out_q  = '0;
  logic [TotW-1:0] tot_ret_q  = '0;
  logic [TotW-1:0] tot_in, tot_out;
  logic [CntW-1:0] mark_in_all, mark_out_all;
  assign tot_in       = tot_in_q + TotW'(n_in);
  assign tot_out      = tot_out_q + TotW'(n_out);
  assign mark_in_all  = mark_in_q + mark_in;
  assign mark_out_all = mark_out_q + mark_out;

  always_ff @(posedge clk_i) begin
    tot_in_q   <= tot_in;
    tot_out_q  <= tot_out;
    tot_ret_q  <= tot_ret_q + TotW'(n_ret);
    mark_in_q  <= mark_in_all;
    mark_out_q <= mark_out_all;
  end

  always @* begin
`ifndef HX_FORMAL_BREAK_MARKER
    assume (mark_in_all <= 1);                  // at most one injected flit carries the marker
`endif
    if (!init_q) begin
      // P3
      assert (!error[0]);
      assert (!error[1]);
      assert (!error[3]);
      // P4: delivered at most once, and only if injected.
      assert (mark_out_all <= 1);
      assert (mark_out_all <= mark_in_all);
      // P5
      assert (tot_out <= tot_in);
      // L8: every flit popped leaves on an output and returns one credit, in the same cycle;
      // flits in = flits credited + flits held.
      assert (n_out == n_ret);
      assert (tot_out_q == tot_ret_q);
      assert (tot_in_q == tot_ret_q + TotW'(n_held));
      // L9: the marker is in no place before it is injected, and in exactly one place after:
      // one buffer slot, one output this cycle, or delivered before. (Written as pairwise
      // exclusion rather than as a sum of counts, which a SAT solver handles badly.)
      if (mark_in_q == '0) begin
        assert (mark_places == '0);
      end else begin
        assert (|mark_places);
        assert (mark_amo);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Cover points (non-vacuity), to be reached by `yosys-smtbmc -c`
  // ---------------------------------------------------------------------------------------------
  logic [NumCh-1:0] in_full;
  for (genvar c = 0; c < NumCh; c++) begin : g_cov
    assign in_full[c] = (held_q[c*CntW +: CntW] == CntW'(BufDepth));
  end
  always @* begin
    if (!init_q) begin
      cover (mark_out_all == 1);                              // C1: the marker crosses
      cover (&out_valid);                                     // C2: all five outputs at once
      cover (|in_full);                                       // C3: an input buffer is full
      cover (out_valid[0] && out_flit[TypeLsb + 1] && !out_flit[TypeLsb]
             && tot_out >= TotW'(3));                         // C4: a multi-flit packet leaves N
    end
  end

endmodule
