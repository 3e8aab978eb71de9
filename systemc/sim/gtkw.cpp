#include "gtkw.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace hx {

std::string gtkw_path_for(const std::string& fst_path) {
  std::filesystem::path p(fst_path);
  p.replace_extension(".gtkw");
  return p.string();
}

void gtkw_router(const SimConfig& cfg, unsigned& x, unsigned& y) {
  x = cfg.topology.board_x > 1 ? 1 : 0;
  y = cfg.topology.board_y > 1 ? 1 : 0;
}

std::vector<std::string> gtkw_signals(const SimConfig& cfg) {
  unsigned x = 0, y = 0;
  gtkw_router(cfg, x, y);
  const unsigned fw = cfg.link_word_bits();
  const std::string flit = "[" + std::to_string(fw - 1) + ":0]";
  const std::string r =
      "board0_plane0.hx_board_plane.g_row[" + std::to_string(y) + "].g_col[" + std::to_string(x) + "].u_router.";
  const unsigned node = y * cfg.topology.board_x + x;
  static const char* const kPorts[5] = {"N", "E", "S", "W", "L"};
  std::vector<std::string> s;
  s.push_back("links.clk");
  s.push_back("links.cycle[63:0]");
  for (unsigned p = 0; p < 5; ++p) {
    const std::string in = r + "g_in[" + std::to_string(p) + "].";
    const std::string out = r + "g_out[" + std::to_string(p) + "].";
    s.push_back(std::string("-Port ") + kPorts[p] + " of router (" + std::to_string(x) + "," + std::to_string(y) + ")");
    s.push_back(in + "in_valid");
    s.push_back(in + "in_flit" + flit);
    s.push_back(in + "in_credit");
    s.push_back(in + "in_credit_vc[1:0]");
    s.push_back(out + "out_valid");
    s.push_back(out + "out_flit" + flit);
    s.push_back(out + "out_credit");
    s.push_back(out + "out_credit_vc[1:0]");
    s.push_back("-");
  }
  for (const char* dir : {"inject", "eject"}) {
    const std::string l = "links.node" + std::to_string(node) + "_" + dir + ".";
    s.push_back(std::string("-Link node") + std::to_string(node) + "_" + dir);
    s.push_back(l + "valid");
    s.push_back(l + "type[1:0]");
    s.push_back(l + "vc[1:0]");
    s.push_back(l + "packet[31:0]");
    s.push_back(l + "flit" + flit);
    s.push_back(l + "credit");
    s.push_back(l + "credit_vc[1:0]");
    s.push_back("-");
  }
  s.push_back(r + "error_o[3:0]");
  return s;
}

void write_gtkw(const std::string& gtkw_path, const std::string& fst_path, const SimConfig& cfg) {
  std::ofstream out(gtkw_path);
  if (!out) throw std::runtime_error("cannot write " + gtkw_path);
  unsigned x = 0, y = 0;
  gtkw_router(cfg, x, y);
  // Display flags (GTKWave's trace flags): 0x22 hex, 0x28 binary, 0x24 decimal, 0x200 a
  // comment row, 0x800000 / 0x1000000 group begin / end.
  out << "[*] hxsim waveform: router (" << x << "," << y << ") of " << cfg.name << "\n"
      << "[dumpfile] \"" << std::filesystem::absolute(fst_path).string() << "\"\n"
      << "[savefile] \"" << std::filesystem::absolute(gtkw_path).string() << "\"\n"
      << "[timestart] 0\n[size] 1600 900\n[pos] -1 -1\n"
      << "[sst_width] 300\n[signals_width] 420\n[sst_expanded] 1\n[sst_vpaned_height] 300\n"
      << "[treeopen] board0_plane0.\n[treeopen] links.\n";
  std::string group;
  for (const std::string& sig : gtkw_signals(cfg)) {
    if (sig == "-") {
      out << "@1000200\n-" << group << "\n";
    } else if (sig[0] == '-') {
      group = sig.substr(1);
      out << "@800200\n-" << group << "\n";
    } else {
      const bool one_bit = sig.find('[') == std::string::npos;
      const bool decimal = sig.find("cycle") != std::string::npos || sig.find("packet") != std::string::npos;
      out << (one_bit ? "@28\n" : decimal ? "@24\n" : "@22\n") << sig << "\n";
    }
  }
  out << "[pattern_trace] 1\n[pattern_trace] 0\n";
}

}  // namespace hx
