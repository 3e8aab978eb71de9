// cost_test_support.h: what the cost model's suites share (cost_model_test without the binary,
// cost_cli_test through it).
#pragma once

#include <string>

namespace hx::cost_test {

const std::string kConfigDir = HX_CONFIG_DIR;

// The smallest valid cost config: lines 1-5. Tests append topology lines from line 6 on.
const std::string kBase =
    "cluster:\n"
    "  endpoints: 1024\n"
    "topologies:\n"
    "  - name: ft\n"
    "    kind: fat_tree\n";

}  // namespace hx::cost_test
