// fuzz_regression_test.cpp: every input the config fuzzer (`make fuzz`, config_fuzz.cpp) found
// that broke a loader, replayed on every `make test`. Each file of tests/fuzz/regressions/ is one
// input as config_input.h defines it; the loaders must refuse it with a ConfigError or load it,
// never crash or throw anything else. A new finding: copy the fuzzer's crash file there, fix the
// loader, and this test keeps it fixed. The shipped configs (the seed corpus) must load.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "config_input.h"

extern "C" int sc_main(int, char*[]) { return 0; }  // libsystemc needs one (the NVSwitch loader's library)

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(FuzzRegressions, EveryFoundInputIsRefusedOrLoadedCleanly) {
  // The yaml_hang_* inputs run into the child parse's time limit: 1 s each, not the default 5.
  hx::set_yaml_parse_limit_seconds(1.0);
  unsigned n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(HX_FUZZ_REGRESSIONS)) {
    if (!e.is_regular_file() || e.path().extension() == ".md") continue;
    const std::vector<uint8_t> input = read_bytes(e.path());
    EXPECT_NO_THROW(hx::fuzz::load(input.data(), input.size())) << e.path();
    ++n;
  }
  EXPECT_GT(n, 0u) << "no inputs in " << HX_FUZZ_REGRESSIONS;
}

// The seed corpus is the shipped configs with the loader hxsim would use: each must load (else the
// fuzzer starts from nothing but errors), and a broken one must be refused, not crash.
TEST(FuzzRegressions, TheSeedCorpusLoadsAndItsBreakagesAreRefused) {
  const auto input = [](hx::fuzz::Loader l, const std::string& text) {
    std::vector<uint8_t> v{static_cast<uint8_t>(l)};
    v.insert(v.end(), text.begin(), text.end());
    return v;
  };
  const auto file = [](const std::string& name) {
    std::ifstream in(std::string(HX_CONFIG_DIR) + "/" + name);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  using L = hx::fuzz::Loader;
  for (const auto& [loader, name] : std::vector<std::pair<L, std::string>>{
           {L::Fabric, "mesh8x8_uniform.yaml"}, {L::NvSwitch, "dgx2_push.yaml"}, {L::Cost, "cost_small.yaml"}}) {
    const std::vector<uint8_t> ok = input(loader, file(name));
    EXPECT_TRUE(hx::fuzz::load(ok.data(), ok.size())) << name;
    const std::vector<uint8_t> bad = input(loader, file(name) + "\n#--set\nno.such.key=1\n");
    EXPECT_FALSE(hx::fuzz::load(bad.data(), bad.size())) << name;
  }
}

}  // namespace
