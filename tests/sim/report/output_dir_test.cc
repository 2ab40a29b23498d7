#include "sim/report/output_dir.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace migsim {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("migsim-output-dir-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The names in `dir`, hidden ones included.
std::vector<std::string> Entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("a failed write leaves no temporary file and no directory it created", "[io]") {
  const fs::path dir = FreshDir("failed-write");
  const std::string too_long(300, 'x');  // longer than a file name may be
  const Status s = WriteFiles((dir / "new/sub").string(), {{"a.csv", "a\n"}, {too_long, "b\n"}});
  REQUIRE_FALSE(s.ok());
  CHECK(s.location().file == (dir / "new/sub" / too_long).string());
  CHECK(Entries(dir).empty());
  // Creation that stops partway (new/ made, the long name refused) is undone too.
  REQUIRE_FALSE(WriteFiles((dir / "new/./" / too_long).string(), {{"a.csv", "a\n"}}).ok());
  CHECK(Entries(dir).empty());
  fs::remove_all(dir);
}

TEST_CASE("a file that cannot replace its target is reported at the target, temporaries gone",
          "[io]") {
  const fs::path dir = FreshDir("failed-rename");
  fs::create_directories(dir / "b.csv" / "inside");  // a non-empty directory where b.csv goes
  const Status s = WriteFiles(dir.string(), {{"a.csv", "a\n"}, {"b.csv", "b\n"}});
  REQUIRE_FALSE(s.ok());
  CHECK(s.location().file == (dir / "b.csv").string());
  CHECK(Entries(dir) == std::vector<std::string>{"a.csv", "b.csv"});  // no .tmp left
  fs::remove_all(dir);
}

TEST_CASE("output paths are checked before anything is computed", "[io]") {
  const fs::path dir = FreshDir("check");
  std::ofstream(dir / "file") << "x";
  CHECK(CheckOutputDir("--out", (dir / "new/deeper").string()).ok());
  CHECK(CheckOutputDir("--out", dir.string()).ok());
  CHECK(CheckOutputDir("--out", (dir / "file").string()).ToString() ==
        "--out " + (dir / "file").string() + ": exists and is not a directory");
  CHECK(CheckOutputDir("--out", (dir / "file/below").string()).ToString() ==
        "--out " + (dir / "file/below").string() + ": " + (dir / "file").string() +
            " is not a directory");
  CHECK(CheckOutputFile("--report", (dir / "r.html").string()).ok());
  CHECK(CheckOutputFile("--report", dir.string()).ToString() ==
        "--report " + dir.string() + ": is a directory");
  CHECK(CheckOutputFile("--report", (dir / "no/r.html").string()).ToString() ==
        "--report " + (dir / "no/r.html").string() + ": no directory " + (dir / "no").string());
  fs::remove_all(dir);
}

}  // namespace migsim
