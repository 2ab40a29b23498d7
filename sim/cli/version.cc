#include "sim/cli/version.h"

// Generated at build time by cmake/WriteVersionHeader.cmake; this is the one file that
// includes it, so a new commit recompiles this file alone.
#include "sim/cli/build_version.h"

namespace migsim {

std::string VersionLine() {
  return std::string("migsim ") + MIGSIM_VERSION + " (commit " + MIGSIM_COMMIT + ")";
}

}  // namespace migsim
