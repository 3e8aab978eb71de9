// hx_router: the per-plane accelerator router of a HammingMesh board.
//
// Five ports: N, E, S, W (the plane's network links) and L (the accelerator's inject/eject
// port), numbered as in hx_pkg. Packets never change plane: a router only ever sees one plane.
//
// Microarchitecture
//   * Input-buffered virtual channels: one hx_vc_fifo of BufDepth flits per input port and VC.
//   * Credit-based flow control per VC. An output keeps one credit counter per downstream VC,
//     starting at BufDepth (every downstream buffer, router or endpoint, has BufDepth slots).
//     A flit is sent only on a VC with a credit; the downstream returns the credit when the flit
//     leaves its buffer. Each input returns at most one credit per cycle (one flit leaves it).
//   * Wormhole switching. A head takes an output VC that is free (no packet holds it) and has a
//     credit; the packet then holds that VC until its tail leaves. Buffers are not required to
//     hold a whole packet, so packets may span several routers.
//   * Routing (hx_route) and output selection: among the allowed outputs the head takes the one
//     whose allowed output VC has the most free credits downstream; it re-decides every cycle
//     until it wins the switch, so it reacts to the load it sees.
//   * VC and switch allocation in one cycle, separable and input-first: a round-robin arbiter at
//     each input picks one of its requesting VCs, then a round-robin arbiter at each output picks
//     one of the inputs that want it. A head that wins the output wins the output VC with it, so
//     an output VC is never allocated to a packet that cannot move (at most one flit, hence at
//     most one new packet, per output and cycle).
//   * A crossbar into registered outputs.
//
// Per-hop latency: 2 cycles. A flit on a router's input wires in cycle t is written into its VC
// buffer at the end of t, is allocated and crosses the crossbar in t+1, and is on the output
// wires (the next router's input) in t+2. Credits take 1 cycle back (registered at the input).
//
// Virtual channels: with vc_policy_i = VcKeep a packet keeps its VC on the board and takes VC+1
// when it leaves through a board-edge port, so the increment happens at the egress of the board
// (in this router's VC allocation), before the fat tree; the tree and the next board carry it
// on the new VC. Three VCs suffice for the at-most-two trees a packet crosses (sec. IV-C3). With
// VcAny a head may take any free VC (plain mesh, for validation).
//
// Straps are static; they are registered (hold reset for at least one clock edge so that the
// registers hold them when traffic starts). Behind flops the routing logic does not depend on the
// model's inputs, which keeps it out of the part of a Verilated model that runs on every input
// change.
//
// error_o is sticky and reports broken contracts; it never rises in a correct system:
//   [0] a flit arrived that no input buffer can take: its buffer was full (upstream ignored
//       credits) or its VC is one the router does not have
//   [1] a credit arrived for an output VC whose counter was already full
//   [2] a head needs VC+1 at a board edge and there is none (more board crossings than VCs)
//   [3] a body or tail flit reached the front of an input VC that no head had allocated
module hx_router #(
  parameter int unsigned NumVcs          = 3,    // 1..4
  parameter int unsigned BufDepth        = 8,    // flits per input VC
  parameter int unsigned PayloadWidth    = 128,  // bits of payload per flit
  parameter int unsigned BoardCoordWidth = 8,
  parameter int unsigned NodeCoordWidth  = 4,
  localparam int unsigned NumPorts  = hx_pkg::NumPorts,
  localparam int unsigned VcWidth   = hx_pkg::VcWidth,
  localparam int unsigned FlitWidth = PayloadWidth + VcWidth + hx_pkg::TypeWidth
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // straps: the router's place on its board, the board's place, board size, policies
  input  logic [NodeCoordWidth-1:0]     node_x_i,
  input  logic [NodeCoordWidth-1:0]     node_y_i,
  input  logic [NodeCoordWidth-1:0]     last_x_i,      // board width a minus one
  input  logic [NodeCoordWidth-1:0]     last_y_i,      // board height b minus one
  input  logic [BoardCoordWidth-1:0]    board_x_i,
  input  logic [BoardCoordWidth-1:0]    board_y_i,
  input  hx_pkg::route_mode_e           route_mode_i,
  input  hx_pkg::vc_policy_e            vc_policy_i,
  // input side of each port: flits in, credits back upstream
  input  logic [NumPorts-1:0]           in_valid_i,
  input  logic [NumPorts*FlitWidth-1:0] in_flit_i,
  output logic [NumPorts-1:0]           in_credit_o,
  output logic [NumPorts*VcWidth-1:0]   in_credit_vc_o,
  // output side of each port: flits out, credits from downstream
  output logic [NumPorts-1:0]           out_valid_o,
  output logic [NumPorts*FlitWidth-1:0] out_flit_o,
  input  logic [NumPorts-1:0]           out_credit_i,
  input  logic [NumPorts*VcWidth-1:0]   out_credit_vc_i,
  output logic [3:0]                    error_o
);
  // One C++ class for all routers of a board plane instead of one inlined copy per position:
  // the generated model is several times smaller and compiles and runs faster.
  /* verilator no_inline_module */

  localparam int unsigned NumIvcs   = NumPorts * NumVcs;  // input VC iv = port * NumVcs + vc
  localparam int unsigned NumOvcs   = NumPorts * NumVcs;  // output VC ov = port * NumVcs + vc
  localparam int unsigned PortWidth = 3;
  localparam int unsigned CredWidth = $clog2(BufDepth + 1);
  localparam int unsigned VcIdxW    = (NumVcs > 1) ? $clog2(NumVcs) : 1;  // arbiter index width
  localparam int unsigned TypeLsb   = PayloadWidth + VcWidth;
  localparam int unsigned BW        = BoardCoordWidth;
  localparam int unsigned NW        = NodeCoordWidth;

  // ---------------------------------------------------------------------------------------------
  // Straps, registered
  // ---------------------------------------------------------------------------------------------
  logic [NW-1:0]       node_x_q, node_y_q, last_x_q, last_y_q;
  logic [BW-1:0]       board_x_q, board_y_q;
  hx_pkg::route_mode_e route_mode_q;
  hx_pkg::vc_policy_e  vc_policy_q;

  always_ff @(posedge clk_i) begin
    node_x_q     <= node_x_i;
    node_y_q     <= node_y_i;
    last_x_q     <= last_x_i;
    last_y_q     <= last_y_i;
    board_x_q    <= board_x_i;
    board_y_q    <= board_y_i;
    route_mode_q <= route_mode_i;
    vc_policy_q  <= vc_policy_i;
  end

  // Output ports that leave the board (a router on the boundary, facing outwards).
  logic [NumPorts-1:0] edge_port;
  always_comb begin
    edge_port                = '0;
    edge_port[hx_pkg::PortN] = (node_y_q == last_y_q);
    edge_port[hx_pkg::PortE] = (node_x_q == last_x_q);
    edge_port[hx_pkg::PortS] = (node_y_q == '0);
    edge_port[hx_pkg::PortW] = (node_x_q == '0);
  end

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic [NumOvcs*CredWidth-1:0]  cred_q;        // free downstream slots per output VC
  logic [NumOvcs-1:0]            busy_q;        // output VC held by a packet
  logic [NumIvcs-1:0]            alloc_q;       // input VC holds an output VC ...
  logic [NumIvcs*PortWidth-1:0]  alloc_port_q;  // ... on this port
  logic [NumIvcs*VcWidth-1:0]    alloc_vc_q;    // ... and this VC
  logic [NumPorts-1:0]           out_valid_q;
  logic [FlitWidth-1:0]          out_flit_q [NumPorts];
  logic [NumPorts-1:0]           in_credit_q;
  logic [NumPorts*VcWidth-1:0]   in_credit_vc_q;
  logic [3:0]                    error_q;

  assign error_o = error_q;

  // Per-port views of the output side, named for waveforms (g_out[p].out_*; the input side is
  // g_in[p].in_*): the GTKWave save file of a traced run shows one router grouped by port.
  logic [NumOvcs-1:0] ov_credit;  // a credit came back for output VC ov
  for (genvar op = 0; op < NumPorts; op++) begin : g_out
    logic                 out_valid;
    logic [FlitWidth-1:0] out_flit;
    logic                 out_credit;
    logic [VcWidth-1:0]   out_credit_vc;
    assign out_valid     = out_valid_q[op];
    assign out_flit      = out_flit_q[op];
    assign out_credit    = out_credit_i[op];
    assign out_credit_vc = out_credit_vc_i[op*VcWidth +: VcWidth];
    assign out_valid_o[op]                       = out_valid;
    assign out_flit_o[op*FlitWidth +: FlitWidth] = out_flit;
    for (genvar w = 0; w < NumVcs; w++) begin : g_vc
      assign ov_credit[op*NumVcs + w] = out_credit && (out_credit_vc == VcWidth'(w));
    end
  end

  logic [NumOvcs-1:0] cred_nz;  // output VC has at least one credit
  for (genvar ov = 0; ov < NumOvcs; ov++) begin : g_cred_nz
    assign cred_nz[ov] = (cred_q[ov*CredWidth +: CredWidth] != '0);
  end

  // ---------------------------------------------------------------------------------------------
  // Input VCs: buffer, routing, output selection, request
  // ---------------------------------------------------------------------------------------------
  // Flits inside the router travel in unpacked arrays, one word-aligned element per VC or port:
  // a Verilated model copies those whole instead of shifting slices out of a long vector.
  logic [FlitWidth-1:0]         head_flit [NumIvcs];   // flit at the front of each input VC
  logic [NumIvcs-1:0]           ivc_empty;
  logic [NumIvcs-1:0]           ivc_pop;
  logic [NumIvcs-1:0]           ivc_overflow;
  logic [NumIvcs-1:0]           ivc_exhausted;
  logic [NumIvcs-1:0]           ivc_orphan;
  logic [NumIvcs-1:0]           req_valid;   // wants the switch this cycle
  logic [NumIvcs*PortWidth-1:0] req_port;    // output port it wants
  logic [NumIvcs*VcWidth-1:0]   req_vc;      // output VC it will use

  for (genvar ip = 0; ip < NumPorts; ip++) begin : g_in
    // The input side of port ip, named for waveforms (see g_out).
    logic                 in_valid;
    logic [FlitWidth-1:0] in_flit;
    logic                 in_credit;
    logic [VcWidth-1:0]   in_credit_vc;
    assign in_valid     = in_valid_i[ip];
    assign in_flit      = in_flit_i[ip*FlitWidth +: FlitWidth];
    assign in_credit    = in_credit_q[ip];
    assign in_credit_vc = in_credit_vc_q[ip*VcWidth +: VcWidth];
    assign in_credit_o[ip]                      = in_credit;
    assign in_credit_vc_o[ip*VcWidth +: VcWidth] = in_credit_vc;

    for (genvar v = 0; v < NumVcs; v++) begin : g_vc
      localparam int unsigned Iv = ip * NumVcs + v;

      logic [FlitWidth-1:0] flit;
      logic                 is_head;
      logic                 waiting;    // a head at the front that holds no output VC yet
      logic [NumPorts-1:0]  ports;
      logic                 sel_valid;
      logic [PortWidth-1:0] sel_port;
      logic [VcWidth-1:0]   sel_vc;
      logic [CredWidth-1:0] sel_cred;
      logic [NumVcs-1:0]    allowed;
      logic                 exhausted;

      hx_vc_fifo #(
        .Width (FlitWidth),
        .Depth (BufDepth)
      ) u_fifo (
        .clk_i,
        .rst_ni,
        .push_i     (in_valid && (in_flit[PayloadWidth +: VcWidth] == VcWidth'(v))),
        .data_i     (in_flit),
        .pop_i      (ivc_pop[Iv]),
        .head_o     (flit),
        .empty_o    (ivc_empty[Iv]),
        .overflow_o (ivc_overflow[Iv])
      );
      assign head_flit[Iv] = flit;
      assign is_head = flit[TypeLsb + 1];
      assign waiting = !ivc_empty[Iv] && !alloc_q[Iv] && is_head;

      hx_route #(
        .InPort          (ip),
        .BoardCoordWidth (BW),
        .NodeCoordWidth  (NW)
      ) u_route (
        .valid_i       (waiting),
        .node_x_i      (node_x_q),
        .node_y_i      (node_y_q),
        .last_x_i      (last_x_q),
        .last_y_i      (last_y_q),
        .board_x_i     (board_x_q),
        .board_y_i     (board_y_q),
        .route_mode_i  (route_mode_q),
        .edge_port_i   (edge_port),
        .dst_board_x_i (flit[hx_pkg::HdrDstBoardXLsb +: BW]),
        .dst_board_y_i (flit[hx_pkg::hdr_dst_board_y_lsb(BW) +: BW]),
        .dst_node_x_i  (flit[hx_pkg::hdr_dst_node_x_lsb(BW) +: NW]),
        .dst_node_y_i  (flit[hx_pkg::hdr_dst_node_y_lsb(BW, NW) +: NW]),
        .ports_o       (ports)
      );

      // Among the allowed (port, VC) pairs that are free and have a credit, take the one with
      // the most credits; ties go to the lower port, then the lower VC. Evaluated only for a
      // waiting head.
      always_comb begin
        sel_valid = 1'b0;
        sel_port  = '0;
        sel_vc    = '0;
        sel_cred  = '0;
        allowed   = '0;
        exhausted = 1'b0;
        if (waiting) begin
          for (int unsigned p = 0; p < NumPorts; p++) begin
            if (vc_policy_q == hx_pkg::VcAny) begin
              allowed = '1;
            end else if (edge_port[p]) begin
              allowed = (v + 1 < NumVcs) ? NumVcs'(1) << (v + 1) : '0;
            end else begin
              allowed = NumVcs'(1) << v;
            end
            if (ports[p] && allowed == '0) exhausted = 1'b1;
            for (int unsigned w = 0; w < NumVcs; w++) begin
              if (ports[p] && allowed[w] && !busy_q[p*NumVcs + w] && cred_nz[p*NumVcs + w]
                  && (!sel_valid || cred_q[(p*NumVcs + w)*CredWidth +: CredWidth] > sel_cred))
              begin
                sel_valid = 1'b1;
                sel_port  = PortWidth'(p);
                sel_vc    = VcWidth'(w);
                sel_cred  = cred_q[(p*NumVcs + w)*CredWidth +: CredWidth];
              end
            end
          end
        end
      end

      logic [PortWidth-1:0] held_port;
      logic [VcWidth-1:0]   held_vc;
      assign held_port = alloc_port_q[Iv*PortWidth +: PortWidth];
      assign held_vc   = alloc_vc_q[Iv*VcWidth +: VcWidth];

      // A packet that holds an output VC keeps it; a waiting head asks for its current choice.
      assign req_valid[Iv] = alloc_q[Iv] ? !ivc_empty[Iv]
                                           && cred_nz[32'(held_port)*NumVcs + 32'(held_vc)]
                                         : sel_valid;
      assign req_port[Iv*PortWidth +: PortWidth] = alloc_q[Iv] ? held_port : sel_port;
      assign req_vc[Iv*VcWidth +: VcWidth]       = alloc_q[Iv] ? held_vc : sel_vc;
      assign ivc_exhausted[Iv] = exhausted;
      assign ivc_orphan[Iv]    = !ivc_empty[Iv] && !alloc_q[Iv] && !is_head;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Switch allocation (input stage, then output stage) and crossbar
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts-1:0]           in_win_valid;   // input stage picked a VC
  logic [NumPorts*VcIdxW-1:0]    in_win_vc;
  logic [NumPorts*PortWidth-1:0] in_win_port;    // the output it requests
  logic [FlitWidth-1:0]          in_win_flit [NumPorts];  // relabelled with its output VC
  logic [NumPorts-1:0]           in_granted;     // its request won the output stage

  for (genvar ip = 0; ip < NumPorts; ip++) begin : g_sa_in
    logic [VcIdxW-1:0] win;
    hx_rr_arbiter #(
      .N (NumVcs)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i     (req_valid[ip*NumVcs +: NumVcs]),
      .advance_i (in_granted[ip]),
      .valid_o   (in_win_valid[ip]),
      .idx_o     (win)
    );
    // The winning VC's request and flit, the flit relabelled with the VC it will hold
    // downstream. Written as a mux over the VCs rather than a variable part-select, which
    // synthesis would build as a shifter across all of the port's buffers.
    always_comb begin
      in_win_port[ip*PortWidth +: PortWidth] = '0;
      in_win_flit[ip]                        = '0;
      for (int unsigned v = 0; v < NumVcs; v++) begin
        if (in_win_valid[ip] && win == VcIdxW'(v)) begin
          in_win_port[ip*PortWidth +: PortWidth] = req_port[(ip*NumVcs + v)*PortWidth +: PortWidth];
          in_win_flit[ip]                        = head_flit[ip*NumVcs + v];
          in_win_flit[ip][PayloadWidth +: VcWidth] = req_vc[(ip*NumVcs + v)*VcWidth +: VcWidth];
        end
      end
    end
    assign in_win_vc[ip*VcIdxW +: VcIdxW] = win;
    for (genvar v = 0; v < NumVcs; v++) begin : g_pop
      assign ivc_pop[ip*NumVcs + v] = in_granted[ip] && (win == VcIdxW'(v));
    end
  end

  logic [NumPorts-1:0]           out_gnt_valid;
  logic [NumPorts*PortWidth-1:0] out_gnt_in;      // winning input port per output
  logic [FlitWidth-1:0]          out_flit_d [NumPorts];

  for (genvar op = 0; op < NumPorts; op++) begin : g_sa_out
    logic [NumPorts-1:0]  wants;
    logic [PortWidth-1:0] win;
    for (genvar ip = 0; ip < NumPorts; ip++) begin : g_req
      assign wants[ip] = in_win_valid[ip]
                         && (in_win_port[ip*PortWidth +: PortWidth] == PortWidth'(op));
    end
    hx_rr_arbiter #(
      .N (NumPorts)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i     (wants),
      .advance_i (1'b1),
      .valid_o   (out_gnt_valid[op]),
      .idx_o     (win)
    );
    assign out_gnt_in[op*PortWidth +: PortWidth] = win;

    // Crossbar.
    always_comb begin
      out_flit_d[op] = '0;
      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        if (out_gnt_valid[op] && win == PortWidth'(ip)) out_flit_d[op] = in_win_flit[ip];
      end
    end
  end

  always_comb begin
    in_granted = '0;
    for (int unsigned op = 0; op < NumPorts; op++) begin
      if (out_gnt_valid[op]) in_granted[out_gnt_in[op*PortWidth +: PortWidth]] = 1'b1;
    end
  end

  // Per output VC: a flit leaves on it this cycle, and whether it is a head or a tail.
  logic [NumOvcs-1:0] ov_sent, ov_sent_head, ov_sent_tail;
  for (genvar op = 0; op < NumPorts; op++) begin : g_ov
    for (genvar w = 0; w < NumVcs; w++) begin : g_vc
      assign ov_sent[op*NumVcs + w] =
          out_gnt_valid[op] && (out_flit_d[op][PayloadWidth +: VcWidth] == VcWidth'(w));
      assign ov_sent_head[op*NumVcs + w] = out_flit_d[op][TypeLsb + 1];
      assign ov_sent_tail[op*NumVcs + w] = out_flit_d[op][TypeLsb];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // State update. Credits coming back are counted here, in the clocked process, so that no
  // combinational logic depends on the credit inputs.
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned ov = 0; ov < NumOvcs; ov++) begin
        cred_q[ov*CredWidth +: CredWidth] <= CredWidth'(BufDepth);
      end
      busy_q         <= '0;
      alloc_q        <= '0;
      alloc_port_q   <= '0;
      alloc_vc_q     <= '0;
      out_valid_q    <= '0;
      for (int unsigned op = 0; op < NumPorts; op++) out_flit_q[op] <= '0;
      in_credit_q    <= '0;
      in_credit_vc_q <= '0;
      error_q        <= '0;
    end else begin
      for (int unsigned op = 0; op < NumPorts; op++) begin
        for (int unsigned w = 0; w < NumVcs; w++) begin
          if (ov_credit[op*NumVcs + w]) begin
            if (!ov_sent[op*NumVcs + w]) begin
              if (cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] == CredWidth'(BufDepth)) begin
                error_q[1] <= 1'b1;  // keep the counter in [0, BufDepth] and report
              end else begin
                cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] <=
                    cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] + 1'b1;
              end
            end
          end else if (ov_sent[op*NumVcs + w]) begin
            cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] <=
                cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] - 1'b1;
          end
        end
      end

      for (int unsigned ov = 0; ov < NumOvcs; ov++) begin
        if (ov_sent[ov] && ov_sent_tail[ov])      busy_q[ov] <= 1'b0;
        else if (ov_sent[ov] && ov_sent_head[ov]) busy_q[ov] <= 1'b1;
      end

      for (int unsigned iv = 0; iv < NumIvcs; iv++) begin
        if (ivc_pop[iv]) begin
          if (head_flit[iv][TypeLsb]) begin               // tail: release
            alloc_q[iv] <= 1'b0;
          end else if (head_flit[iv][TypeLsb + 1]) begin  // head of a longer packet
            alloc_q[iv] <= 1'b1;
            alloc_port_q[iv*PortWidth +: PortWidth] <= req_port[iv*PortWidth +: PortWidth];
            alloc_vc_q[iv*VcWidth +: VcWidth]       <= req_vc[iv*VcWidth +: VcWidth];
          end
        end
      end

      out_valid_q <= out_gnt_valid;
      for (int unsigned op = 0; op < NumPorts; op++) begin
        if (out_gnt_valid[op]) out_flit_q[op] <= out_flit_d[op];
      end
      in_credit_q <= in_granted;
      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        in_credit_vc_q[ip*VcWidth +: VcWidth] <= VcWidth'(in_win_vc[ip*VcIdxW +: VcIdxW]);
      end

      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        // a flit on a VC this router does not have would match no buffer and vanish
        if (in_valid_i[ip] && 32'(in_flit_i[ip*FlitWidth + PayloadWidth +: VcWidth]) >= NumVcs) begin
          error_q[0] <= 1'b1;
        end
      end
      if (|ivc_overflow)  error_q[0] <= 1'b1;
      if (|ivc_exhausted) error_q[2] <= 1'b1;
      if (|ivc_orphan)    error_q[3] <= 1'b1;
    end
  end

endmodule
