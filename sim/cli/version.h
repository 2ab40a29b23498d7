#pragma once
// What `migsim --version` prints: the version of the CMake project and the commit it was
// built from.

#include <string>

namespace migsim {

// "migsim 0.1.0 (commit abc1234)": the commit as `git describe --always --dirty` gave it
// when the binary was built ("abc1234-dirty" with uncommitted changes), "unknown" when the
// sources were not a git checkout (a source tarball).
std::string VersionLine();

}  // namespace migsim
