// hx_pkg: the flit format shared by every hxsim RTL block and mirrored in C++ (systemc/core/hx_flit.h).
//
// A flit on a link is {type, vc, payload}:
//
//   [PayloadWidth+3 : PayloadWidth+2]  type  (FlitHead, FlitBody, FlitTail, FlitSingle)
//   [PayloadWidth+1 : PayloadWidth  ]  vc    (always 2 bits: up to 4 virtual channels)
//   [PayloadWidth-1 : 0             ]  payload
//
// The type bits are {is_head, is_tail}, so a single-flit packet is a head and a tail at once.
// A head (or single) flit carries the routing header in the low bits of its payload; the bits
// above the header are free for the endpoint (the testbenches put a packet id and a checksum
// there). The header layout, from bit 0 upwards, is
//
//   dst_board_x  BoardCoordWidth   destination board column in the global x * y grid
//   dst_board_y  BoardCoordWidth   destination board row
//   dst_node_x   NodeCoordWidth    destination accelerator column on that board
//   dst_node_y   NodeCoordWidth    destination accelerator row on that board
//   src_board_x  BoardCoordWidth
//   src_board_y  BoardCoordWidth
//   src_node_x   NodeCoordWidth
//   src_node_y   NodeCoordWidth
//   length       LenWidth          packet length in flits, head included
//   msg_class    ClassWidth        message class (request/response/... for endpoint protocols)
//   red_op       RedOpWidth        reduction op code, used by the switch reduction unit
//
// The coordinate widths are module parameters; the helper functions below give the bit offsets
// for any choice of them, so RTL and C++ compute the same layout from the same formula.
// docs/flit-format.md documents the format for users.
package hx_pkg;

  localparam int unsigned VcWidth    = 2;
  localparam int unsigned TypeWidth  = 2;
  localparam int unsigned LenWidth   = 8;
  localparam int unsigned ClassWidth = 3;
  localparam int unsigned RedOpWidth = 4;

  // Flit type, encoded as {is_head, is_tail}.
  typedef enum logic [TypeWidth-1:0] {
    FlitBody   = 2'b00,
    FlitTail   = 2'b01,
    FlitHead   = 2'b10,
    FlitSingle = 2'b11
  } flit_type_e;

  // Router port numbering, used for every per-port vector of the router: the four network ports,
  // then the accelerator's local inject/eject ports ("lanes"), PortL being the first. A router
  // with LocalPorts lanes has num_ports(LocalPorts) ports, lane k at port PortL + k. HammingMesh
  // gives an accelerator four network interfaces per plane (sec. III), so up to four lanes let it
  // inject into and receive from all four links at once.
  localparam int unsigned PortN = 0;
  localparam int unsigned PortE = 1;
  localparam int unsigned PortS = 2;
  localparam int unsigned PortW = 3;
  localparam int unsigned PortL = 4;  // the first local lane
  localparam int unsigned NumNetPorts   = 4;  // N, E, S, W
  localparam int unsigned MaxLocalPorts = 4;  // port numbers must fit the router's 3-bit fields
  function automatic int unsigned num_ports(int unsigned local_ports);
    num_ports = NumNetPorts + local_ports;
  endfunction

  // Routing function, selected per router by the route_mode_i strap.
  typedef enum logic [1:0] {
    RouteXy           = 2'd0,  // dimension order, x first: for validation against other simulators
    RouteNorthLast    = 2'd1,  // minimal adaptive, north-last turn rule (HammingMesh, sec. IV-C3)
    RouteMinAdaptive  = 2'd2   // minimal adaptive without turn rule: deadlock-prone, tests only
  } route_mode_e;

  // Virtual-channel policy, selected by the vc_policy_i strap.
  //   VcKeep: a packet keeps its VC on a board and moves to the next VC when it leaves the board
  //           through an edge port (the paper's increment "when a board injects a packet in the
  //           fat tree"). Endpoints inject on VC 0.
  //   VcAny:  a head may take any free output VC (plain mesh, as BookSim does with DOR).
  typedef enum logic [0:0] {
    VcKeep = 1'b0,
    VcAny  = 1'b1
  } vc_policy_e;

  // Header field offsets, parameterised by the two coordinate widths (bw: board, nw: node).
  localparam int unsigned HdrDstBoardXLsb = 0;
  function automatic int unsigned hdr_dst_board_y_lsb(int unsigned bw);
    hdr_dst_board_y_lsb = bw;
  endfunction
  function automatic int unsigned hdr_dst_node_x_lsb(int unsigned bw);
    hdr_dst_node_x_lsb = 2 * bw;
  endfunction
  function automatic int unsigned hdr_dst_node_y_lsb(int unsigned bw, int unsigned nw);
    hdr_dst_node_y_lsb = 2 * bw + nw;
  endfunction
  function automatic int unsigned hdr_src_lsb(int unsigned bw, int unsigned nw);
    hdr_src_lsb = 2 * (bw + nw);
  endfunction
  function automatic int unsigned hdr_length_lsb(int unsigned bw, int unsigned nw);
    hdr_length_lsb = 4 * (bw + nw);
  endfunction
  function automatic int unsigned hdr_class_lsb(int unsigned bw, int unsigned nw);
    hdr_class_lsb = 4 * (bw + nw) + LenWidth;
  endfunction
  function automatic int unsigned hdr_red_op_lsb(int unsigned bw, int unsigned nw);
    hdr_red_op_lsb = 4 * (bw + nw) + LenWidth + ClassWidth;
  endfunction
  function automatic int unsigned header_width(int unsigned bw, int unsigned nw);
    header_width = 4 * (bw + nw) + LenWidth + ClassWidth + RedOpWidth;
  endfunction

endpackage
