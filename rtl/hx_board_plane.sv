// hx_board_plane: one plane of a HammingMesh board, an a x b mesh of hx_router.
//
// Router (x, y) sits at column x (growing east) and row y (growing north); its local port is
// node index y * SizeX + x. Neighbouring routers are joined port to port (E of (x, y) to W of
// (x+1, y), N of (x, y) to S of (x, y+1)), flits one way and credits the other, with no extra
// delay: a board link costs the router's 2-cycle hop. The ports on the board boundary are brought
// out as the plane's edge ports, in this order:
//   edge SizeX*0 + x              N edge, router (x, SizeY-1)
//   edge SizeX   + y              E edge, router (SizeX-1, y)
//   edge SizeX+SizeY + x          S edge, router (x, 0)
//   edge 2*SizeX+SizeY + y        W edge, router (0, y)
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
  localparam int unsigned NumNodes  = SizeX * SizeY,
  localparam int unsigned NumEdges  = 2 * (SizeX + SizeY),
  localparam int unsigned VcWidth   = hx_pkg::VcWidth,
  localparam int unsigned FlitWidth = PayloadWidth + VcWidth + hx_pkg::TypeWidth
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [BoardCoordWidth-1:0]    board_x_i,
  input  logic [BoardCoordWidth-1:0]    board_y_i,
  input  hx_pkg::route_mode_e           route_mode_i,
  input  hx_pkg::vc_policy_e            vc_policy_i,
  // local (accelerator) ports, one per node
  input  logic [NumNodes-1:0]           loc_in_valid_i,
  input  logic [NumNodes*FlitWidth-1:0] loc_in_flit_i,
  output logic [NumNodes-1:0]           loc_in_credit_o,
  output logic [NumNodes*VcWidth-1:0]   loc_in_credit_vc_o,
  output logic [NumNodes-1:0]           loc_out_valid_o,
  output logic [NumNodes*FlitWidth-1:0] loc_out_flit_o,
  input  logic [NumNodes-1:0]           loc_out_credit_i,
  input  logic [NumNodes*VcWidth-1:0]   loc_out_credit_vc_i,
  // edge ports
  input  logic [NumEdges-1:0]           edge_in_valid_i,
  input  logic [NumEdges*FlitWidth-1:0] edge_in_flit_i,
  output logic [NumEdges-1:0]           edge_in_credit_o,
  output logic [NumEdges*VcWidth-1:0]   edge_in_credit_vc_o,
  output logic [NumEdges-1:0]           edge_out_valid_o,
  output logic [NumEdges*FlitWidth-1:0] edge_out_flit_o,
  input  logic [NumEdges-1:0]           edge_out_credit_i,
  input  logic [NumEdges*VcWidth-1:0]   edge_out_credit_vc_i,
  output logic [3:0]                    error_o   // OR of the routers' sticky error flags
);

  localparam int unsigned NumPorts = hx_pkg::NumPorts;

  // Every router's port signals, indexed [router * NumPorts + port].
  logic [NumNodes*NumPorts-1:0]           in_valid, in_credit, out_valid, out_credit;
  logic [NumNodes*NumPorts*FlitWidth-1:0] in_flit, out_flit;
  logic [NumNodes*NumPorts*VcWidth-1:0]   in_credit_vc, out_credit_vc;
  logic [NumNodes*4-1:0]                  router_error;

  for (genvar y = 0; y < SizeY; y++) begin : g_row
    for (genvar x = 0; x < SizeX; x++) begin : g_col
      localparam int unsigned R = y * SizeX + x;

      hx_router #(
        .NumVcs          (NumVcs),
        .BufDepth        (BufDepth),
        .PayloadWidth    (PayloadWidth),
        .BoardCoordWidth (BoardCoordWidth),
        .NodeCoordWidth  (NodeCoordWidth)
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
        .vc_policy_i,
        .in_valid_i      (in_valid[R*NumPorts +: NumPorts]),
        .in_flit_i       (in_flit[R*NumPorts*FlitWidth +: NumPorts*FlitWidth]),
        .in_credit_o     (in_credit[R*NumPorts +: NumPorts]),
        .in_credit_vc_o  (in_credit_vc[R*NumPorts*VcWidth +: NumPorts*VcWidth]),
        .out_valid_o     (out_valid[R*NumPorts +: NumPorts]),
        .out_flit_o      (out_flit[R*NumPorts*FlitWidth +: NumPorts*FlitWidth]),
        .out_credit_i    (out_credit[R*NumPorts +: NumPorts]),
        .out_credit_vc_i (out_credit_vc[R*NumPorts*VcWidth +: NumPorts*VcWidth]),
        .error_o         (router_error[R*4 +: 4])
      );

      // Each network port either meets the opposite port of a neighbour or is an edge port.
      for (genvar p = 0; p < 4; p++) begin : g_port
        localparam int unsigned Me = R * NumPorts + p;
        localparam bit OnEdge = (p == hx_pkg::PortN) ? (y == SizeY - 1)
                              : (p == hx_pkg::PortE) ? (x == SizeX - 1)
                              : (p == hx_pkg::PortS) ? (y == 0)
                              :                        (x == 0);
        if (OnEdge) begin : g_edge
          localparam int unsigned E = (p == hx_pkg::PortN) ? x
                                    : (p == hx_pkg::PortE) ? SizeX + y
                                    : (p == hx_pkg::PortS) ? SizeX + SizeY + x
                                    :                        2 * SizeX + SizeY + y;
          assign in_valid[Me]                               = edge_in_valid_i[E];
          assign in_flit[Me*FlitWidth +: FlitWidth]         = edge_in_flit_i[E*FlitWidth +: FlitWidth];
          assign out_credit[Me]                             = edge_out_credit_i[E];
          assign out_credit_vc[Me*VcWidth +: VcWidth]       = edge_out_credit_vc_i[E*VcWidth +: VcWidth];
          assign edge_out_valid_o[E]                        = out_valid[Me];
          assign edge_out_flit_o[E*FlitWidth +: FlitWidth]  = out_flit[Me*FlitWidth +: FlitWidth];
          assign edge_in_credit_o[E]                        = in_credit[Me];
          assign edge_in_credit_vc_o[E*VcWidth +: VcWidth]  = in_credit_vc[Me*VcWidth +: VcWidth];
        end else begin : g_link
          localparam int unsigned Nb = (p == hx_pkg::PortN) ? R + SizeX
                                     : (p == hx_pkg::PortE) ? R + 1
                                     : (p == hx_pkg::PortS) ? R - SizeX
                                     :                        R - 1;
          localparam int unsigned Them = Nb * NumPorts + ((p + 2) % 4);  // opposite port
          assign in_valid[Me]                         = out_valid[Them];
          assign in_flit[Me*FlitWidth +: FlitWidth]   = out_flit[Them*FlitWidth +: FlitWidth];
          assign out_credit[Me]                       = in_credit[Them];
          assign out_credit_vc[Me*VcWidth +: VcWidth] = in_credit_vc[Them*VcWidth +: VcWidth];
        end
      end

      localparam int unsigned Lp = R * NumPorts + hx_pkg::PortL;
      assign in_valid[Lp]                               = loc_in_valid_i[R];
      assign in_flit[Lp*FlitWidth +: FlitWidth]         = loc_in_flit_i[R*FlitWidth +: FlitWidth];
      assign out_credit[Lp]                             = loc_out_credit_i[R];
      assign out_credit_vc[Lp*VcWidth +: VcWidth]       = loc_out_credit_vc_i[R*VcWidth +: VcWidth];
      assign loc_out_valid_o[R]                         = out_valid[Lp];
      assign loc_out_flit_o[R*FlitWidth +: FlitWidth]   = out_flit[Lp*FlitWidth +: FlitWidth];
      assign loc_in_credit_o[R]                         = in_credit[Lp];
      assign loc_in_credit_vc_o[R*VcWidth +: VcWidth]   = in_credit_vc[Lp*VcWidth +: VcWidth];
    end
  end

  always_comb begin
    error_o = '0;
    for (int unsigned r = 0; r < NumNodes; r++) error_o = error_o | router_error[r*4 +: 4];
  end

endmodule
