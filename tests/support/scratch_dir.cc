#include "tests/support/scratch_dir.h"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <vector>

namespace migsim::test {

ScratchDir::ScratchDir(const std::string& purpose) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / ("migsim-" + purpose + "-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  REQUIRE(::mkdtemp(name.data()) != nullptr);
  path_ = name.data();
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;  // a failed test may leave anything; never throw from here
  std::filesystem::remove_all(path_, ignored);
}

std::string ScratchDir::Path(const std::string& name) const { return (path_ / name).string(); }

std::string ScratchDir::Write(const std::string& name, const std::string& contents) const {
  const std::string file = Path(name);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << contents;
  return file;
}

}  // namespace migsim::test
