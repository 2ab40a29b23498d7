#include "sim/cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace migsim {

bool ShowsProgress(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

ProgressFn TerminalProgress(bool show, const char* what) {
  if (!show) return nullptr;
  return [what](size_t done, size_t total) {
    std::fprintf(stderr, "\r[%zu/%zu] %s", done, total, what);
  };
}

}  // namespace migsim
