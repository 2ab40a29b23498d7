// `migsim openb` with any policy (--policy NAME of any built-in, --policy-file) and its
// data directory found from the executable's place, on the small openb data of
// tests/golden/openb-small.
#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;
using test::Outcome;
using test::RunMigsim;

std::string SmallData() { return std::string(MIGSIM_SOURCE_DIR) + "/tests/golden/openb-small"; }
std::string SmallRun() { return "openb --data " + SmallData() + " --trace small --seeds 1-2 -q"; }

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `command` with sh in `dir`, $MIGSIM_OPENB_DIR unset: stdout and stderr, exit code.
Outcome RunIn(const fs::path& dir, const std::string& command) {
  const std::string line =
      "cd '" + dir.string() + "' && env -u MIGSIM_OPENB_DIR " + command + " 2>&1";
  Outcome out;
  FILE* pipe = popen(line.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), pipe)) > 0;)
    out.output.append(buf.data(), n);
  const int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

TEST_CASE(
    "migsim openb runs a policy file's weighted combination and a built-in by name beside "
    "the six, each labelled by its name",
    "[cli][openb]") {
  test::ScratchDir dir("openb-policy-file");
  const std::string file = dir.Write("mix.json", R"({"name": "scored", "params": {"plugins": [
        {"name": "fgd", "weight": 2}, {"name": "least-allocated", "weight": 1}]}})");
  const Outcome r = RunMigsim(SmallRun() + " --policy fgd --policy first-fit --policy-file " +
                              file + " --out " + dir.Path("out"));
  REQUIRE(r.exit_code == 0);
  const std::string alloc = Read(dir.Path("out/alloc_discrete.csv"));
  for (const char* label : {",fgd,1.3,1,", ",first-fit,1.3,2,", ",scored,1.3,1,"}) {
    CHECK_THAT(alloc, Catch::Contains(label));
  }
  CHECK_THAT(r.output, Catch::Contains("first-fit") && Catch::Contains("scored"));
  CHECK_THAT(r.output, !Catch::Contains("refused"));
}

TEST_CASE("migsim openb's fgd is the same run whether or not other policies run beside it",
          "[cli][openb]") {
  test::ScratchDir dir("openb-fgd-alone");
  REQUIRE(RunMigsim(SmallRun() + " --policy fgd --out " + dir.Path("alone")).exit_code == 0);
  REQUIRE(RunMigsim(SmallRun() + " --policy first-fit --policy fgd --out " + dir.Path("mixed"))
              .exit_code == 0);
  std::string mixed;
  std::istringstream lines(Read(dir.Path("mixed/alloc_discrete.csv")));
  for (std::string line; std::getline(lines, line);) {
    if (line.find(",first-fit,") == std::string::npos) mixed += line + "\n";
  }
  CHECK(mixed == Read(dir.Path("alone/alloc_discrete.csv")));
}

TEST_CASE(
    "migsim openb refuses a bad policy file naming the file and the JSON pointer, and "
    "writes nothing",
    "[cli][openb]") {
  test::ScratchDir dir("openb-bad-policy");
  const std::pair<std::string, std::string> cases[] = {
      {R"({"name": "scored", "params": {"plugins": [{"name": "nosuch"}]}})",
       ":/params/plugins/0/name: unknown score plugin 'nosuch'"},
      {R"({"name": "fgd", "params": {"x": 1}})", ":/params/x: policy 'fgd' takes no params"},
      {R"({"library": "missing/libnone.so"})", ":/library: "},
      {R"({"name": "fgd",)", ":"},
  };
  for (const auto& [json, message] : cases) {
    INFO(json);
    const std::string file = dir.Write("p.json", json);
    const Outcome r =
        RunMigsim(SmallRun() + " --policy-file " + file + " --out " + dir.Path("out"));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(file + message));
    CHECK_FALSE(fs::exists(dir.Path("out")));
  }
  const std::string fgd = dir.Write("fgd.json", R"({"name": "fgd"})");
  Outcome r = RunMigsim(SmallRun() + " --policy fgd --policy-file " + fgd);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("two policies are labelled 'fgd' (--policy and "
                                       "--policy-file " +
                                       fgd + ")"));
  r = RunMigsim(SmallRun() + " --policy scored");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--policy: policy 'scored' needs params.plugins: give it "
                                       "in a --policy-file"));
  r = RunMigsim(SmallRun() + " --policy nosuch");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--policy: unknown policy 'nosuch' (valid: all, "));
}

TEST_CASE(
    "migsim openb finds the data beside its executable from any working directory, and "
    "lists every place it looked when there is none",
    "[cli][openb]") {
  // <root>/repo/build/migsim finds <root>/shared/data/openb, as a build tree of a checkout
  // beside the shared data does.
  test::ScratchDir root("openb-exe-dir");
  fs::create_directories(root.path() / "repo/build");
  fs::create_directories(root.path() / "elsewhere");
  const fs::path exe = root.path() / "repo/build/migsim";
  fs::copy_file(MIGSIM_BINARY, exe);
  const std::string run = "'" + exe.string() + "' openb --trace small --policy fgd --seeds 1 -q";
  Outcome r = RunIn(root.path() / "elsewhere", run);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output,
             Catch::Contains("looked in: " + (root.path() / "shared/data/openb").string() + ", " +
                             (root.path() / "repo/share/migsim/data/openb").string() + ", ") &&
                 Catch::Contains("/share/migsim/data/openb, ../shared/data/openb (set --data DIR "
                                 "or $MIGSIM_OPENB_DIR)"));
  fs::create_directories(root.path() / "shared/data");
  fs::create_directory_symlink(SmallData(), root.path() / "shared/data/openb");
  r = RunIn(root.path() / "elsewhere", run);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("openb_pod_list_small"));
}

}  // namespace
}  // namespace migsim
