// config_fuzz.cpp: the libFuzzer target of the config loaders (config_input.h says what an input
// is and what counts as a bug). Built by `make fuzz` with clang-14, -fsanitize=fuzzer,address,
// undefined (CMake option HX_FUZZ), and run on a seed corpus made from configs/.
#include <cstddef>
#include <cstdint>

#include "config_input.h"

// libsystemc (the NVSwitch loader's library) refers to sc_main; libFuzzer has the main().
extern "C" int sc_main(int, char*[]) { return 0; }

// No child parse here: a fork per input of this ASan process (hundreds of MB) ran the fuzzer at
// 20 inputs per second instead of hundreds. libFuzzer's own -timeout catches a text yaml-cpp does
// not return on (`make fuzz` runs in fork mode and goes on past one); fuzz_regression_test
// checks that the guard refuses each such text found so far.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  hx::set_yaml_parse_limit_seconds(0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  hx::fuzz::load(data, size);
  return 0;
}
