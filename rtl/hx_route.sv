// hx_route: the routing function of one input port of the HammingMesh accelerator router.
//
// For each VC of the port whose front flit is a head waiting for a route (valid_i), given the
// destination in its header and the router's straps, it returns the set of output ports the
// packet may take next (one-hot for XY, several for the adaptive modes); 0 for the other VCs.
// The router then picks, among these, the port whose allowed output VC has the most free credits.
//
// Coordinates: x grows to the east, y grows to the north; node (0,0) is the south-west corner of
// a board. Every output is minimal. Where the destination lies on another board the packet
// leaves through a board edge, as in HammingMesh sec. IV-C2:
//   same board row      the nearer E or W edge (both on a tie); moves toward the destination
//                       row are optional here and may be left to the destination board;
//   same board column   the nearer N or S edge; moves toward the destination column optional;
//                       with span_board_i set, the optional moves are not offered (below);
//   neither             toward an intermediate board, adaptively through the nearer E/W edge
//                       (row tree first) or the nearer N/S edge (column tree first); a router
//                       on the board boundary of one dimension leaves by that edge, since a move
//                       toward the other would be a hop more.
// An output of a router on the board boundary in the direction of the boundary is an edge port,
// so "move toward the east edge" at the last column is "leave through the east edge".
//
// span_board_i, "the trees deliver on the destination's line": a row tree of span line (one tree
// per line of accelerators) delivers a packet on the line it left from, so on the source board
// a move toward the destination row saves that move on the destination board, and either board
// may make it. A tree of span board (one tree for all lines of a board row or column) delivers on
// the destination's line (its row for a row tree, its column for a column tree) whatever line the
// packet left from; there such a move is one hop wasted, and the path is no longer minimal. With
// the strap set, a packet for the same board row is offered only the E/W edge moves and one for
// the same board column only the N/S edge moves. The other cases do not depend on it.
//
// North-last (sec. IV-C3), for RouteNorthLast: a packet may turn north only when no move
// other than north is still required on this board, and a packet that is travelling north
// (it arrived on the S port from a router of the same board) may only continue north, leave the
// board, or eject. Leaving the board is a sink of the board's channel dependency graph (the
// packet goes up one VC into a tree), so turning from north into an edge port adds no cycle.
//
// Local lanes: a router with LocalPorts lanes (ports PortL .. PortL+LocalPorts-1) routes a packet
// injected on any lane exactly as one injected on PortL, and offers a packet for this node every
// lane: the router's output selection then picks the lane with the most credits, so an
// accelerator with four interfaces can receive on all four at once.
module hx_route #(
  parameter int unsigned InPort          = hx_pkg::PortL,
  parameter int unsigned NumVcs          = 3,
  parameter int unsigned BoardCoordWidth = 8,
  parameter int unsigned NodeCoordWidth  = 4,
  parameter int unsigned LocalPorts      = 1,
  localparam int unsigned NumPorts = hx_pkg::num_ports(LocalPorts),
  localparam int unsigned HdrWidth = 2 * BoardCoordWidth + 2 * NodeCoordWidth
) (
  input  logic [NumVcs-1:0]          valid_i,  // per VC: a head waits for a route
  // straps
  input  logic [NodeCoordWidth-1:0]  node_x_i,
  input  logic [NodeCoordWidth-1:0]  node_y_i,
  input  logic [NodeCoordWidth-1:0]  last_x_i,   // board width minus one
  input  logic [NodeCoordWidth-1:0]  last_y_i,   // board height minus one
  input  logic [BoardCoordWidth-1:0] board_x_i,
  input  logic [BoardCoordWidth-1:0] board_y_i,
  input  hx_pkg::route_mode_e        route_mode_i,
  input  logic                       span_board_i,  // the trees deliver on the destination's line
  input  logic [NumPorts-1:0]        edge_port_i,  // outputs that leave the board
  // per VC, the destination fields of the header (hx_pkg layout: dst_board_x at bit 0 ...)
  input  logic [NumVcs*HdrWidth-1:0] hdr_i,
  // per VC, the allowed outputs, indexed by hx_pkg::Port*
  output logic [NumVcs*NumPorts-1:0] ports_o
);
  localparam int unsigned BW    = BoardCoordWidth;
  localparam int unsigned NW    = NodeCoordWidth;
  localparam int unsigned PortN = hx_pkg::PortN;
  localparam int unsigned PortE = hx_pkg::PortE;
  localparam int unsigned PortS = hx_pkg::PortS;
  localparam int unsigned PortW = hx_pkg::PortW;
  // Every local lane: the ejection set of a packet that has arrived.
  localparam logic [NumPorts-1:0] LocalLanes = {{LocalPorts{1'b1}}, {hx_pkg::NumNetPorts{1'b0}}};

  // One process for all VCs of the port; the routing of a VC is evaluated only for a waiting
  // head, so a Verilated model skips the empty and busy VCs, most of them at low load.
  logic [BW-1:0] dst_board_x, dst_board_y;
  logic [NW-1:0] dst_node_x, dst_node_y;
  logic on_board, same_row, same_col;                     // where the destination board lies
  logic to_dst_e, to_dst_w, to_dst_n, to_dst_s, at_dst;   // toward the destination node
  logic to_edge_e, to_edge_w, to_edge_n, to_edge_s;       // toward the nearer edge (both on a tie)
  logic at_edge_x, at_edge_y;  // the router is in the W or E column, in the S or N row
  logic x_required;    // an E/W move inside this board must come before the packet may go north
  logic moving_north;  // arrived from the south neighbour on this board
  logic [NumPorts-1:0] minimal, xy, north_last;

  always_comb begin
    dst_board_x  = '0;
    dst_board_y  = '0;
    dst_node_x   = '0;
    dst_node_y   = '0;
    on_board     = 1'b0;
    same_row     = 1'b0;
    same_col     = 1'b0;
    to_dst_e     = 1'b0;
    to_dst_w     = 1'b0;
    to_dst_n     = 1'b0;
    to_dst_s     = 1'b0;
    at_dst       = 1'b0;
    to_edge_e    = 1'b0;
    to_edge_w    = 1'b0;
    to_edge_n    = 1'b0;
    to_edge_s    = 1'b0;
    at_edge_x    = 1'b0;
    at_edge_y    = 1'b0;
    x_required   = 1'b0;
    moving_north = 1'b0;
    minimal      = '0;
    xy           = '0;
    north_last   = '0;
    ports_o      = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (valid_i[v]) begin
        dst_board_x = hdr_i[v*HdrWidth + hx_pkg::HdrDstBoardXLsb +: BW];
        dst_board_y = hdr_i[v*HdrWidth + hx_pkg::hdr_dst_board_y_lsb(BW) +: BW];
        dst_node_x  = hdr_i[v*HdrWidth + hx_pkg::hdr_dst_node_x_lsb(BW) +: NW];
        dst_node_y  = hdr_i[v*HdrWidth + hx_pkg::hdr_dst_node_y_lsb(BW, NW) +: NW];

        on_board = (dst_board_x == board_x_i) && (dst_board_y == board_y_i);
        same_row = (dst_board_y == board_y_i) && !on_board;
        same_col = (dst_board_x == board_x_i) && !on_board;

        to_dst_e = dst_node_x > node_x_i;
        to_dst_w = dst_node_x < node_x_i;
        to_dst_n = dst_node_y > node_y_i;
        to_dst_s = dst_node_y < node_y_i;
        at_dst   = on_board && (dst_node_x == node_x_i) && (dst_node_y == node_y_i);

        to_edge_e = (last_x_i - node_x_i) <= node_x_i;
        to_edge_w = node_x_i <= (last_x_i - node_x_i);
        to_edge_n = (last_y_i - node_y_i) <= node_y_i;
        to_edge_s = node_y_i <= (last_y_i - node_y_i);
        at_edge_x = (node_x_i == '0) || (node_x_i == last_x_i);
        at_edge_y = (node_y_i == '0) || (node_y_i == last_y_i);

        // All minimal next hops, before any turn rule.
        minimal = '0;
        if (on_board) begin
          minimal[PortE] = to_dst_e;
          minimal[PortW] = to_dst_w;
          minimal[PortN] = to_dst_n;
          minimal[PortS] = to_dst_s;
          if (at_dst) minimal = minimal | LocalLanes;
        end else if (same_row) begin
          minimal[PortE] = to_edge_e;
          minimal[PortW] = to_edge_w;
          minimal[PortN] = to_dst_n && !span_board_i;
          minimal[PortS] = to_dst_s && !span_board_i;
        end else if (same_col) begin
          minimal[PortE] = to_dst_e && !span_board_i;
          minimal[PortW] = to_dst_w && !span_board_i;
          minimal[PortN] = to_edge_n;
          minimal[PortS] = to_edge_s;
        end else begin
          // Leaving by the edge of the boundary the router is on is a hop shorter than moving
          // along it toward the other dimension's edge; inside the board both are offered.
          minimal[PortE] = to_edge_e && (at_edge_x || !at_edge_y);
          minimal[PortW] = to_edge_w && (at_edge_x || !at_edge_y);
          minimal[PortN] = to_edge_n && (at_edge_y || !at_edge_x);
          minimal[PortS] = to_edge_s && (at_edge_y || !at_edge_x);
        end

        // Dimension order: x first (to the destination column, or to the nearer E/W edge when
        // the destination board is in another column), then y; ties go east and north.
        xy = '0;
        if (minimal[PortE])      xy[PortE] = 1'b1;
        else if (minimal[PortW]) xy[PortW] = 1'b1;
        else if (minimal[PortN]) xy[PortN] = 1'b1;
        else if (minimal[PortS]) xy[PortS] = 1'b1;
        else if (at_dst)         xy = LocalLanes;

        // North-last filter. For the same board row the edge move is required; with
        // span_board_i no N move is offered there at all, so the rule holds whatever
        // x_required says. For the same board column E/W moves are optional (not offered with
        // span_board_i), and for neither they are an alternative to leaving N/S.
        if (on_board) begin
          x_required = to_dst_e || to_dst_w;
        end else if (same_row) begin
          x_required = !((to_edge_e && edge_port_i[PortE]) || (to_edge_w && edge_port_i[PortW]));
        end else begin
          x_required = 1'b0;
        end
        moving_north = (InPort == PortS) && !edge_port_i[PortS];
        north_last = minimal;
        if (x_required) north_last[PortN] = 1'b0;
        if (moving_north) begin
          north_last = north_last & (edge_port_i | (NumPorts'(1) << PortN) | LocalLanes);
        end

        unique case (route_mode_i)
          hx_pkg::RouteXy:          ports_o[v*NumPorts +: NumPorts] = xy;
          hx_pkg::RouteNorthLast:   ports_o[v*NumPorts +: NumPorts] = north_last;
          hx_pkg::RouteMinAdaptive: ports_o[v*NumPorts +: NumPorts] = minimal;
          default:                  ports_o[v*NumPorts +: NumPorts] = xy;
        endcase
      end
    end
  end

endmodule
