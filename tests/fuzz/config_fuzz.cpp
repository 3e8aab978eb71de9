// config_fuzz.cpp: the libFuzzer target of the config loaders (config_input.h says what an input
// is and what counts as a bug). Built by `make fuzz` with clang-14, -fsanitize=fuzzer,address,
// undefined (CMake option HX_FUZZ), and run on a seed corpus made from configs/.
#include <cstddef>
#include <cstdint>

#include "config_input.h"

// libsystemc (the NVSwitch loader's library) refers to sc_main; libFuzzer has the main().
extern "C" int sc_main(int, char*[]) { return 0; }

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  hx::set_yaml_parse_limit_seconds(1.0);  // a hang costs the fuzzer 1 s, not the default 5
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  hx::fuzz::load(data, size);
  return 0;
}
