#include "sim/cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace migsim {

bool ShowsProgress(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

ProgressFn TerminalProgress(bool show, const char* what) {
  if (!show) return nullptr;
  return [what](size_t done, size_t total) {
    std::fprintf(stderr, "\r[%zu/%zu] %s", done, total, what);
  };
}

namespace {

std::string Duration(double seconds) {
  char text[32];
  const double hours = seconds / 3600;
  if (seconds < 3600) {
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  } else if (std::abs(hours - std::round(hours)) < 0.05) {  // "24 h", not "24.0 h"
    std::snprintf(text, sizeof text, "%.0f h", hours);
  } else {
    std::snprintf(text, sizeof text, "%.1f h", hours);
  }
  return text;
}

}  // namespace

std::string SimulatedProgress(SimTime now, SimTime horizon) {
  std::string out = "t=" + Duration(now.seconds());
  if (horizon == SimTime::Max() || horizon.micros() <= 0) return out;
  const double fraction = std::min(1.0, now.seconds() / horizon.seconds());
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.0f%%", 100 * fraction);
  return out + " of " + Duration(horizon.seconds()) + ", " + percent;
}

}  // namespace migsim
