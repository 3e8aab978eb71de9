// hx_red_pkg: the packet format of the switch reduction unit (Klenk et al., ISCA 2020, Fig. 5),
// shared by hx_fp32_alu, hx_reduce_alu, hx_reduction_table and hx_switch_reduction, and mirrored
// in C++ by systemc/nvswitch/reduction_ref.h. docs/reduction-unit.md documents it for users.
//
// It is a package of its own rather than part of hx_pkg: Verilator's -Wall reports every package
// parameter a top does not use (UNUSEDPARAM), so reduction-unit constants in hx_pkg would fail the
// router's lint and its -Wall Verilation, and vice versa.
//
// A reduction packet is a header flit followed by 0 or 8 data flits of 128 bits (128 B of data,
// four 32-bit lanes per flit, lane k in bits [32k+31:32k]). The header, from bit 0 upwards:
//
//   [3:0]     kind       RedKind* below; any other value: a packet the table does not own (bypass)
//   [6:4]     op         RedOp* below
//   [7]       first_hop  PULL_REQ only: 1 at the requester's first-hop switch (stall when full)
//   [11:8]    nflits     data flits that follow (owned kinds: 0 for PULL_REQ, 8 otherwise)
//   [27:12]   count      contributions already reduced into this packet
//   [43:28]   expected   contributions that complete the reduction
//   [75:44]   tag        128-byte line address
//   [91:76]   src        source id (the requester for pull, the home GPU for push)
//   [127:92]  opaque     carried unchanged on bypass; RESULT/EVICT carry the trigger's opaque bits
package hx_red_pkg;

  localparam int unsigned RedFlitWidth   = 128;
  localparam int unsigned RedDataFlits   = 8;   // 128 B per entry / 16 B per flit
  localparam int unsigned RedKindWidth   = 4;
  localparam int unsigned RedAluOpWidth  = 3;
  localparam int unsigned RedCountWidth  = 16;
  localparam int unsigned RedTagWidth    = 32;
  localparam int unsigned RedSrcWidth    = 16;
  localparam int unsigned RedOpaqueWidth = 36;

  localparam logic [3:0] RedKindPullReq = 4'd1;  // header only
  localparam logic [3:0] RedKindPullRsp = 4'd2;  // header + 8 data flits
  localparam logic [3:0] RedKindPushWr  = 4'd3;  // header + 8 data flits
  localparam logic [3:0] RedKindResult  = 4'd4;  // output only: a completed reduction
  localparam logic [3:0] RedKindEvict   = 4'd5;  // output only: an evicted partial

  localparam logic [2:0] RedOpFAdd = 3'd0;  // fp32 add (DAZ/FTZ, RNE, canonical NaN)
  localparam logic [2:0] RedOpIAdd = 3'd1;  // int32 add, wrapping
  localparam logic [2:0] RedOpFMin = 3'd2;  // fp32 min (-0 < +0)
  localparam logic [2:0] RedOpFMax = 3'd3;  // fp32 max
  localparam logic [2:0] RedOpIMin = 3'd4;  // int32 min, signed
  localparam logic [2:0] RedOpIMax = 3'd5;  // int32 max, signed

  localparam logic [31:0] RedFp32CanonNan = 32'h7FC0_0000;

  // The header as a packed struct (used as a single variable only, never in an array).
  typedef struct packed {
    logic [RedOpaqueWidth-1:0] opaque;     // [127:92]
    logic [RedSrcWidth-1:0]    src;        // [91:76]
    logic [RedTagWidth-1:0]    tag;        // [75:44]
    logic [RedCountWidth-1:0]  expected;   // [43:28]
    logic [RedCountWidth-1:0]  count;      // [27:12]
    logic [3:0]                nflits;     // [11:8]
    logic                      first_hop;  // [7]
    logic [RedAluOpWidth-1:0]  op;         // [6:4]
    logic [RedKindWidth-1:0]   kind;       // [3:0]
  } red_hdr_t;

endpackage
