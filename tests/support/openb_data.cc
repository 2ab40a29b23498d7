#include "tests/support/openb_data.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace migsim::test {

std::string OpenbDataDir() {
  const char* env = std::getenv("MIGSIM_OPENB_DIR");
  std::string dir = env != nullptr && *env != '\0' ? env : MIGSIM_SOURCE_DIR "/../shared/data/openb";
  if (!dir.ends_with('/')) dir += '/';
  return dir;
}

// Catch2 v2 has no skip: leaving the process with CTest's skip code is the one way a test
// case can say "not run" instead of passing.
std::string OpenbDataDirOrSkip() {
  const std::string dir = OpenbDataDir();
  if (!std::filesystem::is_regular_file(dir + "openb_node_list_gpu_node.csv") ||
      !std::filesystem::is_regular_file(dir + "openb_pod_list_default.csv")) {
    std::printf("openb data not found in %s: skipped\n", dir.c_str());
    std::fflush(stdout);
    std::exit(77);
  }
  return dir;
}

}  // namespace migsim::test
