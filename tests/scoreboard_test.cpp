// The shared packet scoreboard (systemc/core/scoreboard.h), on its own: each outcome it must
// tell apart, for unicast and multicast packets, and the sliding window of records.
#include <gtest/gtest.h>

#include <stdexcept>

#include "scoreboard.h"

namespace hx {
namespace {

using Board = Scoreboard<>;

Board::Id sent(Board& sb, int32_t src, int32_t dst, uint64_t hash = 0) {
  const Board::Id id = sb.create(src, dst, 0, 1, hash);
  sb.injected(*sb.find(id));
  return id;
}

// A whole copy arrives (a packet-granular model): arrival and completion at once.
Board::Outcome deliver(Board& sb, Board::Id id, int32_t at, bool addressed, uint64_t hash = 0) {
  const Board::Arrival a = sb.arrive(id, at, addressed, 1);
  if (a.record != nullptr) {
    sb.payload_ok(id, *a.record, hash, at, 1);
    sb.complete(id, *a.record, 1);
  }
  return a.outcome;
}

TEST(Scoreboard, UnicastArrivesOnceIntactAtItsDestination) {
  Board sb;
  const Board::Id a = sent(sb, 0, 1, 0xabc), b = sent(sb, 1, 0, 0xdef);
  EXPECT_EQ(sb.outstanding(), 2u);
  EXPECT_EQ(deliver(sb, a, 1, true, 0xabc), Board::Outcome::Ok);
  EXPECT_EQ(deliver(sb, b, 0, true, 0xdef), Board::Outcome::Ok);
  const ScoreboardCounts& c = sb.counts();
  EXPECT_EQ(c.created, 2u);
  EXPECT_EQ(c.injected, 2u);
  EXPECT_EQ(c.delivered, 2u);
  EXPECT_EQ(c.duplicated + c.corrupted + c.misdelivered, 0u);
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_TRUE(sb.messages().empty());
}

TEST(Scoreboard, TellsDuplicateMisdeliveredCorruptedUnknownAndLost) {
  Board sb;
  const Board::Id a = sent(sb, 0, 1, 7), b = sent(sb, 0, 2, 8), c = sent(sb, 0, 3, 9);
  sent(sb, 0, 4);                                // never arrives: lost
  const Board::Id waiting = sb.create(0, 5, 0);  // created, not injected
  EXPECT_EQ(deliver(sb, a, 1, true, 7), Board::Outcome::Ok);
  EXPECT_EQ(deliver(sb, a, 1, true, 7), Board::Outcome::Duplicate) << "retired already";
  EXPECT_EQ(deliver(sb, b, 3, false, 8), Board::Outcome::Misdelivered);
  EXPECT_EQ(deliver(sb, c, 3, true, 10), Board::Outcome::Ok) << "arrived; its payload is checked apart";
  EXPECT_EQ(deliver(sb, waiting, 5, true), Board::Outcome::Unknown);
  EXPECT_EQ(deliver(sb, 1000, 5, true), Board::Outcome::Unknown);
  const ScoreboardCounts& n = sb.counts();
  EXPECT_EQ(n.duplicated, 1u);
  EXPECT_EQ(n.misdelivered, 1u);
  EXPECT_EQ(n.corrupted, 3u) << "the payload of c, the arrival before injection, the unknown id";
  EXPECT_EQ(n.delivered, 3u);
  EXPECT_EQ(sb.outstanding(), 2u) << "the lost packet and the one never injected";
  ASSERT_GE(sb.messages().size(), 3u);
  EXPECT_NE(sb.messages()[1].find("for endpoint 2 arrived at endpoint 3"), std::string::npos) << sb.messages()[1];
}

TEST(Scoreboard, MulticastCountsCopiesAndTheSetTheyReached) {
  Board sb;
  sb.set_namer([](int32_t e) { return "GPU " + std::to_string(e); });
  auto multicast = [&sb]() {
    const Board::Id id = sb.create(0, -1, 0, 3);
    Board::Record& r = *sb.find(id);
    for (int32_t g : {1, 2, 3}) sb.address(r, g);
    sb.injected(r);
    return id;
  };
  const Board::Id good = multicast();
  for (int32_t g : {3, 1, 2}) EXPECT_EQ(deliver(sb, good, g, true), Board::Outcome::Ok);
  EXPECT_EQ(sb.counts().delivered, 1u) << "one packet, done when its last copy arrived";
  EXPECT_EQ(sb.counts().duplicated, 0u);

  // Three copies, but GPU 2 got two and GPU 3 none: the count is right, the set is not.
  const Board::Id twice = multicast();
  for (int32_t g : {1, 2, 2}) EXPECT_EQ(deliver(sb, twice, g, true), Board::Outcome::Ok);
  EXPECT_EQ(sb.counts().duplicated, 1u);
  EXPECT_NE(sb.messages().back().find("not every endpoint"), std::string::npos) << sb.messages().back();

  // A fourth copy is a duplicate; a copy short is still outstanding.
  const Board::Id extra = multicast();
  for (int32_t g : {1, 2, 3}) deliver(sb, extra, g, true);
  EXPECT_EQ(deliver(sb, extra, 3, true), Board::Outcome::Duplicate);
  const Board::Id short_one = multicast();
  deliver(sb, short_one, 1, true);
  deliver(sb, short_one, 2, true);
  EXPECT_EQ(sb.outstanding(), 1u);
  EXPECT_EQ(sb.counts().duplicated, 2u);
  EXPECT_THROW(sb.create(0, -1, 0, 0), std::invalid_argument) << "a packet goes somewhere";
  EXPECT_THROW(sb.create(0, -1, 0, 70000), std::invalid_argument) << "more copies than a record counts";
}

TEST(Scoreboard, WindowSlidesAndGrowsWithPacketsInFlight) {
  Board sb(4);  // a window of 4 records to start with
  std::vector<Board::Id> held;
  for (int i = 0; i < 100; ++i) held.push_back(sent(sb, 0, 1));  // 100 in flight: the window grows
  for (Board::Id id = 1; id < 100; ++id) EXPECT_EQ(deliver(sb, id, 1, true), Board::Outcome::Ok);
  EXPECT_EQ(sb.outstanding(), 1u) << "packet 0 holds the window's base";
  uint64_t live = 0;
  sb.for_each_live([&live](Board::Id, const Board::Record&) { ++live; });
  EXPECT_EQ(live, 100u) << "nothing retires before the oldest packet is done";
  EXPECT_EQ(deliver(sb, 0, 1, true), Board::Outcome::Ok);
  live = 0;
  sb.for_each_live([&live](Board::Id, const Board::Record&) { ++live; });
  EXPECT_EQ(live, 0u);
  EXPECT_EQ(deliver(sb, 50, 1, true), Board::Outcome::Duplicate) << "a retired id arriving again";
  for (int i = 0; i < 1000; ++i) deliver(sb, sent(sb, 2, 3), 3, true);  // steady state: no growth needed
  EXPECT_EQ(sb.counts().delivered, 1100u);
}

}  // namespace
}  // namespace hx
