// process_stats.h: what a run reports about the simulator process itself (results' `sim`).
#pragma once

#include <sys/resource.h>

namespace hx {

/// The process's peak resident memory so far, in MB.
inline double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

}  // namespace hx
