// --limit NAME=N (README "Limits"): a scenario that would create more than a limit allows is
// refused before it runs, exit 2 with the element and the limit named, and runs once the
// limit is raised on purpose; a run past its budget stops with exit 2 and writes nothing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

using test::Outcome;
using test::RunMigsim;

// 100 p4d.24xlarge, each lost every 3.6 s and repaired in 1 s, over 10^6 s: 2.2e7 faults.
const std::string kFastFaults = R"({"name": "t", "description": "d", "horizon_s": 1000000,
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge", "count": 100}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "template": {"job_class": "train"}}},
    "fault_processes": [{"kind": "node-lost", "mtbf_h": 0.001, "repair_s": 1}]})";

const std::string kHundredPods = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "count": 100,
                        "template": {"job_class": "train", "resources": {"nvidia.com/gpu": 1}}}}})";

}  // namespace

TEST_CASE("migsim validate refuses what a scenario would create past a limit, until raised",
          "[cli][limits]") {
  const test::ScratchDir dir("limits");
  const std::string s = dir.Write("s.json", kFastFaults);
  const Outcome refused = RunMigsim("validate " + s);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output,
             Catch::Contains("s.json:/fault_processes/0: expects about 2.2e+07 fault events") &&
                 Catch::Contains("(raise it with --limit fault-events=N)"));
  const Outcome raised = RunMigsim("validate " + s + " --limit fault-events=30000000");
  CHECK(raised.exit_code == 0);
  CHECK_THAT(raised.output, Catch::Contains("valid."));
}

TEST_CASE("migsim run stops a run past its budget: exit 2, the reason, nothing written",
          "[cli][limits]") {
  const test::ScratchDir dir("limits");
  const std::string s = dir.Write("s.json", kHundredPods);
  const Outcome r = RunMigsim("run " + s + " --limit run-pods=50 --out " + dir.Path("out") + " -q");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("s.json: variant base: the run stopped at simulated time "
                                       "0 s: more than 50 pods created") &&
                           Catch::Contains("--limit run-pods=N"));
  CHECK_FALSE(std::filesystem::exists(dir.Path("out") + "/summary.json"));
  CHECK(RunMigsim("run " + s + " --limit run-pods=100 -q").exit_code == 0);
}

TEST_CASE("migsim sweep refuses a sweep one of whose runs passes its budget, writing nothing",
          "[cli][limits]") {
  const test::ScratchDir dir("limits");
  dir.Write("s.json", kHundredPods);
  const std::string sweep =
      dir.Write("sweep.json", R"({"name": "w", "description": "d", "scenario": "s.json",
                       "axes": {"/workloads/w/count": [10, 100]}})");
  const Outcome r =
      RunMigsim("sweep " + sweep + " --limit run-pods=50 --out " + dir.Path("out") + " -q");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("sweep.json: point 1, variant base: the run stopped at "
                                       "simulated time 0 s: more than 50 pods created"));
  CHECK_FALSE(std::filesystem::exists(dir.Path("out") + "/sweep.csv"));
  CHECK(RunMigsim("sweep " + sweep + " -q").exit_code == 0);
}

TEST_CASE("an unknown limit or a bad value is a usage error naming the limits", "[cli][limits]") {
  const test::ScratchDir dir("limits");
  const std::string s = dir.Write("s.json", kHundredPods);
  const Outcome unknown = RunMigsim("run " + s + " --limit memory=5");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.output, Catch::Contains("no limit 'memory' (limits: pods-per-field, pods,"));
  const Outcome bad = RunMigsim("validate " + s + " --limit pods=-1");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("give pods=N, N an integer from 1 to"));
}

TEST_CASE(
    "migsim run --exact-limit N gives back the pods past N and says its percentiles "
    "are within 0.5 %",
    "[cli][limits][stream]") {
  const test::ScratchDir dir("exact-limit");
  const std::string s = dir.Write("s.json", kHundredPods);
  const Outcome exact = RunMigsim("run " + s + " --json --quiet");
  REQUIRE(exact.exit_code == 0);
  CHECK_THAT(exact.output, !Catch::Contains("percentile_relative_error"));
  const Outcome sketched = RunMigsim("run " + s + " --json --quiet --exact-limit 10");
  REQUIRE(sketched.exit_code == 0);
  CHECK_THAT(sketched.output, Catch::Contains("\"percentile_relative_error\":0.005") ||
                                  Catch::Contains("\"percentile_relative_error\": 0.005"));
  CHECK_THAT(sketched.output,
             Catch::Contains("\"completed\":100") || Catch::Contains("\"completed\": 100"));
  const Outcome table = RunMigsim("run " + s + " --quiet --exact-limit 10");
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.output, Catch::Contains("(percentiles of queueing latency: from a sketch, "
                                           "within 0.5 %, past the values --exact-limit keeps "
                                           "exact, 1048576 by default)"));
  CHECK_THAT(RunMigsim("run " + s + " --quiet").output, !Catch::Contains("from a sketch"));
  const Outcome zero = RunMigsim("run " + s + " --exact-limit 0");
  CHECK(zero.exit_code == 2);
  CHECK_THAT(zero.output, Catch::Contains("--exact-limit"));
}

}  // namespace migsim
