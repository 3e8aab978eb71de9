#include "board.h"

#include <sstream>

namespace hx {

Board::Board(sc_core::sc_module_name name, std::vector<std::unique_ptr<PlaneModel>> planes,
             ErrorHandler on_error)
    : sc_core::sc_module(name),
      clk("clk"),
      planes_(std::move(planes)),
      on_error_(std::move(on_error)) {
  SC_HAS_PROCESS(Board);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void Board::on_clock() {
  const uint64_t t = cycle_++;
  for (auto& p : planes_) p->drive(t);
  if (observer_) {
    for (auto& p : planes_) p->settle();
    observer_(t);
  }
  for (auto& p : planes_) p->edge(t);
  if (failed_) return;
  for (unsigned i = 0; i < planes_.size(); ++i) {
    const unsigned bits = planes_[i]->error_bits();
    const uint64_t stray = planes_[i]->stray_flits();
    if (bits == 0 && stray == 0) continue;
    failed_ = true;
    std::ostringstream os;
    os << "cycle " << t << ": " << name() << " plane " << i << ": ";
    if (bits != 0) os << "router error_o = 0x" << std::hex << bits << std::dec << " ("
                      << describe_router_errors(bits) << ")";
    if (stray != 0) os << (bits ? "; " : "") << stray
                       << " flits left through an unconnected edge port (misrouted)";
    if (on_error_) on_error_(os.str());
    return;
  }
}

std::string describe_router_errors(unsigned bits) {
  static const char* const names[4] = {
      "a flit arrived that no input buffer can take", "a credit overflowed its counter",
      "a head needed VC+1 at a board edge and there was none",
      "a body or tail flit reached an input VC no head had allocated"};
  std::string s;
  for (unsigned b = 0; b < 4; ++b) {
    if ((bits >> b) & 1u) s += (s.empty() ? "" : "; ") + std::string(names[b]);
  }
  return s;
}

}  // namespace hx
