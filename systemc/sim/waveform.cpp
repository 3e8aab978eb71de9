#include "waveform.h"

#include <fstream>
#include <stdexcept>

#include <systemc.h>  // before Verilator's headers (::sc_time_stamp)

#include "verilated.h"
#include "verilated_fst_c.h"

namespace hx {

// The links' part of the trace: codes allocated in the init callback, values written by the
// full/change callbacks that Verilator calls on every dump.
struct Waveform::LinkTrace {
  // Codes per link: valid, type, vc, flit (up to 5 words), packet, credit, credit_vc.
  static constexpr uint32_t kCodesPerLink = 11;
  std::vector<FlitLink*> links;
  FlitFormat fmt;
  uint32_t base = 0;
  bool clk = false;
  uint64_t cycle = 0;

  // One writer for both callbacks: a full dump writes every value, a change dump only those
  // that differ from the last dump.
  template <bool Full>
  struct Put {
    VerilatedFst::Buffer* b;
    void bit(uint32_t* o, bool v) const {
      if constexpr (Full)
        b->fullBit(o, v);
      else
        b->chgBit(o, v);
    }
    void bus(uint32_t* o, uint32_t v, int bits) const {
      if constexpr (Full)
        b->fullIData(o, v, bits);
      else
        b->chgIData(o, v, bits);
    }
    void quad(uint32_t* o, uint64_t v) const {
      if constexpr (Full)
        b->fullQData(o, v, 64);
      else
        b->chgQData(o, v, 64);
    }
    void wide(uint32_t* o, const WData* v, int bits) const {
      if constexpr (Full)
        b->fullWData(o, v, bits);
      else
        b->chgWData(o, v, bits);
    }
  };

  template <bool Full>
  void dump(VerilatedFst::Buffer* b) {
    const Put<Full> put{b};
    uint32_t* o = b->oldp(base);
    put.bit(o + 0, clk);
    put.quad(o + 1, cycle);
    o += 3;
    const int fw = static_cast<int>(fmt.flit_width());
    for (FlitLink* l : links) {
      const Flit* fp = l->wire_flit(cycle);
      const bool v = fp != nullptr;
      const Flit f = v ? *fp : Flit{FlitType::Body, 0, {}};
      const LinkWord w = f.pack(fmt);
      WData words[6] = {};
      for (unsigned i = 0; i < 3; ++i) {
        words[2 * i] = static_cast<uint32_t>(w[i]);
        words[2 * i + 1] = static_cast<uint32_t>(w[i] >> 32);
      }
      const uint32_t packet = (v && is_head(f.type)) ? read_tag(fmt, f.payload).packet_id : 0;
      const int cvc = l->wire_credit_vc(cycle);
      put.bit(o + 0, v);
      put.bus(o + 1, static_cast<uint32_t>(f.type), 2);
      put.bus(o + 2, f.vc, 2);
      put.wide(o + 3, words, fw);
      put.bus(o + 8, packet, 32);
      put.bit(o + 9, cvc >= 0);
      put.bus(o + 10, static_cast<uint32_t>(cvc >= 0 ? cvc : 0), 2);
      o += kCodesPerLink;
    }
  }

  static void full_cb(void* self, VerilatedFst::Buffer* b) { static_cast<LinkTrace*>(self)->dump<true>(b); }
  static void chg_cb(void* self, VerilatedFst::Buffer* b) { static_cast<LinkTrace*>(self)->dump<false>(b); }
  static void init_cb(void* self, VerilatedFst* t, uint32_t code) {
    auto* lt = static_cast<LinkTrace*>(self);
    lt->base = code;
    const int fw = static_cast<int>(lt->fmt.flit_width());
    t->pushNamePrefix("links ");
    t->declBit(code + 0, "clk", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1);
    t->declQuad(code + 1, "cycle", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, 63, 0);
    uint32_t c = code + 3;
    for (FlitLink* l : lt->links) {
      t->pushNamePrefix(std::string(l->basename()) + ' ');
      t->declBit(c + 0, "valid", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1);
      t->declBus(c + 1, "type", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, 1, 0);
      t->declBus(c + 2, "vc", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, 1, 0);
      t->declArray(c + 3, "flit", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, fw - 1, 0);
      t->declBus(c + 8, "packet", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, 31, 0);
      t->declBit(c + 9, "credit", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1);
      t->declBus(c + 10, "credit_vc", -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, 1, 0);
      t->popNamePrefix();
      c += kCodesPerLink;
    }
    t->popNamePrefix();
  }
};

Waveform::Waveform(std::string path, uint64_t from, uint64_t to, uint64_t period_ps, FlitFormat fmt)
    : path_(std::move(path)),
      from_(from),
      to_(to),
      period_ps_(period_ps),
      fmt_(fmt),
      fst_(std::make_unique<VerilatedFstC>()),
      links_(std::make_unique<LinkTrace>()) {
  links_->fmt = fmt;
}

Waveform::~Waveform() { close(); }

void Waveform::add_plane(PlaneModel& plane) { plane.trace(fst_.get(), 99); }

void Waveform::add_link(FlitLink* link) { links_->links.push_back(link); }

void Waveform::open() {
  VerilatedFst* sp = fst_->spTrace();
  sp->addInitCb(&LinkTrace::init_cb, links_.get());
  sp->addFullCb(&LinkTrace::full_cb, links_.get());
  sp->addChgCb(&LinkTrace::chg_cb, links_.get());
  fst_->set_time_unit("1ps");
  fst_->set_time_resolution("1ps");
  fst_->open(path_.c_str());
  if (!fst_->isOpen()) throw std::runtime_error("cannot open trace file " + path_);
  open_ = true;
}

void Waveform::dump(uint64_t t) {
  if (!open_ || t < from_ || t > to_) return;
  // Called with every model showing cycle t (inputs driven, registers not yet clocked).
  // A clock for the eye: high in the first half of the cycle, low in the second.
  links_->cycle = t;
  links_->clk = true;
  fst_->dump(t * period_ps_);
  links_->clk = false;
  fst_->dump(t * period_ps_ + period_ps_ / 2);
}

void Waveform::close() {
  if (open_) {
    fst_->close();
    open_ = false;
  }
}

}  // namespace hx
