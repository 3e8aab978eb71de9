// hx_router: the per-plane accelerator router of a HammingMesh board.
//
// 4 + LocalPorts ports: N, E, S, W (the plane's network links) and LocalPorts local lanes, the
// accelerator's inject/eject ports, numbered as in hx_pkg (lane k is port PortL + k). Packets
// never change plane: a router only ever sees one plane.
//
// Local lanes: HammingMesh gives an accelerator four network interfaces per plane (sec. III), so
// it can inject into and receive from N, E, S and W at once. With one lane the accelerator is
// capped at one link's bandwidth; with four it can drive all four links. Every lane is an
// ordinary router port (own buffers, arbiters, crossbar row and column, credits); a head injected
// on any lane routes as from PortL, and a packet for this node may eject on any lane, the output
// selection below picking the one with the most credits (ties to the lower lane).
//
// Microarchitecture
//   * Input-buffered virtual channels: per input port an hx_in_buffer, BufDepth flits per VC.
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
// registers hold them when traffic starts), and so is the set of edge ports derived from them.
// Behind flops the routing logic does not depend on the model's inputs, which keeps it out of the
// part of a Verilated model that runs on every input change.
//
// Simulation speed (docs/router.md, "Simulation speed"): the RTL is written so that a Verilated
// board plane does little work per router and cycle. No combinational logic reads the input
// ports (links and credits are looked at only in clocked processes); the combinational logic
// looks at a VC only when it holds a flit and at an arbiter only when it has a request; small
// per-VC state is packed into vectors; flits are copied only when one is written or granted.
//
// error_o is sticky and reports broken contracts; it never rises in a correct system:
//   [0] a flit arrived that no input buffer can take: its buffer was full (upstream ignored
//       credits) or its VC is one the router does not have
//   [1] a credit arrived for an output VC whose counter was already full
//   [2] a head needs VC+1 at a board edge and there is none (more board crossings than VCs)
//   [3] a body or tail flit reached the front of an input VC that no head had allocated
//
// Assertions (hx_assert.svh; docs/formal.md lists them and how each is proven): the contracts of
// the two link sides (flits only on existing VCs, credits only for flits sent), credits within
// [0, BufDepth], every output VC held by at most one packet and busy exactly while held, a head
// only on a free output VC, a body only on the VC its packet holds, every granted flit popped by
// one output only, and the north-last turn rule on every head that moves. The input buffers and
// arbiters carry their own.
`include "hx_assert.svh"
module hx_router #(
  parameter int unsigned NumVcs          = 3,    // 1..4
  parameter int unsigned BufDepth        = 8,    // flits per input VC
  parameter int unsigned PayloadWidth    = 128,  // bits of payload per flit
  parameter int unsigned BoardCoordWidth = 8,
  parameter int unsigned NodeCoordWidth  = 4,
  parameter int unsigned LocalPorts      = 1,    // local lanes, 1..hx_pkg::MaxLocalPorts
  localparam int unsigned NumPorts  = hx_pkg::num_ports(LocalPorts),
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
  input  logic                          span_board_i,  // the trees deliver on the dest.'s line
  input  hx_pkg::vc_policy_e            vc_policy_i,
  // input side of each port: flits in, credits back upstream
  input  logic [NumPorts-1:0]           in_valid_i /* verilator public_flat_rd */,
  input  logic [NumPorts*FlitWidth-1:0] in_flit_i /* verilator public_flat_rd */,
  output logic [NumPorts-1:0]           in_credit_o,
  output logic [NumPorts*VcWidth-1:0]   in_credit_vc_o,
  // output side of each port: flits out, credits from downstream
  output logic [NumPorts-1:0]           out_valid_o,
  output logic [NumPorts*FlitWidth-1:0] out_flit_o,
  input  logic [NumPorts-1:0]           out_credit_i /* verilator public_flat_rd */,
  input  logic [NumPorts*VcWidth-1:0]   out_credit_vc_i /* verilator public_flat_rd */,
  output logic [3:0]                    error_o,
  output logic                          idle_o   // quiescent: see "Idle" below
`ifdef FORMAL
  // Proofs only (yosys 0.23 has no hierarchical references): the state the invariants of
  // formal/hx_router_fv.sv relate to its environment. Per input port ip, the buffer's storage,
  // read pointers and counts (hx_in_buffer's fv_* ports) at [ip * <their width> +: <width>].
  , output logic [NumPorts*NumVcs*$clog2(BufDepth + 1)-1:0] fv_cred_o
  , output logic [NumPorts*NumVcs-1:0]                      fv_busy_o
  , output logic [NumPorts*NumVcs-1:0]                      fv_alloc_o
  , output logic [NumPorts*NumVcs*BufDepth*FlitWidth-1:0]   fv_in_mem_o
  , output logic [NumPorts*NumVcs*((BufDepth > 1) ? $clog2(BufDepth) : 1)-1:0] fv_in_rd_o
  , output logic [NumPorts*NumVcs*$clog2(BufDepth + 1)-1:0] fv_in_count_o
`endif
);
  // One C++ class for all routers of a board plane instead of one inlined copy per position:
  // the generated model is several times smaller and compiles and runs faster. The input ports
  // are marked public_flat_rd for the same reason: the plane then copies each router's inputs
  // into the router's own members, and the clocked code that reads them stays one function for
  // all routers. Without it Verilator substitutes the plane's wires into that code, which then
  // exists once per router position (64 copies for 8x8, several hundred kB of machine code that
  // does not fit the instruction caches: 3x slower, measured).
  /* verilator no_inline_module */

  localparam int unsigned NumIvcs   = NumPorts * NumVcs;  // input VC iv = port * NumVcs + vc
  localparam int unsigned NumOvcs   = NumPorts * NumVcs;  // output VC ov = port * NumVcs + vc
  // Port numbers are 3 bits whatever LocalPorts is (enough for the largest router), so that the
  // one-lane router is the same circuit it was before lanes existed.
  localparam int unsigned PortWidth = $clog2(hx_pkg::num_ports(hx_pkg::MaxLocalPorts));
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
  logic                span_board_q;
  hx_pkg::vc_policy_e  vc_policy_q;
  logic [NumPorts-1:0] edge_port_q;  // output ports that leave the board (boundary, facing out)

  always_ff @(posedge clk_i) begin
    node_x_q     <= node_x_i;
    node_y_q     <= node_y_i;
    last_x_q     <= last_x_i;
    last_y_q     <= last_y_i;
    board_x_q    <= board_x_i;
    board_y_q    <= board_y_i;
    route_mode_q <= route_mode_i;
    span_board_q <= span_board_i;
    vc_policy_q  <= vc_policy_i;
    edge_port_q                <= '0;
    edge_port_q[hx_pkg::PortN] <= (node_y_i == last_y_i);
    edge_port_q[hx_pkg::PortE] <= (node_x_i == last_x_i);
    edge_port_q[hx_pkg::PortS] <= (node_y_i == '0);
    edge_port_q[hx_pkg::PortW] <= (node_x_i == '0);
  end

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  // Small per-VC state is packed into one vector per kind (index ov = port * NumVcs + vc, or iv
  // likewise): a Verilated model keeps each in one or two machine words.
  logic [NumOvcs*CredWidth-1:0]  cred_q;        // free downstream slots per output VC
  logic [NumOvcs-1:0]            busy_q;        // output VC held by a packet
  logic [NumIvcs-1:0]            alloc_q;       // input VC holds an output VC ...
  logic [NumIvcs*PortWidth-1:0]  alloc_port_q;  // ... on this port
  logic [NumIvcs*VcWidth-1:0]    alloc_vc_q;    // ... and this VC
  logic [NumPorts-1:0]           out_valid_q;
  logic [NumPorts*FlitWidth-1:0] out_flit_q;    // in the port layout of out_flit_o
  logic [NumPorts-1:0]           in_credit_q;
  logic [NumPorts*VcWidth-1:0]   in_credit_vc_q;
  logic [3:0]                    error_q;

  assign error_o = error_q;
`ifdef FORMAL
  localparam int unsigned FvPtrW = (BufDepth > 1) ? $clog2(BufDepth) : 1;
  assign fv_cred_o  = cred_q;
  assign fv_busy_o  = busy_q;
  assign fv_alloc_o = alloc_q;
`endif

  // Idle: no flit in any buffer and nothing on the registered outputs (no flit, no credit, credit
  // VC 0). Every register then keeps its value across a clock edge at which no flit and no credit
  // arrives (with the straps unchanged): buffers, pointers and credit counters move only on a
  // push, pop or credit, arbiters only on a grant, and the output registers load the zeros they
  // already hold. A simulator may therefore skip such an edge (docs/performance.md); hxsim skips
  // a whole plane when all its routers are idle and its inputs quiet.
  assign idle_o = (&in_empty) && (out_valid_q == '0) && (in_credit_q == '0) && (in_credit_vc_q == '0);

  // Per-port views of the output side, named for waveforms (g_out[p].out_*; the input side is
  // g_in[p].in_*): the GTKWave save file of a traced run shows one router grouped by port
  // (docs/waveforms.md).
  logic [NumPorts-1:0]         credit_in;     // out_credit_i and out_credit_vc_i, through the
  logic [NumPorts*VcWidth-1:0] credit_in_vc;  // views (read by the clocked process only)
  for (genvar op = 0; op < NumPorts; op++) begin : g_out
    logic                 out_valid;
    logic [FlitWidth-1:0] out_flit;
    logic                 out_credit;
    logic [VcWidth-1:0]   out_credit_vc;
    assign out_valid     = out_valid_q[op];
    assign out_flit      = out_flit_q[op*FlitWidth +: FlitWidth];
    assign out_credit    = out_credit_i[op];
    assign out_credit_vc = out_credit_vc_i[op*VcWidth +: VcWidth];
    assign out_valid_o[op]                       = out_valid;
    assign out_flit_o[op*FlitWidth +: FlitWidth] = out_flit;
    assign credit_in[op]                         = out_credit;
    assign credit_in_vc[op*VcWidth +: VcWidth]   = out_credit_vc;
  end

  // ---------------------------------------------------------------------------------------------
  // Input ports: buffers, routing, output selection, request
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned HdrWidth = 2 * BW + 2 * NW;  // the destination fields of a header

  logic [NumIvcs-1:0]            req_valid;     // wants the switch this cycle ...
  logic [NumIvcs*PortWidth-1:0]  req_port;      // ... on this output port (valid with req_valid)
  logic [NumIvcs*VcWidth-1:0]    req_vc;        // ... and this output VC
  logic [NumIvcs-1:0]            ivc_exhausted;
  logic [NumIvcs-1:0]            ivc_orphan;
  logic [NumPorts*NumVcs-1:0]    in_full;       // per input VC: its buffer is full
  logic [FlitWidth-1:0]          in_rd_flit [NumPorts];  // front flit of each input's winning VC
  logic [NumIvcs-1:0]            in_empty;      // per input VC: its buffer holds no flit

  logic [NumPorts-1:0]           in_win_valid;  // input stage picked a VC ...
  logic [NumPorts*VcIdxW-1:0]    in_win_vc;     // ... this one
  logic [NumPorts*PortWidth-1:0] in_win_port;   // the output it requests ...
  logic [NumPorts*VcWidth-1:0]   in_win_ovc;    // ... and the output VC it will use
  logic [NumPorts-1:0]           in_granted;    // its request won the output stage

  // With several local lanes, a lane carries one packet at a time: a head for this node takes a
  // lane no other packet holds (on any VC), so that packets arriving together eject on different
  // lanes at full rate instead of sharing the lane with the most credits. One lane keeps the
  // plain rule (any free VC), as a single local port always has.
  logic [NumPorts-1:0] lane_taken;
  always_comb begin
    lane_taken = '0;
    for (int unsigned p = hx_pkg::PortL; p < NumPorts; p++) begin
      lane_taken[p] = (LocalPorts > 1) && (busy_q[p*NumVcs +: NumVcs] != '0);
    end
  end

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
    assign in_credit_o[ip]                       = in_credit;
    assign in_credit_vc_o[ip*VcWidth +: VcWidth] = in_credit_vc;

    logic [VcWidth-1:0]         in_vc;
    logic [NumVcs-1:0]          empty;
    logic [NumVcs-1:0]          head;        // the front flit is a head
    logic [NumVcs-1:0]          waiting;     // ... that holds no output VC yet
    logic [NumVcs*HdrWidth-1:0] hdr;
    logic [NumVcs*NumPorts-1:0] ports;       // allowed outputs of each waiting head
    logic [NumVcs-1:0]          alloc;

    assign in_vc = in_flit[PayloadWidth +: VcWidth];
    assign alloc = alloc_q[ip*NumVcs +: NumVcs];

    hx_in_buffer #(
      .NumVcs   (NumVcs),
      .Depth    (BufDepth),
      .Width    (FlitWidth),
      .HeadBit  (TypeLsb + 1),
      .HdrWidth (HdrWidth)
    ) u_buf (
      .clk_i,
      .rst_ni,
      .push_i       (in_valid && 32'(in_vc) < NumVcs),
      .push_vc_i    (VcIdxW'(in_vc)),
      .data_i       (in_flit),
      .empty_o      (empty),
      .full_o       (in_full[ip*NumVcs +: NumVcs]),
      .front_head_o (head),
      .front_hdr_o  (hdr),
      .rd_vc_i      (in_win_vc[ip*VcIdxW +: VcIdxW]),
      .rd_data_o    (in_rd_flit[ip]),
      .pop_i        (in_granted[ip])
`ifdef FORMAL
      , .fv_mem_o   (fv_in_mem_o[ip*NumVcs*BufDepth*FlitWidth +: NumVcs*BufDepth*FlitWidth])
      , .fv_rd_o    (fv_in_rd_o[ip*NumVcs*FvPtrW +: NumVcs*FvPtrW])
      , .fv_count_o (fv_in_count_o[ip*NumVcs*CredWidth +: NumVcs*CredWidth])
`endif
    );

    assign waiting = ~empty & ~alloc & head;
    assign in_empty[ip*NumVcs +: NumVcs] = empty;

    hx_route #(
      .InPort          (ip),
      .NumVcs          (NumVcs),
      .BoardCoordWidth (BW),
      .NodeCoordWidth  (NW),
      .LocalPorts      (LocalPorts)
    ) u_route (
      .valid_i      (waiting),
      .node_x_i     (node_x_q),
      .node_y_i     (node_y_q),
      .last_x_i     (last_x_q),
      .last_y_i     (last_y_q),
      .board_x_i    (board_x_q),
      .board_y_i    (board_y_q),
      .route_mode_i (route_mode_q),
      .span_board_i (span_board_q),
      .edge_port_i  (edge_port_q),
      .hdr_i        (hdr),
      .ports_o      (ports)
    );

    // Requests: a packet that holds an output VC asks for it while it has a credit; a waiting
    // head asks for its current choice of output: among the allowed (port, VC) pairs that are
    // free and have a credit, the one with the most credits; ties go to the lower port, then the
    // lower VC. Only the VCs with a flit are looked at.
    logic [CredWidth-1:0] best;
    logic [NumVcs-1:0]    allowed;
    always_comb begin
      req_valid[ip*NumVcs +: NumVcs]                    = '0;
      req_port[ip*NumVcs*PortWidth +: NumVcs*PortWidth] = '0;
      req_vc[ip*NumVcs*VcWidth +: NumVcs*VcWidth]       = '0;
      ivc_exhausted[ip*NumVcs +: NumVcs]                = '0;
      best                                              = '0;
      allowed                                           = '0;
      if (empty != '1) begin
        for (int unsigned v = 0; v < NumVcs; v++) begin
          if (!empty[v] && alloc[v]) begin
            for (int unsigned p = 0; p < NumPorts; p++) begin
              for (int unsigned w = 0; w < NumVcs; w++) begin
                if (alloc_port_q[(ip*NumVcs + v)*PortWidth +: PortWidth] == PortWidth'(p)
                    && alloc_vc_q[(ip*NumVcs + v)*VcWidth +: VcWidth] == VcWidth'(w)) begin
                  req_valid[ip*NumVcs + v] = cred_q[(p*NumVcs + w)*CredWidth +: CredWidth] != '0;
                end
              end
            end
            req_port[(ip*NumVcs + v)*PortWidth +: PortWidth] =
                alloc_port_q[(ip*NumVcs + v)*PortWidth +: PortWidth];
            req_vc[(ip*NumVcs + v)*VcWidth +: VcWidth] =
                alloc_vc_q[(ip*NumVcs + v)*VcWidth +: VcWidth];
          end else if (waiting[v]) begin
            best = '0;
            for (int unsigned p = 0; p < NumPorts; p++) begin
              if (ports[v*NumPorts + p]) begin
                if (vc_policy_q == hx_pkg::VcAny) begin
                  allowed = '1;
                end else if (edge_port_q[p]) begin
                  allowed = (v + 1 < NumVcs) ? NumVcs'(1) << (v + 1) : '0;  // VC+1 off the board
                end else begin
                  allowed = NumVcs'(1) << v;
                end
                if (allowed == '0) ivc_exhausted[ip*NumVcs + v] = 1'b1;
                for (int unsigned w = 0; w < NumVcs; w++) begin
                  if (allowed[w] && !busy_q[p*NumVcs + w] && !lane_taken[p]
                      && cred_q[(p*NumVcs + w)*CredWidth +: CredWidth] != '0
                      && (!req_valid[ip*NumVcs + v]
                          || cred_q[(p*NumVcs + w)*CredWidth +: CredWidth] > best)) begin
                    req_valid[ip*NumVcs + v]                         = 1'b1;
                    req_port[(ip*NumVcs + v)*PortWidth +: PortWidth] = PortWidth'(p);
                    req_vc[(ip*NumVcs + v)*VcWidth +: VcWidth]       = VcWidth'(w);
                    best = cred_q[(p*NumVcs + w)*CredWidth +: CredWidth];
                  end
                end
              end
            end
          end
        end
      end
    end
    assign ivc_orphan[ip*NumVcs +: NumVcs] = ~empty & ~alloc & ~head;

    // Switch allocation, input stage: a round-robin pick among this input's requesting VCs.
    hx_rr_arbiter #(
      .N (NumVcs)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i     (req_valid[ip*NumVcs +: NumVcs]),
      .advance_i (in_granted[ip]),
      .valid_o   (in_win_valid[ip]),
      .idx_o     (in_win_vc[ip*VcIdxW +: VcIdxW])
    );
    // The winning VC's request, as a multiplexer over the VCs.
    always_comb begin
      in_win_port[ip*PortWidth +: PortWidth] = '0;
      in_win_ovc[ip*VcWidth +: VcWidth]      = '0;
      for (int unsigned v = 0; v < NumVcs; v++) begin
        if (in_win_vc[ip*VcIdxW +: VcIdxW] == VcIdxW'(v)) begin
          in_win_port[ip*PortWidth +: PortWidth] = req_port[(ip*NumVcs + v)*PortWidth +: PortWidth];
          in_win_ovc[ip*VcWidth +: VcWidth]      = req_vc[(ip*NumVcs + v)*VcWidth +: VcWidth];
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Switch allocation, output stage
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts*NumPorts-1:0]  wants;          // [op * NumPorts + ip]: input ip asks for op
  logic [NumPorts-1:0]           out_gnt_valid;
  logic [NumPorts*PortWidth-1:0] out_gnt_in;     // winning input port per output
  logic [NumPorts*VcWidth-1:0]   out_gnt_ovc;    // ... the output VC its flit leaves on
  logic [NumPorts-1:0]           out_gnt_head;   // ... and the flit's type bits
  logic [NumPorts-1:0]           out_gnt_tail;

  always_comb begin
    wants = '0;
    for (int unsigned ip = 0; ip < NumPorts; ip++) begin
      if (in_win_valid[ip]) begin
        for (int unsigned op = 0; op < NumPorts; op++) begin
          if (in_win_port[ip*PortWidth +: PortWidth] == PortWidth'(op)) wants[op*NumPorts + ip] = 1'b1;
        end
      end
    end
  end

  for (genvar op = 0; op < NumPorts; op++) begin : g_sa_out
    hx_rr_arbiter #(
      .N (NumPorts)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i     (wants[op*NumPorts +: NumPorts]),
      .advance_i (1'b1),
      .valid_o   (out_gnt_valid[op]),
      .idx_o     (out_gnt_in[op*PortWidth +: PortWidth])
    );
  end

  always_comb begin
    in_granted   = '0;
    out_gnt_ovc  = '0;
    out_gnt_head = '0;
    out_gnt_tail = '0;
    for (int unsigned op = 0; op < NumPorts; op++) begin
      if (out_gnt_valid[op]) begin
        for (int unsigned ip = 0; ip < NumPorts; ip++) begin
          if (out_gnt_in[op*PortWidth +: PortWidth] == PortWidth'(ip)) begin
            in_granted[ip]                    = 1'b1;
            out_gnt_ovc[op*VcWidth +: VcWidth] = in_win_ovc[ip*VcWidth +: VcWidth];
            out_gnt_head[op]                  = in_rd_flit[ip][TypeLsb + 1];
            out_gnt_tail[op]                  = in_rd_flit[ip][TypeLsb];
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // State update, crossbar included: a granted flit goes from its input buffer's read port
  // straight into the output register, relabelled with the output VC it holds downstream.
  // Credits coming back are counted here, in the clocked process, so that no combinational logic
  // depends on the credit inputs.
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
      out_flit_q     <= '0;
      in_credit_q    <= '0;
      in_credit_vc_q <= '0;
      error_q        <= '0;
    end else begin
      for (int unsigned op = 0; op < NumPorts; op++) begin
        if (credit_in[op] || out_gnt_valid[op]) begin
          for (int unsigned w = 0; w < NumVcs; w++) begin
            // A credit and a flit on the same VC cancel out. A credit for a full counter is a
            // broken contract: keep the counter in [0, BufDepth] and report.
            if (credit_in[op] && credit_in_vc[op*VcWidth +: VcWidth] == VcWidth'(w)) begin
              if (!(out_gnt_valid[op] && out_gnt_ovc[op*VcWidth +: VcWidth] == VcWidth'(w))) begin
                if (cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] == CredWidth'(BufDepth)) begin
                  error_q[1] <= 1'b1;
                end else begin
                  cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] <=
                      cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] + 1'b1;
                end
              end
            end else if (out_gnt_valid[op] && out_gnt_ovc[op*VcWidth +: VcWidth] == VcWidth'(w)) begin
              cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] <=
                  cred_q[(op*NumVcs + w)*CredWidth +: CredWidth] - 1'b1;
            end
            // the flit's type bits say whether it opens or closes its packet on the output VC
            if (out_gnt_valid[op] && out_gnt_ovc[op*VcWidth +: VcWidth] == VcWidth'(w)) begin
              if (out_gnt_tail[op])      busy_q[op*NumVcs + w] <= 1'b0;
              else if (out_gnt_head[op]) busy_q[op*NumVcs + w] <= 1'b1;
            end
          end
          // Crossbar: the granted input's front flit, relabelled with its output VC.
          for (int unsigned ip = 0; ip < NumPorts; ip++) begin
            if (out_gnt_valid[op] && out_gnt_in[op*PortWidth +: PortWidth] == PortWidth'(ip)) begin
              out_flit_q[op*FlitWidth +: FlitWidth] <= {in_rd_flit[ip][TypeLsb +: 2],
                                                        out_gnt_ovc[op*VcWidth +: VcWidth],
                                                        in_rd_flit[ip][PayloadWidth-1:0]};
            end
          end
        end
      end

      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        if (in_granted[ip]) begin
          for (int unsigned v = 0; v < NumVcs; v++) begin
            if (in_win_vc[ip*VcIdxW +: VcIdxW] == VcIdxW'(v)) begin
              if (in_rd_flit[ip][TypeLsb]) begin                // tail: release
                alloc_q[ip*NumVcs + v] <= 1'b0;
              end else if (in_rd_flit[ip][TypeLsb + 1]) begin   // head of a longer packet
                alloc_q[ip*NumVcs + v]                         <= 1'b1;
                alloc_port_q[(ip*NumVcs + v)*PortWidth +: PortWidth] <= in_win_port[ip*PortWidth +: PortWidth];
                alloc_vc_q[(ip*NumVcs + v)*VcWidth +: VcWidth]       <= in_win_ovc[ip*VcWidth +: VcWidth];
              end
            end
          end
        end
      end

      out_valid_q <= out_gnt_valid;
      in_credit_q <= in_granted;
      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        in_credit_vc_q[ip*VcWidth +: VcWidth] <= VcWidth'(in_win_vc[ip*VcIdxW +: VcIdxW]);
      end

      // A flit on a VC this router does not have would match no buffer and vanish; one into a
      // full buffer (not popped in this cycle) would overwrite the front flit.
      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        if (in_valid_i[ip]) begin
          if (32'(in_flit_i[ip*FlitWidth + PayloadWidth +: VcWidth]) >= NumVcs) error_q[0] <= 1'b1;
          for (int unsigned v = 0; v < NumVcs; v++) begin
            if (in_flit_i[ip*FlitWidth + PayloadWidth +: VcWidth] == VcWidth'(v) && in_full[ip*NumVcs + v]
                && !(in_granted[ip] && in_win_vc[ip*VcIdxW +: VcIdxW] == VcIdxW'(v))) begin
              error_q[0] <= 1'b1;
            end
          end
        end
      end
      if (|ivc_exhausted) error_q[2] <= 1'b1;
      if (|ivc_orphan)    error_q[3] <= 1'b1;
    end
  end

`ifdef HX_ASSERTS_ON
  // ---------------------------------------------------------------------------------------------
  // Assertions. Per-VC and per-port checks sit in generate blocks: yosys needs one block per copy.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned PortN = hx_pkg::PortN;
  localparam int unsigned PortS = hx_pkg::PortS;

  // Which outputs granted each input (transposed out_gnt_in), for InputGrantedOnce.
  logic [NumPorts-1:0] in_gnt_by [NumPorts];
  always_comb begin
    for (int unsigned ip = 0; ip < NumPorts; ip++) begin
      for (int unsigned op = 0; op < NumPorts; op++) begin
        in_gnt_by[ip][op] = out_gnt_valid[op] && out_gnt_in[op*PortWidth +: PortWidth] == PortWidth'(ip);
      end
    end
  end

  // Link-side contracts of the input ports: a flit names a VC the router has.
  for (genvar ip = 0; ip < NumPorts; ip++) begin : g_chk_in
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        `HX_ASSUME(FlitVcExists, !in_valid_i[ip]
                                 || 32'(in_flit_i[ip*FlitWidth + PayloadWidth +: VcWidth]) < NumVcs)
        // A flit at the front of a VC that no head opened: the upstream broke the packet framing.
        `HX_ASSERT(NoOrphanFlit, ivc_orphan[ip*NumVcs +: NumVcs] == '0)
        // The crossbar pops a granted input once: no two outputs take the same input's flit.
        `HX_ASSERT(InputGrantedOnce, $countones(in_gnt_by[ip]) <= 1)
      end
    end
  end

  // Per output VC: credits, ownership, grants.
  for (genvar ov = 0; ov < NumOvcs; ov++) begin : g_chk_ovc
    localparam int unsigned Op = ov / NumVcs;
    localparam int unsigned W  = ov % NumVcs;
    logic [CredWidth-1:0] cred;
    logic [NumIvcs-1:0]   holds;     // input VCs whose packet holds this output VC
    logic                 gnt;       // a flit leaves on this output VC in this cycle
    logic                 credit;    // a credit for it arrives in this cycle
    logic [PortWidth-1:0] gnt_in;    // the granted input port
    assign cred   = cred_q[ov*CredWidth +: CredWidth];
    assign gnt    = out_gnt_valid[Op] && out_gnt_ovc[Op*VcWidth +: VcWidth] == VcWidth'(W);
    assign credit = credit_in[Op] && credit_in_vc[Op*VcWidth +: VcWidth] == VcWidth'(W);
    assign gnt_in = out_gnt_in[Op*PortWidth +: PortWidth];
    always_comb begin
      for (int unsigned iv = 0; iv < NumIvcs; iv++) begin
        holds[iv] = alloc_q[iv] && alloc_port_q[iv*PortWidth +: PortWidth] == PortWidth'(Op)
                    && alloc_vc_q[iv*VcWidth +: VcWidth] == VcWidth'(W);
      end
    end
    // The input VC the granted flit comes from (the winner of its input's VC arbiter).
    logic gnt_holds;
    always_comb begin
      gnt_holds = 1'b0;
      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        for (int unsigned v = 0; v < NumVcs; v++) begin
          if (gnt_in == PortWidth'(ip) && in_win_vc[ip*VcIdxW +: VcIdxW] == VcIdxW'(v)) begin
            gnt_holds = holds[ip*NumVcs + v];
          end
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        // The downstream returns a credit only for a flit it was sent: never to a full counter
        // (a grant in the same cycle does not count: its flit is not downstream yet).
        `HX_ASSUME(CreditReturnLegal, !(credit && cred == CredWidth'(BufDepth)))
        `HX_ASSERT(CreditsBounded, 32'(cred) <= BufDepth)
        `HX_ASSERT(GrantHasCredit, !gnt || cred != '0)
        // A VC is never granted to two packets: one holder at most, busy exactly while held,
        // a head only onto a free VC, a body or tail only from the packet that holds it.
        `HX_ASSERT(OutputVcOneOwner, $countones(holds) <= 1)
        `HX_ASSERT(OutputVcBusyIffHeld, busy_q[ov] == (holds != '0))
        `HX_ASSERT(HeadTakesFreeVc, !(gnt && out_gnt_head[Op]) || !busy_q[ov])
        `HX_ASSERT(BodyFollowsItsHead, !(gnt && !out_gnt_head[Op]) || gnt_holds)
      end
    end
  end

  // North-last (hx_route, HammingMesh sec. IV-C3), checked on what the router does, not on what
  // hx_route offers: a head that arrived moving north (on S from this board) leaves north,
  // through an edge port or to a local lane, never east, west or back south; and a head that
  // turns north inside its destination board needs no further east/west move there.
  for (genvar op = 0; op < NumPorts; op++) begin : g_chk_nl
    logic                 head;    // a head leaves on op in this cycle
    logic [PortWidth-1:0] from;
    logic [FlitWidth-1:0] flit;
    logic                 on_board;
    logic [NW-1:0]        dst_x;
    assign head     = out_gnt_valid[op] && out_gnt_head[op];
    assign from     = out_gnt_in[op*PortWidth +: PortWidth];
    always_comb begin
      flit = '0;
      for (int unsigned ip = 0; ip < NumPorts; ip++) begin
        if (from == PortWidth'(ip)) flit = in_rd_flit[ip];
      end
    end
    assign on_board = flit[hx_pkg::HdrDstBoardXLsb +: BW] == board_x_q
                      && flit[hx_pkg::hdr_dst_board_y_lsb(BW) +: BW] == board_y_q;
    assign dst_x    = flit[hx_pkg::hdr_dst_node_x_lsb(BW) +: NW];
    logic north_last;
    assign north_last = route_mode_q == hx_pkg::RouteNorthLast;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      // (the reset alone in the condition: yosys takes `if (rst_ni)` as the asynchronous reset)
      if (rst_ni) begin
        `HX_ASSERT(NorthLastNoTurnAfterNorth, !(north_last && head)
                   || !(from == PortWidth'(PortS) && !edge_port_q[PortS])
                   || op == PortN || op >= hx_pkg::PortL || edge_port_q[op])
        `HX_ASSERT(NorthLastTurnOnlyInColumn, !(north_last && head)
                   || !(op == PortN && !edge_port_q[PortN] && on_board) || dst_x == node_x_q)
      end
    end
  end
`endif

endmodule
