// tb_unit_test.cpp: the bench's building blocks on their own, without simulating a model:
// the flit format against hx_pkg's formulas, bit-slice access to Verilated ports of every C++
// type, the scoreboard, and the reference routing function against hand-worked cases of the
// routing rules.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "bench_scoreboard.h"
#include "board_mesh.h"
#include "endpoints.h"
#include "hx_flit.h"
#include "rng.h"
#include "verilated_ports.h"

namespace hx {
namespace {

TEST(FlitFormat, DefaultOffsetsMatchHxPkg) {
  const FlitFormat f;
  EXPECT_EQ(f.dst_board_x_lsb(), 0u);
  EXPECT_EQ(f.dst_board_y_lsb(), 8u);
  EXPECT_EQ(f.dst_node_x_lsb(), 16u);
  EXPECT_EQ(f.dst_node_y_lsb(), 20u);
  EXPECT_EQ(f.src_board_x_lsb(), 24u);
  EXPECT_EQ(f.src_board_y_lsb(), 32u);
  EXPECT_EQ(f.src_node_x_lsb(), 40u);
  EXPECT_EQ(f.src_node_y_lsb(), 44u);
  EXPECT_EQ(f.length_lsb(), 48u);
  EXPECT_EQ(f.class_lsb(), 56u);
  EXPECT_EQ(f.red_op_lsb(), 59u);
  EXPECT_EQ(f.header_width(), 63u);
  EXPECT_EQ(f.flit_width(), 132u);
  EXPECT_EQ(f.vc_lsb(), 128u);
  EXPECT_EQ(f.type_lsb(), 130u);
  EXPECT_TRUE(f.valid());
}

TEST(FlitFormat, OtherWidthsUseTheSameFormulas) {
  FlitFormat f;
  f.board_coord_width = 6;
  f.node_coord_width = 3;
  EXPECT_EQ(f.dst_node_x_lsb(), 12u);
  EXPECT_EQ(f.dst_node_y_lsb(), 15u);
  EXPECT_EQ(f.src_lsb(), 18u);
  EXPECT_EQ(f.length_lsb(), 36u);
  EXPECT_EQ(f.header_width(), 36u + 8 + 3 + 4);
}

TEST(Flit, HeaderRoundTripAndTypes) {
  const FlitFormat f;
  Rng rng(3);
  for (int i = 0; i < 1000; ++i) {
    Header h;
    h.dst_board_x = rng.below(256);
    h.dst_board_y = rng.below(256);
    h.dst_node_x = rng.below(16);
    h.dst_node_y = rng.below(16);
    h.src_board_x = rng.below(256);
    h.src_board_y = rng.below(256);
    h.src_node_x = rng.below(16);
    h.src_node_y = rng.below(16);
    h.length = rng.range(1, 255);
    h.msg_class = rng.below(8);
    h.red_op = rng.below(16);
    Payload p{rng.next(), rng.next()};
    h.encode(f, p);
    EXPECT_EQ(Header::decode(f, p), h);
    write_tag(f, p, static_cast<uint32_t>(rng.next()), 0);
    EXPECT_TRUE(tag_ok(f, p));
    EXPECT_EQ(Header::decode(f, p), h) << "the tag must not overlap the header";
    Payload bad = p;
    bad[rng.below(2)] ^= uint64_t{1} << rng.below(63);
    EXPECT_FALSE(tag_ok(f, bad) && Header::decode(f, bad) == h && bad != p);
  }
  EXPECT_TRUE(is_head(FlitType::Head) && is_head(FlitType::Single));
  EXPECT_TRUE(is_tail(FlitType::Tail) && is_tail(FlitType::Single));
  EXPECT_FALSE(is_head(FlitType::Body) || is_tail(FlitType::Body));
}

TEST(Flit, PackPutsVcAndTypeAbovePayload) {
  const FlitFormat f;
  Flit fl;
  fl.type = FlitType::Head;
  fl.vc = 3;
  fl.payload = {0x0123456789abcdefull, 0xfedcba9876543210ull};
  const LinkWord w = fl.pack(f);
  EXPECT_EQ(w[0], fl.payload[0]);
  EXPECT_EQ(w[1], fl.payload[1]);
  EXPECT_EQ(w[2], uint64_t{0b1011});  // {type=10, vc=11}
  EXPECT_EQ(Flit::unpack(f, w), fl);
}

TEST(Flit, PacketFlitsCarryTagAndPattern) {
  const FlitFormat f;
  Header h;
  h.length = 3;
  h.dst_node_x = 2;
  const Flit head = make_packet_flit(f, h, 77, 0, 1);
  const Flit body = make_packet_flit(f, h, 77, 1, 1);
  const Flit tail = make_packet_flit(f, h, 77, 2, 1);
  EXPECT_EQ(head.type, FlitType::Head);
  EXPECT_EQ(body.type, FlitType::Body);
  EXPECT_EQ(tail.type, FlitType::Tail);
  EXPECT_EQ(read_tag(f, head.payload).packet_id, 77u);
  EXPECT_EQ(body.payload, body_pattern(f, 77, 1));
  EXPECT_NE(body.payload, body_pattern(f, 78, 1));
  EXPECT_NE(body.payload, body_pattern(f, 77, 2));
  h.length = 1;
  EXPECT_EQ(make_packet_flit(f, h, 5, 0, 0).type, FlitType::Single);
}

TEST(VerilatedPorts, IntegralPorts) {
  CData c = 0;
  set_bits(c, 2, 3, 0b101);
  EXPECT_EQ(c, 0b10100);
  EXPECT_EQ(get_bits(c, 2, 3), 0b101u);
  SData s = 0xffff;
  set_bits(s, 4, 2, 0);
  EXPECT_EQ(s, 0xffcf);
  IData i = 0;
  set_bits(i, 30, 2, 3);
  EXPECT_EQ(i, 0xc0000000u);
  QData q = 0;
  set_bits(q, 0, 64, ~uint64_t{0});
  EXPECT_EQ(q, ~uint64_t{0});
  set_bits(q, 31, 2, 0);
  EXPECT_EQ(get_bits(q, 30, 4), 0b1001u);
  EXPECT_EQ(port_capacity_bits(q), 64u);
}

TEST(VerilatedPorts, WidePortsAndFlits) {
  const FlitFormat f;
  VlWide<21> w;  // 5 flits of 132 bits = 660 bits, like hx_router's in_flit_i
  for (auto& e : w.m_storage) e = 0;
  Rng rng(5);
  Flit flits[5];
  for (unsigned k = 0; k < 5; ++k) {
    flits[k].type = static_cast<FlitType>(rng.below(4));
    flits[k].vc = rng.below(4);
    flits[k].payload = {rng.next(), rng.next()};
    set_flit(w, k, f, flits[k]);
  }
  for (unsigned k = 0; k < 5; ++k) EXPECT_EQ(get_flit(w, k, f), flits[k]) << k;
  // Overwrite one flit; its neighbours stay intact.
  Flit other = flits[2];
  other.payload[0] ^= 0xffff0000ffff0000ull;
  other.vc ^= 1;
  set_flit(w, 2, f, other);
  EXPECT_EQ(get_flit(w, 1, f), flits[1]);
  EXPECT_EQ(get_flit(w, 2, f), other);
  EXPECT_EQ(get_flit(w, 3, f), flits[3]);
  // 64-bit slices at every alignment.
  for (unsigned lsb = 0; lsb + 64 <= 660; lsb += 13) {
    const uint64_t v = rng.next();
    set_bits(w, lsb, 64, v);
    EXPECT_EQ(get_bits(w, lsb, 64), v) << lsb;
  }
  EXPECT_EQ(port_capacity_bits(w), 672u);
}

// set_flit/get_flit on wide ports move whole words; they must agree with the field-by-field
// slices (the layout hx_pkg defines) for every payload width and position.
TEST(VerilatedPorts, WholeFlitAccessMatchesFieldSlices) {
  Rng rng(11);
  for (const unsigned pw : {40u, 64u, 100u, 128u}) {
    FlitFormat f;
    f.payload_width = pw;
    const unsigned width = f.flit_width();
    for (unsigned k = 0; k < 9; ++k) {
      VlWide<40> w;  // 1280 bits: 9 flits of up to 132 bits
      for (auto& e : w.m_storage) e = static_cast<uint32_t>(rng.next());
      const VlWide<40> before = w;
      Flit x;
      x.type = static_cast<FlitType>(rng.below(4));
      x.vc = rng.below(4);
      x.payload = {rng.next(), pw > 64 ? rng.next() & detail::low_mask(pw - 64) : 0};
      if (pw < 64) x.payload[0] &= detail::low_mask(pw);
      set_flit(w, k, f, x);
      const unsigned lsb = k * width;
      EXPECT_EQ(get_bits(w, lsb, pw < 64 ? pw : 64), x.payload[0]) << pw << " " << k;
      if (pw > 64) {
        EXPECT_EQ(get_bits(w, lsb + 64, pw - 64), x.payload[1]) << pw << " " << k;
      }
      EXPECT_EQ(get_bits(w, lsb + f.vc_lsb(), 2), x.vc);
      EXPECT_EQ(get_bits(w, lsb + f.type_lsb(), 2), static_cast<uint64_t>(x.type));
      EXPECT_EQ(get_flit(w, k, f), x) << pw << " " << k;
      // Every bit outside the flit is as it was.
      for (unsigned b = 0; b < 1280; ++b) {
        if (b >= lsb && b < lsb + width) continue;
        ASSERT_EQ(get_bits(w, b, 1), get_bits(before, b, 1)) << pw << " " << k << " bit " << b;
      }
    }
  }
}

TEST(Scoreboard, FlagsDuplicatesMisroutesAndCorruption) {
  const FlitFormat f;
  Scoreboard sb(f, 5, 3);
  PacketSpec spec;
  spec.src_port = 4;
  spec.header.length = 2;
  spec.vc = 0;
  spec.allowed_ports.set(1);
  spec.vc_rule = VcRule::Keep;
  const uint32_t id = sb.add(spec, 0);
  sb.on_injected(id, 0, 0);
  sb.on_injected(id, 1, 1);
  Flit h = sb.flit_for(id, 0);
  Flit t = sb.flit_for(id, 1);
  EXPECT_TRUE(sb.on_delivered(1, h, 2).ok);
  EXPECT_TRUE(sb.on_delivered(1, t, 3).packet_done);
  EXPECT_TRUE(sb.summary().clean());
  EXPECT_TRUE(sb.summary().all_delivered());
  EXPECT_FALSE(sb.on_delivered(1, h, 4).ok);  // again
  EXPECT_EQ(sb.summary().duplicated, 1u);

  const uint32_t id2 = sb.add(spec, 5);
  sb.on_injected(id2, 0, 5);
  sb.on_injected(id2, 1, 6);
  Flit h2 = sb.flit_for(id2, 0);
  h2.vc = 1;                                   // VcKeep on an on-board exit: wrong VC
  EXPECT_FALSE(sb.on_delivered(2, h2, 7).ok);  // and port 2 is not allowed
  EXPECT_EQ(sb.summary().misrouted, 1u);
  EXPECT_EQ(sb.summary().bad_vc, 1u);
  Flit t2 = sb.flit_for(id2, 1);
  t2.vc = 1;
  t2.payload[1] ^= 4;
  EXPECT_FALSE(sb.on_delivered(2, t2, 8).ok);
  EXPECT_EQ(sb.summary().corrupted, 1u);
}

TEST(Endpoints, SourceRespectsCreditsAndSinkOverflowIsReported) {
  const FlitFormat f;
  Scoreboard sb(f, 5, 3);
  PacketSpec spec;
  spec.header.length = 10;
  spec.vc = 2;
  spec.vc_rule = VcRule::Keep;
  spec.allowed_ports.set(0);
  PacketSource src(0, 3, 8, 4);
  ASSERT_TRUE(src.enqueue(sb.add(spec, 0)));
  Flit fl;
  unsigned sent = 0;
  for (int c = 0; c < 20; ++c) sent += src.next_flit(sb, c, fl);
  EXPECT_EQ(sent, 8u);
  EXPECT_EQ(src.credits(2), 0u);
  EXPECT_TRUE(src.on_credit(2));
  EXPECT_TRUE(src.next_flit(sb, 21, fl));
  for (int k = 0; k < 8; ++k) EXPECT_TRUE(src.on_credit(2));
  EXPECT_FALSE(src.on_credit(2)) << "a ninth credit overflows";

  PacketSink sink(0, 3, 2, 1);
  Delivery d;
  fl.vc = 1;
  EXPECT_TRUE(sink.accept(fl, d));
  EXPECT_TRUE(sink.accept(fl, d));
  EXPECT_FALSE(sink.accept(fl, d)) << "third flit into a 2-flit buffer";
  unsigned vc = 9;
  sink.set_stalled(true);
  EXPECT_FALSE(sink.drain(vc));
  sink.set_stalled(false);
  EXPECT_TRUE(sink.drain(vc));
  EXPECT_EQ(vc, 1u);
}

// ---- reference routing function, against cases worked by hand from the rules -----------------

RouterPlace place3(unsigned x, unsigned y) {  // 3x3 board at board (2,3)
  RouterPlace p;
  p.node_x = x;
  p.node_y = y;
  p.last_x = 2;
  p.last_y = 2;
  p.board_x = 2;
  p.board_y = 3;
  return p;
}
Destination dst(unsigned bx, unsigned by, unsigned x, unsigned y) {
  Destination d;
  d.board_x = bx;
  d.board_y = by;
  d.node_x = x;
  d.node_y = y;
  return d;
}
constexpr PortMask N = 1 << kPortN, E = 1 << kPortE, S = 1 << kPortS, W = 1 << kPortW, L = 1 << kPortL;

TEST(RouteRef, SameBoard) {
  const RouterPlace c = place3(1, 1);
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::Xy, dst(2, 3, 1, 2)), N);
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::Xy, dst(2, 3, 1, 1)), L);
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::Xy, dst(2, 3, 2, 0)), E);
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::MinAdaptive, dst(2, 3, 2, 0)), E | S);
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::NorthLast, dst(2, 3, 2, 0)), E | S);
  // North-last: no N while a W move is still needed.
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::MinAdaptive, dst(2, 3, 0, 2)), W | N);
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::NorthLast, dst(2, 3, 0, 2)), W);
  EXPECT_EQ(board_route_set(c, kPortL, RouteMode::Xy, dst(2, 3, 0, 2)), W);
  // Travelling north (in on S, not in row 0): only N, L or a board exit.
  EXPECT_EQ(board_route_set(c, kPortS, RouteMode::NorthLast, dst(2, 3, 1, 2)), N);
  EXPECT_EQ(board_route_set(c, kPortS, RouteMode::NorthLast, dst(2, 3, 1, 1)), L);
  EXPECT_EQ(board_route_set(place3(1, 0), kPortS, RouteMode::NorthLast, dst(2, 3, 2, 2)), E)
      << "row 0: S is a board input, the packet is not travelling north";
}

TEST(RouteRef, SameBoardRow) {
  // Middle column of a 3-wide board: both edges are nearer.
  EXPECT_EQ(board_route_set(place3(1, 1), kPortL, RouteMode::MinAdaptive, dst(3, 3, 0, 0)), E | W | S);
  EXPECT_EQ(board_route_set(place3(1, 1), kPortL, RouteMode::NorthLast, dst(3, 3, 0, 2)), E | W);
  EXPECT_EQ(board_route_set(place3(1, 1), kPortL, RouteMode::Xy, dst(0, 3, 0, 2)), E);
  // East column: E is the edge port itself; N toward the destination row is allowed too.
  EXPECT_EQ(board_route_set(place3(2, 1), kPortL, RouteMode::MinAdaptive, dst(0, 3, 0, 2)), E | N);
  EXPECT_EQ(board_route_set(place3(2, 1), kPortL, RouteMode::NorthLast, dst(0, 3, 0, 2)), E | N);
  EXPECT_EQ(board_route_set(place3(2, 1), kPortL, RouteMode::Xy, dst(0, 3, 0, 2)), E);
  EXPECT_EQ(board_route_set(place3(0, 1), kPortL, RouteMode::Xy, dst(7, 3, 2, 2)), W);
  // Travelling north at the edge column may still leave through E.
  EXPECT_EQ(board_route_set(place3(2, 1), kPortS, RouteMode::NorthLast, dst(0, 3, 0, 2)), E | N);
}

TEST(RouteRef, SameBoardColumnAndNeither) {
  EXPECT_EQ(board_route_set(place3(1, 1), kPortL, RouteMode::MinAdaptive, dst(2, 5, 0, 1)), N | S | W);
  EXPECT_EQ(board_route_set(place3(1, 1), kPortL, RouteMode::Xy, dst(2, 5, 0, 1)), W);
  EXPECT_EQ(board_route_set(place3(1, 1), kPortL, RouteMode::Xy, dst(2, 5, 1, 0)), N);
  EXPECT_EQ(board_route_set(place3(1, 0), kPortL, RouteMode::Xy, dst(2, 5, 1, 0)), S);
  EXPECT_EQ(board_route_set(place3(2, 2), kPortL, RouteMode::NorthLast, dst(2, 0, 2, 0)), N);
  RouterPlace p4;  // 4x4 board, router (0,0)
  p4.last_x = 3;
  p4.last_y = 3;
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::MinAdaptive, dst(5, 5, 0, 0)), W | S);
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::Xy, dst(5, 5, 0, 0)), W);
  p4.node_x = 2;
  p4.node_y = 2;
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::NorthLast, dst(5, 5, 0, 0)), E | N);
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::Xy, dst(5, 5, 0, 0)), E);
  // Neither, on the boundary of one dimension: leave by that edge (moving along it toward the
  // other dimension's edge would be a hop more); inside the board, both nearer edges.
  p4.node_x = 0;
  p4.node_y = 1;
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::MinAdaptive, dst(5, 5, 0, 0)), W);
  p4.node_x = 1;
  p4.node_y = 0;
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::MinAdaptive, dst(5, 5, 0, 0)), S);
  p4.node_y = 3;
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::NorthLast, dst(5, 5, 0, 0)), N);
  p4.node_y = 1;
  EXPECT_EQ(board_route_set(p4, kPortL, RouteMode::MinAdaptive, dst(5, 5, 0, 0)), W | S);
}

// Trees of span board deliver on the destination's line: for the same board row no N/S move,
// for the same board column no E/W move (the moves of span line that the tree makes anyway);
// the same board and neither do not depend on the span. Each case is the span-line set above
// without its line moves.
TEST(RouteRef, SpanBoardOffersNoLineMoves) {
  constexpr TreeSpan kBoard = TreeSpan::Board;
  auto set = [](const RouterPlace& p, unsigned in, RouteMode m, const Destination& d, TreeSpan span) {
    return board_route_set(p, in, m, d, 1, span);
  };
  // Same board row: only the nearer E/W edge, both in the middle column.
  EXPECT_EQ(set(place3(1, 1), kPortL, RouteMode::MinAdaptive, dst(3, 3, 0, 0), kBoard), E | W);
  EXPECT_EQ(set(place3(2, 1), kPortL, RouteMode::MinAdaptive, dst(0, 3, 0, 2), kBoard), E);
  EXPECT_EQ(set(place3(2, 1), kPortL, RouteMode::NorthLast, dst(0, 3, 0, 2), kBoard), E);
  EXPECT_EQ(set(place3(0, 0), kPortL, RouteMode::Xy, dst(7, 3, 2, 2), kBoard), W);
  EXPECT_EQ(set(place3(2, 1), kPortS, RouteMode::NorthLast, dst(0, 3, 0, 2), kBoard), E);
  // Same board column: only the nearer N/S edge, both in the middle row; XY, x first with span
  // line, now goes straight to the edge.
  EXPECT_EQ(set(place3(1, 1), kPortL, RouteMode::MinAdaptive, dst(2, 5, 0, 1), kBoard), N | S);
  EXPECT_EQ(set(place3(1, 1), kPortL, RouteMode::Xy, dst(2, 5, 0, 1), kBoard), N);
  EXPECT_EQ(set(place3(0, 2), kPortL, RouteMode::NorthLast, dst(2, 0, 2, 0), kBoard), N);
  EXPECT_EQ(set(place3(0, 2), kPortL, RouteMode::Xy, dst(2, 0, 2, 0), kBoard), N);
  EXPECT_EQ(set(place3(0, 2), kPortL, RouteMode::Xy, dst(2, 0, 2, 0), TreeSpan::Line), E);
  // Same board and neither: as with span line.
  for (RouteMode m : {RouteMode::Xy, RouteMode::NorthLast, RouteMode::MinAdaptive}) {
    for (const Destination& d : {dst(2, 3, 2, 0), dst(2, 3, 0, 2), dst(5, 5, 0, 0), dst(0, 0, 2, 2)}) {
      for (unsigned in = 0; in < kNumRouterPorts; ++in) {
        EXPECT_EQ(set(place3(1, 1), in, m, d, kBoard), set(place3(1, 1), in, m, d, TreeSpan::Line));
      }
    }
  }
  // Across a 4x4 board from (1,1) to board (5,0) node (0,2): span line may take the row change
  // on the way to the W edge (rows 1 and 2, two routers either way); span board leaves at once.
  const BoardGeometry g{4, 4};
  BoardRoutes r = board_routes(g, 0, 0, RouteMode::NorthLast, g.local_port(1, 1), dst(5, 0, 0, 2));
  EXPECT_EQ(r.exits, (std::vector<unsigned>{g.edge_port(kPortW, 0, 1), g.edge_port(kPortW, 0, 2)}));
  EXPECT_EQ(r.max_routers, 3u);
  r = board_routes(g, 0, 0, RouteMode::NorthLast, g.local_port(1, 1), dst(5, 0, 0, 2), kBoard);
  EXPECT_EQ(r.exits, std::vector<unsigned>{g.edge_port(kPortW, 0, 1)});
  EXPECT_EQ(r.min_routers, 2u);
  EXPECT_EQ(r.max_routers, 2u);
}

TEST(RouteRef, BoardRoutes) {
  const BoardGeometry g{4, 4};
  EXPECT_EQ(g.num_external(), 32u);
  EXPECT_EQ(g.edge_port(kPortN, 2, 3), 18u);
  EXPECT_EQ(g.edge_port(kPortE, 3, 1), 21u);
  EXPECT_EQ(g.edge_port(kPortS, 0, 0), 24u);
  EXPECT_EQ(g.edge_port(kPortW, 0, 3), 31u);
  for (RouteMode m : {RouteMode::Xy, RouteMode::NorthLast, RouteMode::MinAdaptive}) {
    const BoardRoutes r = board_routes(g, 0, 0, m, g.local_port(0, 0), dst(0, 0, 3, 3));
    EXPECT_EQ(r.exits, std::vector<unsigned>{15});
    EXPECT_EQ(r.min_routers, 7u);
    EXPECT_EQ(r.max_routers, 7u);
    EXPECT_FALSE(r.dead_end);
  }
  // Same board row, from node (1,1): the W edge is nearer.
  BoardRoutes r = board_routes(g, 0, 0, RouteMode::Xy, g.local_port(1, 1), dst(5, 0, 0, 1));
  EXPECT_EQ(r.exits, std::vector<unsigned>{g.edge_port(kPortW, 0, 1)});
  EXPECT_EQ(r.min_routers, 2u);
  // Diagonal board from (2,2) under north-last: the E edge in row 2 or the N edge in column 2;
  // a router reached on one edge leaves by it, so the corner (3,3) is not on the way.
  r = board_routes(g, 0, 0, RouteMode::NorthLast, g.local_port(2, 2), dst(5, 5, 0, 0));
  EXPECT_EQ(r.exits, (std::vector<unsigned>{g.edge_port(kPortN, 2, 3), g.edge_port(kPortE, 3, 2)}));
  // Arriving from the W edge for a node of this board.
  r = board_routes(g, 0, 0, RouteMode::Xy, g.edge_port(kPortW, 0, 2), dst(0, 0, 3, 0));
  EXPECT_EQ(r.exits, std::vector<unsigned>{g.local_port(3, 0)});
  EXPECT_EQ(r.min_routers, 6u);
}

// Lanes: a packet for this node may eject on any lane; a packet injected on any lane routes as
// one from L; off this node nothing changes.
TEST(RouteRef, LocalLanes) {
  const RouterPlace c = place3(1, 1);
  const PortMask lanes4 = local_lanes(4);
  EXPECT_EQ(lanes4, 0xf0);
  EXPECT_EQ(local_lanes(1), L);
  for (RouteMode m : {RouteMode::Xy, RouteMode::NorthLast, RouteMode::MinAdaptive}) {
    for (unsigned in = 0; in < num_router_ports(4); ++in) {
      EXPECT_EQ(board_route_set(c, in, m, dst(2, 3, 1, 1), 4), lanes4) << port_name(in);
      EXPECT_EQ(board_route_set(c, in, m, dst(2, 3, 1, 1), 2), local_lanes(2)) << port_name(in);
    }
    for (unsigned lane = 0; lane < 4; ++lane) {
      for (const Destination& d : {dst(2, 3, 2, 0), dst(2, 3, 0, 2), dst(3, 3, 0, 0), dst(2, 5, 0, 1)}) {
        EXPECT_EQ(board_route_set(c, kPortL + lane, m, d, 4), board_route_set(c, kPortL, m, d, 1)) << "lane " << lane;
      }
    }
  }
  // Travelling north may still eject, on any lane.
  EXPECT_EQ(board_route_set(c, kPortS, RouteMode::NorthLast, dst(2, 3, 1, 1), 4), lanes4);
  EXPECT_THROW(board_route_set(c, kPortL, RouteMode::Xy, dst(2, 3, 1, 1), 0), std::invalid_argument);
  EXPECT_THROW(board_route_set(c, kPortL, RouteMode::Xy, dst(2, 3, 1, 1), 5), std::invalid_argument);
  EXPECT_STREQ(port_name(kPortL), "L");
  EXPECT_STREQ(port_name(kPortL + 3), "L3");
  EXPECT_EQ(port_mask_string(lanes4 | N), "{N,L,L1,L2,L3}");
}

// Port numbering of a plane with lanes: lane k of node n at k * nodes + n, edges after all lanes.
TEST(RouteRef, BoardGeometryWithLanes) {
  const BoardGeometry g{4, 4, 4};
  EXPECT_EQ(g.num_local(), 64u);
  EXPECT_EQ(g.num_external(), 80u);
  EXPECT_EQ(g.local_port(1, 2), 9u);
  EXPECT_EQ(g.local_port(1, 2, 0), 9u);
  EXPECT_EQ(g.local_port(1, 2, 3), 57u);
  EXPECT_EQ(g.edge_port(kPortN, 2, 3), 66u);
  EXPECT_EQ(g.edge_port(kPortW, 0, 3), 79u);
  for (unsigned e = 0; e < g.num_external(); ++e) {
    unsigned x = 0, y = 0, port = 0;
    g.router_of(e, x, y, port);
    if (e < g.num_local()) {
      EXPECT_EQ(port, kPortL + e / 16) << e;
      EXPECT_EQ(g.local_port(x, y, port - kPortL), e);
    } else {
      EXPECT_LT(port, kPortL) << e;
      EXPECT_EQ(g.edge_port(port, x, y), e);
    }
  }
  EXPECT_EQ(g.external_name(57), "L3(1,2)#57");
  EXPECT_EQ(g.external_name(9), "L(1,2)#9");
  unsigned x = 0, y = 0, port = 0;
  EXPECT_THROW(g.router_of(80, x, y, port), std::out_of_range);
  // One lane: the numbering of a plane before lanes existed.
  const BoardGeometry one{4, 4};
  EXPECT_EQ(one.local_port(1, 2), 9u);
  EXPECT_EQ(one.edge_port(kPortN, 2, 3), 18u);
  // A route across the board from lane 2 of (0,0) may end on any lane of (3,3).
  const BoardRoutes r = board_routes(g, 0, 0, RouteMode::Xy, g.local_port(0, 0, 2), dst(0, 0, 3, 3));
  EXPECT_EQ(r.exits, (std::vector<unsigned>{15, 31, 47, 63}));
  EXPECT_EQ(r.min_routers, 7u);
  EXPECT_EQ(r.max_routers, 7u);
  // From the W edge to (3,0): any lane of (3,0).
  const BoardRoutes w = board_routes(g, 0, 0, RouteMode::NorthLast, g.edge_port(kPortW, 0, 2), dst(0, 0, 3, 0));
  EXPECT_EQ(w.exits, (std::vector<unsigned>{3, 19, 35, 51}));
}

}  // namespace
}  // namespace hx
