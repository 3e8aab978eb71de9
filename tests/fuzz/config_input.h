// config_input.h: one fuzz input fed to the config loaders, for the fuzz target (config_fuzz.cpp,
// `make fuzz`) and for the regression test that replays every input the fuzzer ever broke
// (fuzz_regression_test.cpp, in `make test`).
//
// An input is a selector byte and a text. The selector (mod 4) picks the loader, as hxsim picks it
// from the command and the topology kind: a system config of the fabric model (load_config_text),
// an NVSwitch-like system's (load_nv_config_text), a cost config, an allocation config. The text
// is the YAML, optionally followed by a line "#--set" and then one `--set` override per line
// ("key.path=value"), so that the overrides' parser is fuzzed too.
//
// The contract under test: a loader either returns a valid config or throws hx::ConfigError (the
// CLI turns that into the file, line, key, expected and found, and exit 2). Any other exception,
// a crash, a hang or a leak is a bug; load() lets it through for the fuzzer (or the test) to see.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "alloc_config.h"
#include "config_reader.h"
#include "cost_config.h"
#include "nv_config.h"
#include "sim_config.h"

namespace hx::fuzz {

enum class Loader : uint8_t { Fabric, NvSwitch, Cost, Alloc };
constexpr const char* kSetMarker = "\n#--set\n";

/// Feeds `data` to the loader its first byte picks. Returns true if the config loaded, false if
/// the loader refused it with a ConfigError.
inline bool load(const uint8_t* data, std::size_t size) {
  if (size == 0) return false;
  const auto loader = static_cast<Loader>(data[0] % 4);
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::string> sets;
  if (const std::size_t at = text.find(kSetMarker); at != std::string::npos) {
    std::string rest = text.substr(at + std::char_traits<char>::length(kSetMarker));
    text.resize(at);
    for (std::size_t b = 0; b <= rest.size();) {
      const std::size_t e = std::min(rest.find('\n', b), rest.size());
      if (e > b) sets.push_back(rest.substr(b, e - b));
      b = e + 1;
    }
  }
  try {
    switch (loader) {
      case Loader::Fabric: load_config_text(text, "fuzz.yaml", sets); break;
      case Loader::NvSwitch: nv::load_nv_config_text(text, "fuzz.yaml", sets); break;
      case Loader::Cost: cost::load_cost_config_text(text, "fuzz.yaml", sets); break;
      // A distribution file is read relative to a directory that has none: what it names is refused.
      case Loader::Alloc: alloc::load_alloc_config_text(text, "fuzz.yaml", sets, "/nonexistent"); break;
    }
  } catch (const ConfigError&) {
    return false;
  }
  return true;
}

}  // namespace hx::fuzz
