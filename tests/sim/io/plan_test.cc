// Plan files: loading and its exact error messages, the scenario each evaluation runs,
// and whole plans on a tiny scenario whose answer is known.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>

#include "sim/io/plan_json.h"
#include "sim/io/plan_run.h"

namespace migsim {
namespace {

// Ten one-GPU pods that run 100 s, all created at 0; the run stops at 50 s, so a pod
// that did not get a GPU at once is still pending then. A g4dn.xlarge has one T4.
constexpr const char* kScenario = R"({
  "name": "ten", "description": "ten one-GPU pods at once", "horizon_s": 50,
  "cluster": {"nodes": {"gpu": {"type": "g4dn.xlarge", "count": 3}}},
  "job_classes": {"infer": {"run_s": 100}},
  "workloads": {"w": {"kind": "Job", "completions": 10, "parallelism": 10,
                      "template": {"job_class": "infer", "resources": {"nvidia.com/gpu": 1}}}},
  "variants": {"other": {"seed": 5}}
})";

// A plan on kScenario; `extra` is spliced in as further top-level members.
std::string Plan(const std::string& extra = "", int max_nodes = 16) {
  return R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "gpu",
    "configurations": {
      "whole": {"type": "g4dn.xlarge"},
      "ts2": {"device_plugin": {"time_slicing": {"replicas": 2}}}},
    "slo": {"max_pending": 0}, "max_nodes": )" +
         std::to_string(max_nodes) + extra + "}";
}

// Reads files from a map; plans live in plans/, so "../s.json" is "s.json".
ReadTextFile Files(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& path) -> Result<std::string> {
    auto it = files.find(path);
    if (it == files.end()) {
      return Status::IoError("cannot read file: No such file or directory", {path, ""});
    }
    return it->second;
  };
}

Result<PlanFile> Load(const std::string& plan, const std::string& scenario = kScenario) {
  return ParsePlanText(plan, "plans/p.json", Files({{"s.json", scenario}}));
}

std::string ErrorOf(const std::string& plan, const std::string& scenario = kScenario) {
  Result<PlanFile> loaded = Load(plan, scenario);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

}  // namespace

TEST_CASE("a plan file loads with its scenario, configurations and defaults", "[plan]") {
  Result<PlanFile> loaded = Load(Plan());
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  CHECK(plan.name == "p");
  CHECK(plan.scenario_path == "s.json");
  CHECK(plan.pool == "gpu");
  CHECK(plan.max_nodes == 16);
  CHECK(plan.slo.max_pending == 0);
  CHECK_FALSE(plan.slo.p95_queueing_latency_s.has_value());
  CHECK(plan.seeds == std::vector<uint64_t>{1});  // the scenario's base seed, not a variant's
  REQUIRE(plan.configurations.size() == 2);
  CHECK(plan.configurations[0].name == "whole");
  CHECK(plan.configurations[0].node_type == "g4dn.xlarge");
  CHECK(plan.configurations[0].price_per_hour == Approx(0.526));
  CHECK(plan.configurations[1].name == "ts2");
  SECTION("seeds given in the plan replace the scenario's") {
    Result<PlanFile> seeded = Load(Plan(R"(, "seeds": [3, 1, 2])"));
    REQUIRE(seeded.ok());
    CHECK(seeded.value().seeds == std::vector<uint64_t>{3, 1, 2});
  }
}

TEST_CASE("a plan's scenario has the pool patched, its count set and no variants", "[plan]") {
  Result<PlanFile> loaded = Load(Plan(R"(, "workload_patches": {"ts2": {"w": {"completions": 4}}})"));
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  Result<Scenario> whole = PlanScenario(plan, plan.configurations[0], 7);
  REQUIRE(whole.ok());
  REQUIRE(whole.value().cluster.nodes.size() == 7);
  CHECK(whole.value().cluster.nodes[6].name == "gpu-6");
  CHECK(whole.value().cluster.nodes[0].plugin.sharing == SharingMode::kNone);
  CHECK(std::get<JobSpec>(whole.value().workloads[0]).completions == 10);
  Result<Scenario> ts2 = PlanScenario(plan, plan.configurations[1], 2);
  REQUIRE(ts2.ok());
  CHECK(ts2.value().cluster.nodes.size() == 2);
  CHECK(ts2.value().cluster.nodes[0].plugin.sharing == SharingMode::kTimeSlicing);
  CHECK(std::get<JobSpec>(ts2.value().workloads[0]).completions == 4);
}

TEST_CASE("plan file errors name the plan file and the JSON pointer", "[plan]") {
  SECTION("malformed JSON") {
    CHECK(ErrorOf("{") ==
          "plans/p.json:line 1, column 2: malformed JSON: syntax error while parsing object key - "
          "unexpected end of input; expected string literal");
  }
  SECTION("an unknown field") {
    CHECK(ErrorOf(Plan(R"(, "maxnodes": 3)")) ==
          "plans/p.json:/maxnodes: unknown field 'maxnodes' (expected one of: name, description, "
          "scenario, pool, configurations, workload_patches, slo, max_nodes, seeds)");
  }
  SECTION("a missing pool") {
    CHECK(ErrorOf(R"({"name": "p", "description": "d", "scenario": "../s.json",
                      "configurations": {"a": {}}, "slo": {"max_pending": 0}, "max_nodes": 4})") ==
          "plans/p.json: missing required field 'pool'");
  }
  SECTION("a pool the scenario does not have") {
    std::string plan = Plan();
    plan.replace(plan.find(R"("pool": "gpu")"), 13, R"("pool": "gpux")");
    CHECK(ErrorOf(plan) == "plans/p.json:/pool: unknown pool 'gpux' (valid: gpu)");
  }
  SECTION("a scenario that cannot be read or does not load") {
    CHECK(ParsePlanText(Plan(), "plans/p.json", Files({})).status().ToString() ==
          "plans/p.json:/scenario: s.json: cannot read file: No such file or directory");
    CHECK(ErrorOf(Plan(), R"({"name": "s", "description": "d", "workloads": {}})") ==
          "plans/p.json:/scenario: s.json: missing required field 'cluster'");
  }
}

TEST_CASE("plan configuration errors point at the configuration or its patch", "[plan]") {
  auto with = [](const std::string& configurations, const std::string& extra = "") {
    return R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "gpu",
      "configurations": )" + configurations +
           R"(, "slo": {"max_pending": 0}, "max_nodes": 4)" + extra + "}";
  };
  CHECK(ErrorOf(with(R"({"ts0": {"device_plugin": {"time_slicing": {"replicas": 0}}}})")) ==
        "plans/p.json:/configurations/ts0: does not load as a scenario with 1 node: "
        "/cluster/nodes/gpu/device_plugin/time_slicing/replicas: must be >= 1");
  CHECK(ErrorOf(with(R"({"big": {"count": 3}})")) ==
        "plans/p.json:/configurations/big/count: the plan sets the pool's count: remove it");
  CHECK(ErrorOf(with(R"({"a b": {}})")) ==
        "plans/p.json:/configurations/a b: configuration name 'a b' may only contain letters, "
        "digits, '.', '_' and '-'");
  CHECK(ErrorOf(with("{}")) == "plans/p.json:/configurations: must have at least one configuration");
  CHECK(ErrorOf(with(R"({"a": {}})", R"(, "workload_patches": {"a": {"w": {"kind": "Jobs"}}})")) ==
        "plans/p.json:/workload_patches/a: does not load as a scenario with 1 node: "
        "/workloads/w/kind: unknown workload kind 'Jobs' (valid: Pod, Deployment, Job, Workflow, Trace)");
  CHECK(ErrorOf(with(R"({"a": {}})", R"(, "workload_patches": {"b": {}})")) ==
        "plans/p.json:/workload_patches/b: unknown configuration 'b' (valid: a)");
}

TEST_CASE("plan objectives, sizes and seeds are checked", "[plan]") {
  auto with_slo = [](const std::string& slo, const std::string& rest = R"("max_nodes": 4)") {
    return R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "gpu",
      "configurations": {"a": {}}, "slo": )" + slo + ", " + rest + "}";
  };
  CHECK(ErrorOf(with_slo("{}")) ==
        "plans/p.json:/slo: must set at least one objective (expected one of: "
        "p95_queueing_latency_s, max_pending, makespan_s, min_completed_fraction)");
  CHECK(ErrorOf(with_slo(R"({"min_completed_fraction": 1.5})")) ==
        "plans/p.json:/slo/min_completed_fraction: must be <= 1");
  CHECK(ErrorOf(with_slo(R"({"p95_latency_s": 5})")) ==
        "plans/p.json:/slo/p95_latency_s: unknown field 'p95_latency_s' (expected one of: "
        "p95_queueing_latency_s, max_pending, makespan_s, min_completed_fraction)");
  CHECK(ErrorOf(with_slo(R"({"max_pending": -1})")) == "plans/p.json:/slo/max_pending: must be >= 0");
  CHECK(ErrorOf(with_slo(R"({"max_pending": 0})", R"("max_nodes": 0)")) ==
        "plans/p.json:/max_nodes: must be >= 1");
  CHECK(ErrorOf(with_slo(R"({"max_pending": 0})", R"("max_nodes": 4, "seeds": [])")) ==
        "plans/p.json:/seeds: must not be empty");
  CHECK(ErrorOf(with_slo(R"({"max_pending": 0})", R"("max_nodes": 4, "seeds": [1, 2, 1])")) ==
        "plans/p.json:/seeds/2: seed 1 is listed twice");
}

TEST_CASE("ten one-GPU pods at once need ten g4dn.xlarge, or five time-sliced two ways",
          "[plan]") {
  Result<PlanFile> loaded = Load(Plan(R"(, "seeds": [1, 2])"));
  REQUIRE(loaded.ok());
  const PlanResult result = RunPlan(loaded.value(), {.jobs = 2, .on_evaluation = nullptr});
  REQUIRE(result.configurations.size() == 2);
  const PlanAnswer& whole = result.configurations[0].answer;
  const PlanAnswer& ts2 = result.configurations[1].answer;
  CHECK(whole.nodes == 10);
  CHECK(ts2.nodes == 5);
  CHECK(whole.warning.empty());
  CHECK(whole.chosen().cost_per_hour == Approx(10 * 0.526));
  CHECK(whole.chosen().runs.size() == 2);  // both seeds met
  CHECK(whole.chosen().metrics.pods.running == 10);
  CHECK(ts2.chosen().cost_per_hour == Approx(5 * 0.526));
  // 1 2 4 8 16, then 12 10 9, then 11: a missed size stops at its first seed.
  std::vector<int> sizes;
  for (const auto& [nodes, e] : whole.evidence) sizes.push_back(nodes);
  CHECK(sizes == std::vector<int>{1, 2, 4, 8, 16, 12, 10, 9, 11});
  CHECK(whole.evidence[0].second.runs.size() == 1);
  CHECK(whole.evidence[0].second.why_not == "seed 1: 9 pods pending > 0");
  CHECK(RankConfigurations(result) == std::vector<size_t>{1, 0});

  SECTION("the result does not depend on the number of threads") {
    const PlanResult serial = RunPlan(loaded.value(), {.jobs = 1, .on_evaluation = nullptr});
    CHECK(FormatEvidenceCsv(serial) == FormatEvidenceCsv(result));
  }
  SECTION("the table ranks by cost and recommends the cheapest") {
    CHECK(FormatPlanTable(result) ==
          "plan p: the fewest 'gpu' nodes (at most 16) meeting pending pods <= 0, on seeds 1, 2\n"
          "\n"
          "configuration  nodes  node type    cost ($/h)  p95 latency (s)  makespan (s)  "
          "allocation  utilization  evaluations\n"
          "ts2                5  g4dn.xlarge        2.63              0.0             -       "
          "1.000        1.000            6\n"
          "whole             10  g4dn.xlarge        5.26              0.0             -       "
          "1.000        1.000            9\n"
          "\n"
          "recommendation: ts2 with 5 × g4dn.xlarge at $2.63/h\n");
  }
  SECTION("plan.csv has the table's rows, evidence.csv a row per simulation") {
    CHECK(FormatPlanCsv(result) ==
          "configuration,nodes,node_type,cost_per_hour,p95_queueing_latency_s,makespan_s,"
          "gpu_allocation_ratio,gpu_compute_utilization,evaluations,note\n"
          "ts2,5,g4dn.xlarge,2.6300,0.000000,,1,1,6,\n"
          "whole,10,g4dn.xlarge,5.2600,0.000000,,1,1,9,\n");
    const std::string evidence = FormatEvidenceCsv(result);
    CHECK_THAT(evidence, Catch::StartsWith(
                             "configuration,nodes,seed,meets,why_not,cost_per_hour,makespan_s,"
                             "queueing_p95_s,queueing_mean_s,queueing_max_s,gpu_allocation_ratio,"
                             "gpu_compute_utilization,pods_submitted,pods_completed,pods_failed,"
                             "pods_running,pods_pending,pods_deleted,restarts\n"
                             "whole,1,1,false,9 pods pending > 0,0.5260,,0.000000,0.000000,0.000000,1,1,10,0,0,1,9,0,0\n"));
  }
}

TEST_CASE("a plan that no size meets recommends nothing and says why", "[plan]") {
  Result<PlanFile> loaded = Load(Plan("", 3));
  REQUIRE(loaded.ok());
  const PlanResult result = RunPlan(loaded.value());
  CHECK_FALSE(result.configurations[0].answer.nodes.has_value());
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("\nwhole            > 3  g4dn.xlarge           -") &&
                 Catch::Contains("whole: 3 nodes miss: 7 pods pending > 0\n") &&
                 Catch::EndsWith("recommendation: none: no configuration meets the objectives "
                                 "with at most 3 nodes\n"));
}

TEST_CASE("the table notes answers that are not monotone and sizes that did not load",
          "[plan]") {
  PlanFile plan{.path = "p.json", .name = "p", .description = "", .scenario_path = "s.json",
                .pool = "gpu", .configurations = {}, .slo = {.max_pending = 0}, .max_nodes = 1,
                .seeds = {1}};
  plan.configurations = {{.name = "bumpy", .node_type = "g4dn.xlarge", .price_per_hour = 1,
                          .document = ""},
                         {.name = "broken", .node_type = "g4dn.xlarge", .price_per_hour = 1,
                          .document = ""}};
  PlanEvaluation met;
  met.meets = true;
  met.cost_per_hour = 1;
  PlanEvaluation unloadable;
  unloadable.why_not = "does not load: s.json:/x: bad";
  unloadable.cost_per_hour = 0;
  PlanResult result{.plan = &plan, .configurations = {}};
  result.configurations.push_back(
      {&plan.configurations[0],
       PlanAnswer{.nodes = 1, .evidence = {{1, met}}, .warning = "not monotone: 1 nodes meet"}});
  result.configurations.push_back(
      {&plan.configurations[1], PlanAnswer{.nodes = std::nullopt, .evidence = {{1, unloadable}},
                                           .warning = ""}});
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("\nbumpy: not monotone: 1 nodes meet\n"
                             "broken: 1 node misses: does not load: s.json:/x: bad\n"));
  CHECK_THAT(FormatEvidenceCsv(result),
             Catch::EndsWith("\nbroken,1,,false,does not load: s.json:/x: bad,0.0000"
                             ",,,,,,,,,,,,,\n"));
}

TEST_CASE("a plan file that cannot be read is an error at its path", "[plan]") {
  Result<PlanFile> loaded = LoadPlanFile("no-such-dir/p.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().ToString() ==
        "no-such-dir/p.json: cannot read file: No such file or directory");
}

// The worked example of README "Capacity planning": its answers are the README's.
TEST_CASE("the capacity-inference-mix plan recommends four time-sliced p4d nodes", "[plan]") {
  const std::string path =
      std::string(MIGSIM_SOURCE_DIR) + "/scenarios/plans/capacity-inference-mix.plan.json";
  Result<PlanFile> loaded = LoadPlanFile(path);
  REQUIRE(loaded.ok());
  CHECK(loaded.value().scenario_path ==
        std::filesystem::path(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/capacity-inference-mix.json")
            .lexically_normal()
            .string());
  const PlanResult result = RunPlan(loaded.value());
  std::vector<std::pair<std::string, std::optional<int>>> answers;
  for (const ConfigurationAnswer& c : result.configurations) {
    answers.emplace_back(c.configuration->name, c.answer.nodes);
    CHECK(c.answer.warning.empty());
  }
  CHECK(answers == std::vector<std::pair<std::string, std::optional<int>>>{
                       {"p4d-whole", 12}, {"p4d-balanced", 5}, {"p4d-split-1g-7g", 6},
                       {"p4d-timeslice4", 4}});
  CHECK_THAT(FormatPlanTable(result),
             Catch::EndsWith("recommendation: p4d-timeslice4 with 4 × p4d.24xlarge at $87.83/h\n"));
}

}  // namespace migsim
