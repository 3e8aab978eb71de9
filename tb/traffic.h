// traffic.h: synthetic traffic for the board-plane benches.
//
// UniformTraffic models the accelerators of one board plane injecting packets at their local
// ports: each cycle each local port (every lane of every node) starts a packet with probability
// offered_load / mean length (offered_load in flits per local port per cycle), or, when
// saturating, keeps its source queue non-empty so it injects whenever the network accepts a
// flit. Destinations are uniform over
// the other nodes of the board; a fraction may go to a random node of another board of a
// boards_x * boards_y HammingMesh, and edge ports may inject packets that arrive from the trees
// (on VC edge_vc, as a packet that already took the VC+1 of a board exit). Lengths are uniform
// in [min_length, max_length]. Injection is on VC 0 (VcKeep endpoints) or, with random_vc, on a
// uniformly random VC (VcAny). All draws come from one seeded Rng.
#pragma once

#include <cstdint>

#include "bench_scoreboard.h"
#include "board_mesh.h"
#include "rng.h"

namespace hx {

struct UniformTrafficConfig {
  double offered_load = 0.2;  ///< flits per local port per cycle (ignored when saturating)
  bool saturate = false;      ///< keep every local source busy
  unsigned min_length = 4;
  unsigned max_length = 4;
  bool random_vc = false;  ///< inject on a random VC (VcAny) instead of VC 0
  unsigned num_vcs = 3;
  double offboard_fraction = 0.0;  ///< share of packets for another board
  unsigned boards_x = 4;           ///< global board grid, for off-board destinations
  unsigned boards_y = 4;
  double edge_load = 0.0;  ///< packets per edge port per cycle arriving from the trees
  unsigned edge_vc = 1;    ///< their VC
  uint64_t seed = 1;
};

class UniformTraffic {
 public:
  UniformTraffic(const UniformTrafficConfig& cfg, const BoardGeometry& geom, unsigned board_x, unsigned board_y)
      : cfg_(cfg), geom_(geom), board_x_(board_x), board_y_(board_y), rng_(cfg.seed) {}

  /// Generate this cycle's packets into the bench (call before each step()).
  template <class Bench>
  void tick(Bench& b) {
    const unsigned local = geom_.num_local();
    const double mean_len = 0.5 * (cfg_.min_length + cfg_.max_length);
    const double p_packet = cfg_.offered_load / mean_len;
    for (unsigned n = 0; n < local; ++n) {
      if (cfg_.saturate) {
        while (b.source(n).queued() < 2) {
          if (!emit(b, n, false)) break;
        }
      } else if (rng_.chance(p_packet)) {
        emit(b, n, false);
      }
    }
    if (cfg_.edge_load > 0.0) {
      for (unsigned e = local; e < geom_.num_external(); ++e) {
        if (rng_.chance(cfg_.edge_load)) emit(b, e, true);
      }
    }
  }

  /// A destination for a packet entering at external port `src`.
  Destination pick_destination(unsigned src, bool from_edge) {
    Destination d;
    d.board_x = board_x_;
    d.board_y = board_y_;
    const bool offboard =
        (cfg_.offboard_fraction > 0.0 && rng_.chance(cfg_.offboard_fraction) && cfg_.boards_x * cfg_.boards_y > 1);
    const unsigned nodes = geom_.num_nodes();
    if (offboard) {
      do {
        d.board_x = rng_.below(cfg_.boards_x);
        d.board_y = rng_.below(cfg_.boards_y);
      } while (d.board_x == board_x_ && d.board_y == board_y_);
      const unsigned n = rng_.below(nodes);
      d.node_x = n % geom_.size_x;
      d.node_y = n / geom_.size_x;
      return d;
    }
    unsigned n = rng_.below(nodes);
    if (!from_edge && nodes > 1) {
      n = rng_.below(nodes - 1);  // any other node than the source's (lane k of node i: k*N+i)
      if (n >= src % nodes) ++n;
    }
    d.node_x = n % geom_.size_x;
    d.node_y = n / geom_.size_x;
    return d;
  }

  uint64_t generated() const { return generated_; }
  uint64_t generated_flits() const { return generated_flits_; }
  uint64_t refused() const { return refused_; }  ///< source queue full
  UniformTrafficConfig& config() { return cfg_; }

 private:
  template <class Bench>
  bool emit(Bench& b, unsigned src, bool from_edge) {
    const Destination d = pick_destination(src, from_edge);
    const unsigned len = rng_.range(cfg_.min_length, cfg_.max_length);
    unsigned vc = from_edge ? cfg_.edge_vc : 0;
    if (cfg_.random_vc && !from_edge) vc = rng_.below(cfg_.num_vcs);
    if (b.send(b.make_packet(src, d, len, vc)) == kNoPacket) {
      ++refused_;
      return false;
    }
    ++generated_;
    generated_flits_ += len;
    return true;
  }

  UniformTrafficConfig cfg_;
  BoardGeometry geom_;
  unsigned board_x_, board_y_;
  Rng rng_;
  uint64_t generated_ = 0;
  uint64_t generated_flits_ = 0;
  uint64_t refused_ = 0;
};

}  // namespace hx
