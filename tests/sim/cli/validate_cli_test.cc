// `migsim validate` of a sweep or plan file: the check `migsim sweep` and `migsim plan`
// make before they run anything, with the same messages, and a summary of what they would
// run — without running it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

using Json = nlohmann::json;
using test::Outcome;
using test::RunMigsim;

std::string Source(const std::string& path) { return std::string(MIGSIM_SOURCE_DIR) + "/" + path; }

// What `migsim <args>` prints on stdout alone; REQUIREs exit code `code`.
std::string Stdout(const std::string& args, int code = 0) {
  int exit_code = -1;
  std::string out =
      test::CommandOutput(std::string(MIGSIM_BINARY) + " " + args + " 2>/dev/null", &exit_code);
  INFO(args);
  REQUIRE(exit_code == code);
  return out;
}

}  // namespace

TEST_CASE("migsim validate of a sweep file says what it would run, as migsim sweep runs it",
          "[cli][validate]") {
  const std::string sweep = Source("scenarios/sweeps/superres-nodes.json");
  Outcome text = RunMigsim("validate " + sweep);
  CHECK(text.exit_code == 0);
  CHECK(text.output == sweep + ": valid. superres-nodes\n\nsweep of " +
                           Source("scenarios/56-superres.json") +
                           ": 12 points, 24 runs\n  sets /cluster/nodes/p4d/count, "
                           "/job_classes/super-resolution/failure_probability, /seed\n");
  const Json facts = Json::parse(Stdout("validate " + sweep + " --json"));
  const Json ran = Json::parse(Stdout("sweep " + sweep + " --json -q"));
  CHECK(facts["kind"] == "sweep");
  CHECK(facts["valid"] == true);
  CHECK(facts["path"] == sweep);
  CHECK(facts["runs"] == ran["runs"].size());
  CHECK(facts["sets"] == ran["columns"]);
}

TEST_CASE("migsim validate of a plan file lists its configurations, as migsim plan reads them",
          "[cli][validate]") {
  const std::string plan = Source("scenarios/plans/capacity-inference-mix.plan.json");
  Outcome text = RunMigsim("validate " + plan);
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.output,
             Catch::StartsWith(plan + ": valid. capacity-inference-mix\n\nplan over " +
                               Source("scenarios/capacity-inference-mix.json") +
                               ": pool gpu, 1 to 32 nodes, seeds 1, 2, ranked by cost\n"
                               "  configuration p4d-whole: p4d.24xlarge nodes at $21.96/h\n"));
  const Json facts = Json::parse(Stdout("validate " + plan + " --json"));
  const Json ran = Json::parse(Stdout("plan " + plan + " --json -q"));
  CHECK(facts["kind"] == "plan");
  CHECK(facts["max_nodes"] == ran["max_nodes"]);
  CHECK(facts["seeds"] == ran["seeds"]);
  REQUIRE(facts["configurations"].size() == ran["configurations"].size());
  for (const Json& row : ran["configurations"]) {
    bool listed = false;
    for (const Json& c : facts["configurations"]) {
      listed = listed || (c["name"] == row["configuration"] && c["node_type"] == row["node_type"]);
    }
    CHECK(listed);
  }
}

TEST_CASE("migsim validate refuses a bad sweep point or plan configuration as sweep and plan do",
          "[cli][validate]") {
  test::ScratchDir dir("validate-study");
  const std::string sweep = dir.Write(
      "s.json", R"({"name": "s", "scenario": ")" + Source("scenarios/56-superres.json") +
                    R"(", "axes": {"/cluster/nodes/p4d/count": [1, 0]}})");
  const std::string plan = dir.Write(
      "p.json", R"({"name": "p", "description": "d", "scenario": ")" +
                    Source("scenarios/capacity-inference-mix.json") +
                    R"(", "pool": "gpu", "configurations": {"bad": {"type": "p4d.24xlarge",
                    "mig": {"config": "no-such-config"}}}, "slo": {"max_pending": 0},
                    "max_nodes": 2})");
  for (const auto& [file, command] : {std::pair{sweep, "sweep"}, std::pair{plan, "plan"}}) {
    Outcome checked = RunMigsim("validate " + file);
    Outcome run = RunMigsim(std::string(command) + " " + file + " -q");
    CHECK(checked.exit_code == 2);
    CHECK(run.exit_code == 2);
    CHECK_THAT(checked.output, Catch::StartsWith("migsim: " + file + ":"));
    CHECK(checked.output == run.output);
    CHECK(Stdout("validate " + file + " --json", 2).empty());
  }
  CHECK_THAT(RunMigsim("validate " + sweep).output,
             Catch::Contains("s.json: point 1 (/cluster/nodes/p4d/count=0): ") &&
                 Catch::EndsWith("56-superres.json:/cluster/nodes/p4d/count: must be >= 1\n"));
  CHECK_THAT(RunMigsim("validate " + plan).output,
             Catch::Contains("p.json:/configurations/bad") && Catch::Contains("no-such-config"));
}

TEST_CASE("migsim validate refuses a file of no clear kind, and manifests beside a sweep",
          "[cli][validate]") {
  test::ScratchDir dir("validate-kind");
  const std::string both = dir.Write("both.json", R"({"name": "x", "cluster": {}, "points": []})");
  Outcome ambiguous = RunMigsim("validate " + both);
  CHECK(ambiguous.exit_code == 2);
  CHECK_THAT(ambiguous.output,
             Catch::StartsWith("migsim: " + both + ": cannot tell whether this is a scenario or "
                               "a sweep file"));
  const std::string sweep = Source("scenarios/sweeps/superres-nodes.json");
  Outcome manifests =
      RunMigsim("validate " + sweep + " " + Source("scenarios/manifests/dra"));
  CHECK(manifests.exit_code == 2);
  CHECK_THAT(manifests.output, Catch::Contains("manifests go with a scenario file; this is a "
                                               "sweep file"));
}

}  // namespace migsim
