#pragma once
// A temporary directory of its own for one test: a unique name (mkdtemp), so tests running
// at once — two CTest processes, two checkouts — never share files, removed with its contents
// when the test ends.

#include <filesystem>
#include <string>

namespace migsim::test {

class ScratchDir {
 public:
  // Creates $TMPDIR/migsim-<purpose>-XXXXXX. Fails the test when it cannot.
  explicit ScratchDir(const std::string& purpose);
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir();

  const std::filesystem::path& path() const { return path_; }
  // path() / name, as a string.
  std::string Path(const std::string& name) const;
  // Writes `contents` to path() / name (binary, truncated) and returns its path.
  std::string Write(const std::string& name, const std::string& contents) const;

 private:
  std::filesystem::path path_;
};

}  // namespace migsim::test
