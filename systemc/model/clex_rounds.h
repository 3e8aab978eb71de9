// clex_rounds.h: the round-based model of CLEX point-to-point routing at paper scale (section
// III of Lenzen and Wattenhofer): algorithm A_L of section II-D with section III's adaptations,
// on the single-link CLEX graph (topology/clex_graph.h). `hxsim model` runs it for a config with
// topology.kind clex (analytic_backend.cpp dispatches; clex_model.cpp writes the results).
//
// The paper's abstraction: synchronous rounds; in each, a link carries one message per unit of
// capacity (a clique link 1, a level-l link c_l, k in the plain form). Recursive calls on
// disjoint copies do not interfere, so, as the paper did, they run one after another and each
// call's rounds count from 1.
//
// A_l, l >= 2, on messages inside one level-l copy (section II-D, adapted by section III):
//   1. each message whose destination lies in another level-(l-1) copy j is sent, by A_{l-1},
//      to a node of its own copy that owns a link into copy j, drawn u.i.r. among the k^{l-2}
//      owners (d_0 = j, the digits between drawn);
//   2. each owner sends its messages over its level-l link, c_l per round (rounds = ceil(load /
//      c_l): the level's rounds, not counting recursive calls);
//   3. A_{l-1} in every level-(l-1) copy delivers all messages to their destinations.
// Messages already in the right level-(l-1) copy skip 1 and 2: in the single-link graph the
// paper's redundant edge into the own copy is omitted (clex_graph.h), so they have no link to
// cross; the paper's full graph sends them over it (its avg. hops are exactly 2^{L-l}).
//
// A_1, on one clique (section II-D's load-balancing loop, with section III's modifications):
//   phase 1 (round 1): along each link (the loop included: a node may send to itself, section
//     II-A) one message directly to its destination;
//   phase p >= 2: each remaining message is offered to first_copies x 2^{p-2} relays (at most k), the
//     requests spread over the clique so that every node gets the same number up to one. A
//     relay w takes a message s -> t if its link s -> w and its link w -> t are still free this
//     phase; the sender sends each message with a taker to one of them, which forwards it: two
//     hops, two rounds.
//   Relay mode "request" (dense traffic, III-A): the offer is a request of a few bits and the
//     message moves only after an acknowledgement; the request and acknowledgement of phase 2
//     cost 2 rounds before its data rounds, later ones overlap the previous phase's data rounds.
//     A message delivered in phase p arrives in round 2p+1 (1 in phase 1); the paper's maximum
//     (11 rounds = 5 phases) counts so. Its averages count only the data rounds (2p-1): they
//     match only then, and its text says the request delays do not contribute significantly.
//     Both are reported (avg_rounds: data rounds; avg_rounds_with_handshake).
//   Relay mode "direct" (light traffic, III-B): the offers are copies of the whole message, sent
//     at once; every copy sent is a hop, and each relay forwards one copy per destination link.
//     A message delivered in phase p arrives in round 2p-1.
//
// Reported per level (docs/results-reference.md, "hxsim model on a CLEX"): the largest number of
// rounds any instance of A_l took (excluding recursive calls), the average rounds a message
// spent on the level in total, the largest average load per node of any instance (messages in
// the call / its nodes), and the average hops a message made on the level.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hx::clex {

enum class RelayMode { Request, Direct };

struct RoundParams {
  unsigned k = 4, levels = 2;
  unsigned messages_per_node = 1;
  RelayMode relay = RelayMode::Request;
  /// Offers per remaining message in A_1's phase 2; each later phase doubles them (up to k).
  unsigned first_copies = 1;
  /// Messages per round of one link, per level (index 1..L; level 1 must be 1).
  std::vector<double> capacity;
  uint64_t seed = 1;
};

struct RoundLevelStats {
  unsigned max_rounds = 0;
  double avg_rounds = 0;                 // per message, summed over the calls
  double avg_rounds_with_handshake = 0;  // level 1 in request mode: with the 2 request rounds
  double max_avg_load = 0;
  double avg_hops = 0;
  uint64_t instances = 0;
};

struct RoundResults {
  uint64_t messages = 0;
  std::vector<RoundLevelStats> levels;  // index 1..L
  /// A_1 instances by the phases they ran (index = phases; the paper's Fig. 3 tail).
  std::vector<uint64_t> clique_phases;
  bool delivered = false;  // every message at its destination, each once
  double wall_s = 0;
};

/// Runs A_L once, from a uniformly random permutation of the multiset holding every node
/// messages_per_node times as destinations (each node sends and receives that many).
RoundResults run_rounds(const RoundParams& p);

/// "request" or "direct".
const char* relay_mode_name(RelayMode m);

}  // namespace hx::clex
