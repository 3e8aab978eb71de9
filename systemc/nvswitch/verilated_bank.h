// verilated_bank.h: ReductionBank over a Verilated hx_switch_reduction model (class M).
// Included by the generated reduction_registry.cpp only, once per built table size.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "reduction_bank.h"
#include "verilated_ports.h"

namespace hx::nv {

template <class M>
class VerilatedBank final : public ReductionBank {
 public:
  VerilatedBank(unsigned entries, uint32_t timeout)
      : ctx_(std::make_unique<VerilatedContext>()),
        model_(std::make_unique<M>(ctx_.get(), "reduction")),
        entries_(entries) {
    occ_width_ = 1;
    while ((1u << occ_width_) < entries + 1) ++occ_width_;
    model_->timeout_i = timeout;
    model_->now_i = 0;
    model_->in_valid_i = 0;
    model_->out_ready_i = 0;
    model_->rst_ni = 0;
    model_->clk_i = 0;
    model_->eval();
    model_->clk_i = 1;
    model_->eval();
    model_->rst_ni = 1;
    model_->clk_i = 0;
    model_->eval();
  }
  ~VerilatedBank() override {
    if (fst_) fst_->close();
    model_->final();
  }

  unsigned entries() const override { return entries_; }

  void cycle(uint64_t now, std::array<BankPortIo, kPorts>& io) override {
    M& m = *model_;
    uint32_t in_valid = 0, out_ready = 0;
    for (unsigned p = 0; p < kPorts; ++p) {
      if (io[p].in_valid) {
        in_valid |= 1u << p;
        for (unsigned w = 0; w < 4; ++w) m.in_flit_i[4 * p + w] = io[p].in_flit[w];
      }
      if (io[p].out_ready) out_ready |= 1u << p;
    }
    m.in_valid_i = in_valid;
    m.out_ready_i = out_ready;
    m.now_i = static_cast<uint32_t>(now);
    m.clk_i = 0;
    m.eval();  // settle: the handshakes of this cycle
    if (fst_) fst_->dump(2 * now);
    for (unsigned p = 0; p < kPorts; ++p) {
      BankPortIo& o = io[p];
      o.in_ready = (m.in_ready_o >> p) & 1u;
      o.out_valid = (m.out_valid_o >> p) & 1u;
      if (o.out_valid)
        for (unsigned w = 0; w < 4; ++w) o.out_flit[w] = m.out_flit_o[4 * p + w];
      o.occupancy = static_cast<unsigned>(get_bits(m.occupancy_o, occ_width_ * p, occ_width_));
    }
    m.clk_i = 1;
    m.eval();
    if (fst_) fst_->dump(2 * now + 1);
  }

  void trace(const std::string& path) override {
    if constexpr (kHasFstTrace<M>) {
      ctx_->traceEverOn(true);
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), 99);
      fst_->open(path.c_str());
    } else {
      throw std::logic_error("reduction unit of " + std::to_string(entries_) +
                             " entries was built without waveform support");
    }
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> model_;
  std::unique_ptr<VerilatedFstC> fst_;
  unsigned entries_, occ_width_ = 1;
};

}  // namespace hx::nv
