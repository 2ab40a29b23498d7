#include "sim/study/openb/openb_data_dir.h"

#include <filesystem>

namespace migsim {
namespace {

namespace fs = std::filesystem;

bool HoldsNodes(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / "openb_node_list_gpu_node.csv", ec);
}

std::string Normal(const fs::path& p) { return p.lexically_normal().string(); }

}  // namespace

std::string OpenbDataDir::LookedMessage() const {
  std::string places;
  for (const std::string& p : looked) places += (places.empty() ? "" : ", ") + p;
  return "looked in: " + places + " (set --data DIR or $MIGSIM_OPENB_DIR)";
}

OpenbDataDir FindOpenbDataDir(const std::string& given, const std::string& env,
                              const std::string& program_dir) {
  OpenbDataDir found;
  for (const std::string& set : {given, env}) {
    if (set.empty()) continue;
    found.dir = set;
    found.looked = {set};
    return found;
  }
  if (!program_dir.empty()) {
    const fs::path dir(program_dir);
    found.looked.push_back(Normal(dir / "../../shared/data/openb"));
    found.looked.push_back(Normal(dir / "../share/migsim/data/openb"));
  }
  found.looked.push_back(Normal(fs::path(MIGSIM_INSTALL_PREFIX) / "share/migsim/data/openb"));
  found.looked.push_back("../shared/data/openb");
  for (const std::string& place : found.looked) {
    if (HoldsNodes(place)) {
      found.dir = place;
      break;
    }
  }
  return found;
}

std::string ExecutableDirectory() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

}  // namespace migsim
