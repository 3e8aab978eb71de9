// hx_board_plane: one plane of a HammingMesh board, an a x b mesh of hx_router.
//
// Router (x, y) sits at column x (growing east) and row y (growing north) and serves node
// n = y * SizeX + x. Every router has LocalPorts local lanes (the accelerator's network
// interfaces in this plane); lane k of node n is local port k * NumNodes + n of the plane's loc_*
// vectors, so lane 0 of every node comes first, numbered as with one lane. Neighbouring routers
// are joined port to port (E of (x, y) to W of (x+1, y), N of (x, y) to S of (x, y+1)), flits one
// way and credits the other, with no extra delay: a board link costs the router's 2-cycle hop.
// The ports on the board boundary are brought out as the plane's edge ports, in this order:
//   edge SizeX*0 + x              N edge, router (x, SizeY-1)
//   edge SizeX   + y              E edge, router (SizeX-1, y)
//   edge SizeX+SizeY + x          S edge, router (x, 0)
//   edge 2*SizeX+SizeY + y        W edge, router (0, y)
// Seen from outside (systemc/core/board_geometry.h BoardGeometry, systemc/board/plane_model.h), the plane's
// external ports are the local ports 0 .. NumNodes*LocalPorts-1 in the order above, then the edge
// ports from NumNodes*LocalPorts on.
// In a HammingMesh the E/W edge ports go to row fat trees and the N/S ports to column trees;
// left unconnected (sinks that never return traffic) the plane is a plain mesh.
//
// The whole plane is Verilated as one model: crossing the SystemC boundary costs more than a
// router's whole cycle, so it is crossed once per plane rather than once per router.
module hx_board_plane #(
  parameter int unsigned SizeX           = 2,    // board width a
  parameter int unsigned SizeY           = 2,    // board height b
  parameter int unsigned NumVcs          = 3,
  parameter int unsigned BufDepth        = 8,
  parameter int unsigned PayloadWidth    = 128,
  parameter int unsigned BoardCoordWidth = 8,
  parameter int unsigned NodeCoordWidth  = 4,
  parameter int unsigned LocalPorts      = 1,    // local lanes per router, 1..4
  localparam int unsigned NumNodes  = SizeX * SizeY,
  localparam int unsigned NumLocal  = NumNodes * LocalPorts,
  localparam int unsigned NumEdges  = 2 * (SizeX + SizeY),
  localparam int unsigned VcWidth   = hx_pkg::VcWidth,
  localparam int unsigned FlitWidth = PayloadWidth + VcWidth + hx_pkg::TypeWidth
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [BoardCoordWidth-1:0]    board_x_i,
  input  logic [BoardCoordWidth-1:0]    board_y_i,
  input  hx_pkg::route_mode_e           route_mode_i,
  input  logic                          span_board_i,  // hx_route: trees deliver on dest.'s line
  input  hx_pkg::vc_policy_e            vc_policy_i,
  // local (accelerator) ports, LocalPorts lanes per node: lane k of node n is k * NumNodes + n
  input  logic [NumLocal-1:0]           loc_in_valid_i,
  input  logic [NumLocal*FlitWidth-1:0] loc_in_flit_i,
  output logic [NumLocal-1:0]           loc_in_credit_o,
  output logic [NumLocal*VcWidth-1:0]   loc_in_credit_vc_o,
  output logic [NumLocal-1:0]           loc_out_valid_o,
  output logic [NumLocal*FlitWidth-1:0] loc_out_flit_o,
  input  logic [NumLocal-1:0]           loc_out_credit_i,
  input  logic [NumLocal*VcWidth-1:0]   loc_out_credit_vc_i,
  // edge ports
  input  logic [NumEdges-1:0]           edge_in_valid_i,
  input  logic [NumEdges*FlitWidth-1:0] edge_in_flit_i,
  output logic [NumEdges-1:0]           edge_in_credit_o,
  output logic [NumEdges*VcWidth-1:0]   edge_in_credit_vc_o,
  output logic [NumEdges-1:0]           edge_out_valid_o,
  output logic [NumEdges*FlitWidth-1:0] edge_out_flit_o,
  input  logic [NumEdges-1:0]           edge_out_credit_i,
  input  logic [NumEdges*VcWidth-1:0]   edge_out_credit_vc_i,
  output logic [3:0]                    error_o,  // OR of the routers' sticky error flags
  output logic                          idle_o    // every router idle (hx_router's idle_o)
);

  localparam int unsigned NumPorts = hx_pkg::num_ports(LocalPorts);
  localparam int unsigned PortN    = hx_pkg::PortN;
  localparam int unsigned PortE    = hx_pkg::PortE;
  localparam int unsigned PortS    = hx_pkg::PortS;
  localparam int unsigned PortW    = hx_pkg::PortW;
  localparam int unsigned PortL    = hx_pkg::PortL;

  // The router and port behind edge e (see the numbering above).
  function automatic int unsigned edge_router(int unsigned e);
    edge_router = (e < SizeX)             ? (SizeY - 1) * SizeX + e
                : (e < SizeX + SizeY)     ? (e - SizeX) * SizeX + SizeX - 1
                : (e < 2 * SizeX + SizeY) ? e - SizeX - SizeY
                :                           (e - 2 * SizeX - SizeY) * SizeX;
  endfunction
  function automatic int unsigned edge_port(int unsigned e);
    edge_port = (e < SizeX)             ? PortN
              : (e < SizeX + SizeY)     ? PortE
              : (e < 2 * SizeX + SizeY) ? PortS
              :                           PortW;
  endfunction

  // Every router's outputs, one element per router: the inputs of its neighbours and of the
  // plane's outputs are slices of these.
  logic [NumPorts-1:0]           r_in_credit [NumNodes];
  logic [NumPorts*VcWidth-1:0]   r_in_credit_vc [NumNodes];
  logic [NumPorts-1:0]           r_out_valid [NumNodes];
  logic [NumPorts*FlitWidth-1:0] r_out_flit [NumNodes];
  logic [3:0]                    r_error [NumNodes];
  logic [NumNodes-1:0]           r_idle;

  for (genvar y = 0; y < SizeY; y++) begin : g_row
    for (genvar x = 0; x < SizeX; x++) begin : g_col
      localparam int unsigned R = y * SizeX + x;

      // Per network port p (N, E, S, W): the neighbour router and its opposite port, or the
      // edge index. Index arithmetic only; the unused branch of each is never read.
      localparam bit OnEdgeN = (y == SizeY - 1);
      localparam bit OnEdgeE = (x == SizeX - 1);
      localparam bit OnEdgeS = (y == 0);
      localparam bit OnEdgeW = (x == 0);
      localparam int unsigned NbN = OnEdgeN ? 0 : R + SizeX;
      localparam int unsigned NbE = OnEdgeE ? 0 : R + 1;
      localparam int unsigned NbS = OnEdgeS ? 0 : R - SizeX;
      localparam int unsigned NbW = OnEdgeW ? 0 : R - 1;
      localparam int unsigned EdN = x;
      localparam int unsigned EdE = SizeX + y;
      localparam int unsigned EdS = SizeX + SizeY + x;
      localparam int unsigned EdW = 2 * SizeX + SizeY + y;

      logic [NumPorts-1:0]           in_valid, out_credit;
      logic [NumPorts*FlitWidth-1:0] in_flit;
      logic [NumPorts*VcWidth-1:0]   out_credit_vc;

      // The router's lanes, gathered from the plane's local ports k * NumNodes + R.
      logic [LocalPorts-1:0]           lane_in_valid, lane_out_credit;
      logic [LocalPorts*FlitWidth-1:0] lane_in_flit;
      logic [LocalPorts*VcWidth-1:0]   lane_out_credit_vc;
      for (genvar k = 0; k < LocalPorts; k++) begin : g_lane
        assign lane_in_valid[k]    = loc_in_valid_i[k*NumNodes + R];
        assign lane_out_credit[k]  = loc_out_credit_i[k*NumNodes + R];
        assign lane_in_flit[k*FlitWidth +: FlitWidth] =
            loc_in_flit_i[(k*NumNodes + R)*FlitWidth +: FlitWidth];
        assign lane_out_credit_vc[k*VcWidth +: VcWidth] =
            loc_out_credit_vc_i[(k*NumNodes + R)*VcWidth +: VcWidth];
      end

      // Port order in the vectors: {lanes, W, S, E, N}. A link carries the neighbour's opposite
      // port: N <- S of the router above, E <- W of the router to the right, and so on.
      assign in_valid = {
          lane_in_valid,
          OnEdgeW ? edge_in_valid_i[EdW] : r_out_valid[NbW][PortE],
          OnEdgeS ? edge_in_valid_i[EdS] : r_out_valid[NbS][PortN],
          OnEdgeE ? edge_in_valid_i[EdE] : r_out_valid[NbE][PortW],
          OnEdgeN ? edge_in_valid_i[EdN] : r_out_valid[NbN][PortS]};
      assign in_flit = {
          lane_in_flit,
          OnEdgeW ? edge_in_flit_i[EdW*FlitWidth +: FlitWidth]
                  : r_out_flit[NbW][PortE*FlitWidth +: FlitWidth],
          OnEdgeS ? edge_in_flit_i[EdS*FlitWidth +: FlitWidth]
                  : r_out_flit[NbS][PortN*FlitWidth +: FlitWidth],
          OnEdgeE ? edge_in_flit_i[EdE*FlitWidth +: FlitWidth]
                  : r_out_flit[NbE][PortW*FlitWidth +: FlitWidth],
          OnEdgeN ? edge_in_flit_i[EdN*FlitWidth +: FlitWidth]
                  : r_out_flit[NbN][PortS*FlitWidth +: FlitWidth]};
      assign out_credit = {
          lane_out_credit,
          OnEdgeW ? edge_out_credit_i[EdW] : r_in_credit[NbW][PortE],
          OnEdgeS ? edge_out_credit_i[EdS] : r_in_credit[NbS][PortN],
          OnEdgeE ? edge_out_credit_i[EdE] : r_in_credit[NbE][PortW],
          OnEdgeN ? edge_out_credit_i[EdN] : r_in_credit[NbN][PortS]};
      assign out_credit_vc = {
          lane_out_credit_vc,
          OnEdgeW ? edge_out_credit_vc_i[EdW*VcWidth +: VcWidth]
                  : r_in_credit_vc[NbW][PortE*VcWidth +: VcWidth],
          OnEdgeS ? edge_out_credit_vc_i[EdS*VcWidth +: VcWidth]
                  : r_in_credit_vc[NbS][PortN*VcWidth +: VcWidth],
          OnEdgeE ? edge_out_credit_vc_i[EdE*VcWidth +: VcWidth]
                  : r_in_credit_vc[NbE][PortW*VcWidth +: VcWidth],
          OnEdgeN ? edge_out_credit_vc_i[EdN*VcWidth +: VcWidth]
                  : r_in_credit_vc[NbN][PortS*VcWidth +: VcWidth]};

      hx_router #(
        .NumVcs          (NumVcs),
        .BufDepth        (BufDepth),
        .PayloadWidth    (PayloadWidth),
        .BoardCoordWidth (BoardCoordWidth),
        .NodeCoordWidth  (NodeCoordWidth),
        .LocalPorts      (LocalPorts)
      ) u_router (
        .clk_i,
        .rst_ni,
        .node_x_i        (NodeCoordWidth'(x)),
        .node_y_i        (NodeCoordWidth'(y)),
        .last_x_i        (NodeCoordWidth'(SizeX - 1)),
        .last_y_i        (NodeCoordWidth'(SizeY - 1)),
        .board_x_i,
        .board_y_i,
        .route_mode_i,
        .span_board_i,
        .vc_policy_i,
        .in_valid_i      (in_valid),
        .in_flit_i       (in_flit),
        .in_credit_o     (r_in_credit[R]),
        .in_credit_vc_o  (r_in_credit_vc[R]),
        .out_valid_o     (r_out_valid[R]),
        .out_flit_o      (r_out_flit[R]),
        .out_credit_i    (out_credit),
        .out_credit_vc_i (out_credit_vc),
        .error_o         (r_error[R]),
        .idle_o          (r_idle[R])
      );
    end
  end

  // The plane's outputs, written as loops over slices in a process rather than as one
  // continuous assignment per slice: Verilator would merge those into nested concatenations of
  // the whole vector, whose cost is quadratic in the plane size (docs/router.md).
  always_comb begin
    for (int unsigned e = 0; e < NumEdges; e++) begin
      edge_out_valid_o[e] = r_out_valid[edge_router(e)][edge_port(e)];
      edge_out_flit_o[e*FlitWidth +: FlitWidth] =
          r_out_flit[edge_router(e)][edge_port(e)*FlitWidth +: FlitWidth];
      edge_in_credit_o[e] = r_in_credit[edge_router(e)][edge_port(e)];
      edge_in_credit_vc_o[e*VcWidth +: VcWidth] =
          r_in_credit_vc[edge_router(e)][edge_port(e)*VcWidth +: VcWidth];
    end
    for (int unsigned k = 0; k < LocalPorts; k++) begin
      for (int unsigned r = 0; r < NumNodes; r++) begin
        loc_out_valid_o[k*NumNodes + r] = r_out_valid[r][PortL + k];
        loc_out_flit_o[(k*NumNodes + r)*FlitWidth +: FlitWidth] =
            r_out_flit[r][(PortL + k)*FlitWidth +: FlitWidth];
        loc_in_credit_o[k*NumNodes + r] = r_in_credit[r][PortL + k];
        loc_in_credit_vc_o[(k*NumNodes + r)*VcWidth +: VcWidth] =
            r_in_credit_vc[r][(PortL + k)*VcWidth +: VcWidth];
      end
    end
  end

  always_comb begin
    error_o = '0;
    for (int unsigned r = 0; r < NumNodes; r++) error_o = error_o | r_error[r];
  end
  assign idle_o = &r_idle;

endmodule
