// Where the openb data is looked for (openb_data_dir.h): --data, $MIGSIM_OPENB_DIR, beside
// the program, the install prefix, then ../shared/data/openb.
#include "sim/study/openb/openb_data_dir.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

TEST_CASE(
    "the openb data directory given or in the environment is taken as it is, the "
    "given one first",
    "[openb][study]") {
  const OpenbDataDir given = FindOpenbDataDir("/given", "/env", "/prog");
  CHECK(given.dir == "/given");
  CHECK(given.looked == std::vector<std::string>{"/given"});
  const OpenbDataDir env = FindOpenbDataDir("", "/env", "/prog");
  CHECK(env.dir == "/env");
}

TEST_CASE(
    "the openb data directory is found beside the program before the install and the "
    "working directory, and every place looked at is listed",
    "[openb][study]") {
  test::ScratchDir root("openb-data-dir");
  const fs::path program = root.path() / "repo/build";
  fs::create_directories(program);
  // The working directory's ../shared/data/openb must not be a real one (it is when the
  // tests run from a checkout beside the data): look from inside the scratch tree.
  const fs::path was = fs::current_path();
  fs::current_path(program);
  const OpenbDataDir none = FindOpenbDataDir("", "", program.string());
  fs::current_path(was);
  CHECK(none.dir.empty());
  REQUIRE(none.looked.size() == 4);
  CHECK(none.looked[0] == (root.path() / "shared/data/openb").string());
  CHECK(none.looked[1] == (root.path() / "repo/share/migsim/data/openb").string());
  CHECK(none.looked[2].ends_with("share/migsim/data/openb"));
  CHECK(none.looked[3] == "../shared/data/openb");
  CHECK(none.LookedMessage().starts_with("looked in: " + none.looked[0] + ", "));

  // An install's <prefix>/share/migsim/data/openb, then the build tree's place, which wins.
  fs::create_directories(root.path() / "repo/share/migsim/data/openb");
  root.Write("repo/share/migsim/data/openb/openb_node_list_gpu_node.csv", "");
  CHECK(FindOpenbDataDir("", "", program.string()).dir == none.looked[1]);
  fs::create_directories(root.path() / "shared/data/openb");
  root.Write("shared/data/openb/openb_node_list_gpu_node.csv", "");
  CHECK(FindOpenbDataDir("", "", program.string()).dir == none.looked[0]);
}

}  // namespace
}  // namespace migsim
