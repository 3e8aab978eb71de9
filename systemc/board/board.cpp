#include "board.h"

#include <algorithm>
#include <sstream>

namespace hx {

BoardArray::BoardArray(sc_core::sc_module_name name, std::vector<Board> boards, ErrorHandler on_error, unsigned threads,
                       const std::vector<bool>& stepped)
    : sc_core::sc_module(name), clk("clk"), boards_(std::move(boards)), on_error_(std::move(on_error)) {
  for (Board& b : boards_) {
    for (auto& p : b.planes) {
      if (stepped.empty() || stepped.at(num_planes_)) planes_.push_back(p.get());
      ++num_planes_;
    }
  }
  SC_HAS_PROCESS(BoardArray);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  if (threads > 1 && planes_.size() > 1) {
    threads_ = std::min<unsigned>(threads, static_cast<unsigned>(planes_.size()));
    pool_ = std::make_unique<WorkerPool>(threads_ - 1, static_cast<unsigned>(planes_.size()),
                                         [this](unsigned i) { step_plane(i, pool_cycle_); });
    SC_METHOD(on_clock_low);
    sensitive << clk.neg();
    dont_initialize();
  }
}

BoardArray::~BoardArray() {
  if (launched_) {
    try {
      pool_->finish();
    } catch (...) {  // a destructor does not throw; the run reported it already or is failing
    }
  }
}

void BoardArray::launch() {
  pool_cycle_ = cycle_++;
  launched_ = true;
  pool_->start();
}

void BoardArray::finish() {
  if (!launched_) return;
  launched_ = false;
  pool_->finish();
  if (!failed_) check(pool_cycle_);
}

void BoardArray::on_clock_low() {
  if (!launched_) return;  // stepping on the rising edge (an observer is set)
  finish();
  if (!failed_) launch();  // a model error ends the run with this cycle
}

void BoardArray::on_clock() {
  if (pool_ && !observer_) {
    if (!launched_) launch();  // the first cycle; the later ones start at the falling edge before
    return;
  }
  const uint64_t t = cycle_++;
  if (observer_) {
    for (PlaneModel* p : planes_) p->drive(t);
    for (PlaneModel* p : planes_) p->settle();
    observer_(t);
    for (PlaneModel* p : planes_) p->edge(t);
  } else {
    for (unsigned i = 0; i < planes_.size(); ++i) step_plane(i, t);
  }
  if (!failed_) check(t);
}

// One plane at a time, inputs to outputs, while its model is in the cache, and the next one
// (most likely this thread's next) is fetched. Exact in any order and on any thread: a plane's
// drive(t) reads only what its links deliver in cycle t, which no edge(t) of any plane can
// change (a link's writes in cycle t land in cycle t+1 or later, flit_link.h).
void BoardArray::step_plane(unsigned i, uint64_t t) {
  if (i + 1 < planes_.size()) planes_[i + 1]->prefetch();
  planes_[i]->drive(t);
  planes_[i]->edge(t);
}

void BoardArray::check(uint64_t t) {
  for (const Board& b : boards_) {
    for (unsigned i = 0; i < b.planes.size(); ++i) {
      const unsigned bits = b.planes[i]->error_bits();
      const uint64_t stray = b.planes[i]->stray_flits();
      if (bits == 0 && stray == 0) continue;
      failed_ = true;
      std::ostringstream os;
      os << "cycle " << t << ": " << b.name << " plane " << i << ": ";
      if (bits != 0)
        os << "router error_o = 0x" << std::hex << bits << std::dec << " (" << describe_router_errors(bits) << ")";
      if (stray != 0) os << (bits ? "; " : "") << stray << " flits left through an unconnected edge port (misrouted)";
      if (on_error_) on_error_(os.str());
      return;
    }
  }
}

std::string describe_router_errors(unsigned bits) {
  static const char* const names[4] = {"a flit arrived that no input buffer can take",
                                       "a credit overflowed its counter",
                                       "a head needed VC+1 at a board edge and there was none",
                                       "a body or tail flit reached an input VC no head had allocated"};
  std::string s;
  for (unsigned b = 0; b < 4; ++b) {
    if ((bits >> b) & 1u) s += (s.empty() ? "" : "; ") + std::string(names[b]);
  }
  return s;
}

}  // namespace hx
