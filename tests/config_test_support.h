// config_test_support.h: checking config errors, shared by the suites of the YAML loaders
// (config_test for `hxsim run` configs, cost_model_test for `hxsim cost` configs).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "config_reader.h"

namespace hx::test {

/// The ConfigError that load(yaml) throws; a test failure if there is none.
template <class Load>
ConfigError config_error_of(Load load, const std::string& yaml) {
  try {
    load();
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError for:\n" << yaml;
  return ConfigError({"(none)"}, "", "", "", "");
}

}  // namespace hx::test

// Checks the parts of an error at a position in t.yaml.
#define EXPECT_CONFIG_ERROR(err, line_, col_, path_, expected_, found_) \
  do {                                                                  \
    const ::hx::ConfigError& e_ = (err);                                \
    SCOPED_TRACE(e_.what());                                            \
    EXPECT_EQ(e_.file(), "t.yaml");                                     \
    EXPECT_EQ(e_.line(), (line_));                                      \
    EXPECT_EQ(e_.column(), (col_));                                     \
    EXPECT_EQ(e_.key_path(), (path_));                                  \
    EXPECT_EQ(e_.expected(), (expected_));                              \
    EXPECT_EQ(e_.found(), (found_));                                    \
  } while (0)
