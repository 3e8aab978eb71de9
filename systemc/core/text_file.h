// text_file.h: the one way hxsim writes a results file: through a temporary file beside it,
// renamed into place, so that no reader (a sweep resuming, a script polling) sees half of it and
// a failed write leaves nothing behind.
#pragma once

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace hx {

inline void write_text_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (out) out << text;
    if (!out || !out.flush()) {
      out.close();
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw std::runtime_error("cannot write " + tmp);
    }
  }
  fs::rename(tmp, p);
}

}  // namespace hx
