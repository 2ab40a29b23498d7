// `--report` of sweep, plan and openb and `migsim report DIR`, run as a user runs them: the
// redrawn report is the study's byte for byte, and bad input writes nothing.

#include <catch2/catch.hpp>
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
using test::ScratchDir;

std::string Source(const std::string& path) { return std::string(MIGSIM_SOURCE_DIR) + "/" + path; }

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("migsim report redraws a sweep's report byte for byte from its directory",
          "[cli][study-report]") {
  const ScratchDir dir("cli-report");
  const std::string sweep = Source("scenarios/sweeps/superres-nodes.json");
  REQUIRE(
      RunMigsim("sweep -q " + sweep + " --out " + dir.Path("s") + " --report " + dir.Path("r.html"))
          .exit_code == 0);
  const Outcome redrawn = RunMigsim("report " + dir.Path("s"));
  CHECK(redrawn.exit_code == 0);
  CHECK(redrawn.output == dir.Path("s") + "/report.html: the sweep report\n");
  CHECK(Read(dir.Path("s/report.html")) == Read(dir.Path("r.html")));
  CHECK_THAT(Read(dir.Path("r.html")), Catch::Contains("<h2>Against p4d/count</h2>"));
  SECTION("nor over one of its files, nor from a directory without a study") {
    const Outcome over = RunMigsim("report " + dir.Path("s") + " --out " + dir.Path("s/sweep.csv"));
    CHECK(over.exit_code == 2);
    CHECK_THAT(over.output, Catch::Contains("is an input of this run"));
    fs::create_directories(dir.Path("empty"));
    const Outcome empty = RunMigsim("report " + dir.Path("empty"));
    CHECK(empty.exit_code == 2);
    CHECK_THAT(empty.output, Catch::Contains("holds no study's files"));
    CHECK(fs::is_empty(dir.Path("empty")));
  }
  SECTION("a malformed sweep.csv is named with its line") {
    std::ofstream(dir.Path("s/sweep.csv"), std::ios::app) << "9,1\n";
    const Outcome bad = RunMigsim("report " + dir.Path("s") + " --out " + dir.Path("bad.html"));
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.output, Catch::Contains(dir.Path("s") + "/sweep.csv:line "));
    CHECK_FALSE(fs::exists(dir.Path("bad.html")));
  }
}

TEST_CASE("a shard draws no report, and a bad --report target stops a study before it runs",
          "[cli][study-report]") {
  const ScratchDir dir("cli-report-refused");
  const std::string sweep = Source("scenarios/sweeps/superres-nodes.json");
  const Outcome shard = RunMigsim("sweep -q " + sweep + " --shard 0/2 --out " + dir.Path("s") +
                                  " --report " + dir.Path("r.html"));
  CHECK(shard.exit_code == 2);
  CHECK_THAT(shard.output, Catch::Contains("--report: a shard draws no report"));
  fs::create_directories(dir.Path("d"));
  for (const std::string& study :
       {"plan -q " + Source("scenarios/plans/capacity-inference-mix.plan.json"),
        "openb -q --data " + Source("tests/golden/openb-small") +
            " --trace small --policy fgd --seeds 1"}) {
    const Outcome r = RunMigsim(study + " --out " + dir.Path("o") + " --report " + dir.Path("d"));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("--report " + dir.Path("d")));
  }
  CHECK_FALSE(fs::exists(dir.Path("s")));
  CHECK_FALSE(fs::exists(dir.Path("o")));
}

}  // namespace migsim
