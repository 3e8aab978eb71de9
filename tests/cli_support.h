// cli_support.h: running the hxsim executable from a GoogleTest, for the end-to-end suites.
//
// Each test runs the real binary (HXSIM_EXE, set by tests/CMakeLists.txt), so each run is its
// own process with its own SystemC elaboration.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <ostream>
#include <string>

namespace hx::test {

struct CliResult {
  int exit_code = -1;
  std::string output;  ///< stdout and stderr
};

/// Run a shell command, capturing its output (stdout and stderr) and exit code.
inline CliResult run_command(const std::string& command) {
  const std::string cmd = command + " 2>&1";
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Run `hxsim ARGS` (in directory `cwd`, if given), capturing its output and exit code.
inline CliResult hxsim(const std::string& args, const std::string& cwd = "") {
  return run_command((cwd.empty() ? std::string() : "cd '" + cwd + "' && ") + std::string(HXSIM_EXE) + " " + args);
}

/// A fresh, empty directory for the current test: TMPDIR/<suite_dir>/<suite>.<test>.
inline std::filesystem::path scratch_dir(const std::string& suite_dir) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const std::filesystem::path d = std::filesystem::temp_directory_path() / suite_dir / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

/// One parameter of a test that runs a shipped config with overrides (the flow-versus-cycle
/// suites): its name, the config under configs/, and the `--set` arguments. gtest prints it by name.
struct ConfigCase {
  const char* name;
  const char* config;
  std::string sets;
};
inline void PrintTo(const ConfigCase& c, std::ostream* os) { *os << c.name; }

/// `hxsim VERB configs/CONFIG ARGS --quiet --out FILE`, run in the source tree (HX_SOURCE_DIR),
/// into FILE = <scratch_dir(suite_dir)>/<name>_<verb>.json; expects exit 0 and returns FILE.
inline std::filesystem::path hxsim_results(const std::string& suite_dir, const std::string& name,
                                           const std::string& verb, const std::string& config,
                                           const std::string& args) {
  const std::filesystem::path out = scratch_dir(suite_dir) / (name + "_" + verb + ".json");
  const CliResult r = hxsim(verb + " configs/" + config + " " + args + " --quiet --out '" + out.string() + "'",
#ifdef HX_SOURCE_DIR
                            HX_SOURCE_DIR
#else
                            ""
#endif
  );
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return out;
}

}  // namespace hx::test
