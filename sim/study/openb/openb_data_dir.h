#pragma once
// Where `migsim openb` and the Python module's openb look for the openb CSVs (the
// directory holding openb_node_list_gpu_node.csv and the openb_pod_list_*.csv traces):
//   1. the directory given (--data DIR, Python's data=), as it is;
//   2. $MIGSIM_OPENB_DIR, as it is;
//   3. beside the program: <dir>/../../shared/data/openb, where a build tree's
//      <repo>/build/migsim finds <repo>/../shared/data/openb, then
//      <dir>/../share/migsim/data/openb, where an installed <prefix>/bin/migsim finds
//      <prefix>/share/migsim/data/openb;
//   4. the install prefix the program was built for: <CMAKE_INSTALL_PREFIX>/share/migsim/
//      data/openb;
//   5. ../shared/data/openb from the current directory.
// Places 3-5 count only when they hold the node CSV; the first that does is taken.

#include <string>
#include <vector>

namespace migsim {

struct OpenbDataDir {
  std::string dir;                  // "" when no place holds the data
  std::vector<std::string> looked;  // every place looked at, in order
  // "looked in: A, B, C (set --data DIR or $MIGSIM_OPENB_DIR)", for errors.
  std::string LookedMessage() const;
};

// `given` (1) and `env` (2) are "" when not set; `program_dir` is the directory of the
// running program (3; "" when unknown).
OpenbDataDir FindOpenbDataDir(const std::string& given, const std::string& env,
                              const std::string& program_dir);

// The directory of the running executable (/proc/self/exe, links resolved), or "".
std::string ExecutableDirectory();

}  // namespace migsim
