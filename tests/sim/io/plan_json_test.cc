// Plan files: loading, and its exact error messages.
#include <catch2/catch.hpp>
#include <string>

#include "sim/io/plan_json.h"
#include "tests/support/plan_files.h"

namespace migsim {
namespace {

using test::FilesFromMap;
using test::kPlanScenario;
using test::LoadPlan;
using test::PlanText;

std::string ErrorOf(const std::string& plan, const std::string& scenario = kPlanScenario) {
  Result<PlanFile> loaded = LoadPlan(plan, scenario);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

}  // namespace

TEST_CASE("a plan file loads with its scenario, configurations and defaults", "[plan]") {
  Result<PlanFile> loaded = LoadPlan(PlanText());
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
    Result<PlanFile> seeded = LoadPlan(PlanText(R"(, "seeds": [3, 1, 2])"));
    REQUIRE(seeded.ok());
    CHECK(seeded.value().seeds == std::vector<uint64_t>{3, 1, 2});
  }
}

TEST_CASE("a plan's scenario has the pool patched, its count set and no variants", "[plan]") {
  Result<PlanFile> loaded = LoadPlan(PlanText(R"(, "workload_patches": {"ts2": {"w": {"completions": 4}}})"));
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  Result<Scenario> whole = PlanScenario(plan, plan.configurations[0], 7, 1);
  REQUIRE(whole.ok());
  REQUIRE(whole.value().cluster.nodes.size() == 7);
  CHECK(whole.value().cluster.nodes[6].name == "gpu-6");
  CHECK(whole.value().cluster.nodes[0].plugin.sharing == SharingMode::kNone);
  CHECK(std::get<JobSpec>(whole.value().workloads[0]).completions == 10);
  Result<Scenario> ts2 = PlanScenario(plan, plan.configurations[1], 2, 1);
  REQUIRE(ts2.ok());
  CHECK(ts2.value().cluster.nodes.size() == 2);
  CHECK(ts2.value().cluster.nodes[0].plugin.sharing == SharingMode::kTimeSlicing);
  CHECK(std::get<JobSpec>(ts2.value().workloads[0]).completions == 4);
}

TEST_CASE("a configuration's scenario patch changes any part of the scenario", "[plan]") {
  Result<PlanFile> loaded = LoadPlan(PlanText(R"(, "scenario_patches": {"ts2": {
      "horizon_s": 70, "cluster": {"nodes": {"gpu": {"labels": {"team": "a"}}}},
      "fault_processes": [{"name": "xid", "kind": "gpu-unhealthy", "pool": "gpu",
                           "mtbf_h": 1000, "repair_s": 60}]}})"));
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  Result<Scenario> whole = PlanScenario(plan, plan.configurations[0], 2, 1);
  Result<Scenario> ts2 = PlanScenario(plan, plan.configurations[1], 3, 1);
  REQUIRE((whole.ok() && ts2.ok()));
  CHECK(whole.value().horizon == SimTime::Seconds(50));
  CHECK(whole.value().cluster.fault_processes.empty());
  CHECK(ts2.value().horizon == SimTime::Seconds(70));
  CHECK(ts2.value().cluster.nodes.size() == 3);
  CHECK(ts2.value().cluster.nodes[2].extra_labels.size() == 1);
  REQUIRE(ts2.value().cluster.fault_processes.size() == 1);
  CHECK(ts2.value().cluster.fault_processes[0].nodes.size() == 3);
}

TEST_CASE("a plan's seed is the scenario's seed for every draw, a variant's included",
          "[plan][seed]") {
  Result<PlanFile> loaded = LoadPlan(PlanText(R"(, "seeds": [4, 8])"));
  REQUIRE(loaded.ok());
  Result<Scenario> s = PlanScenario(loaded.value(), loaded.value().configurations[0], 1, 8);
  REQUIRE(s.ok());
  CHECK(s.value().seed == 8);
}

TEST_CASE("plan file errors name the plan file and the JSON pointer", "[plan]") {
  SECTION("malformed JSON") {
    CHECK(ErrorOf("{") ==
          "plans/p.json:line 1, column 2: malformed JSON: syntax error while parsing object key - "
          "unexpected end of input; expected string literal");
  }
  SECTION("an unknown field") {
    CHECK(ErrorOf(PlanText(R"(, "maxnodes": 3)")) ==
          "plans/p.json:/maxnodes: unknown field 'maxnodes' (expected one of: name, description, "
          "scenario, pool, configurations, workload_patches, scenario_patches, slo, max_nodes, "
          "seeds, energy, rank_by)");
  }
  SECTION("a missing pool") {
    CHECK(ErrorOf(R"({"name": "p", "description": "d", "scenario": "../s.json",
                      "configurations": {"a": {}}, "slo": {"max_pending": 0}, "max_nodes": 4})") ==
          "plans/p.json: missing required field 'pool'");
  }
  SECTION("a pool the scenario does not have") {
    std::string plan = PlanText();
    plan.replace(plan.find(R"("pool": "gpu")"), 13, R"("pool": "gpux")");
    CHECK(ErrorOf(plan) == "plans/p.json:/pool: unknown pool 'gpux' (valid: gpu)");
  }
  SECTION("a scenario that cannot be read or does not load") {
    CHECK(ParsePlanText(PlanText(), "plans/p.json", FilesFromMap({})).status().ToString() ==
          "plans/p.json:/scenario: s.json: cannot read file: No such file or directory");
    CHECK(ErrorOf(PlanText(), R"({"name": "s", "description": "d", "workloads": {}})") ==
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
        "/workloads/w/kind: unknown workload kind 'Jobs' (valid: Pod, Deployment, Job, Workflow, "
        "Trace, Arrivals, DistributedJob)");
  CHECK(ErrorOf(with(R"({"a": {}})", R"(, "workload_patches": {"b": {}})")) ==
        "plans/p.json:/workload_patches/b: unknown configuration 'b' (valid: a)");
}

TEST_CASE("a scenario patch may not name another configuration or touch what the plan sets",
          "[plan]") {
  auto with = [](const std::string& patches) {
    return R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "gpu",
      "configurations": {"a": {}, "auto": {"autoscaling": {"min": 0}}},
      "slo": {"max_pending": 0}, "max_nodes": 4, "scenario_patches": )" + patches + "}";
  };
  CHECK(ErrorOf(with(R"({"b": {}})")) ==
        "plans/p.json:/scenario_patches/b: unknown configuration 'b' (valid: a, auto)");
  CHECK(ErrorOf(with(R"({"a": 3})")) == "plans/p.json:/scenario_patches/a: expected an object, got a number");
  CHECK(ErrorOf(with(R"({"a": {"cluster": {"nodes": {"gpu": {"count": 2}}}}})")) ==
        "plans/p.json:/scenario_patches/a/cluster/nodes/gpu/count: the plan sets the pool's "
        "count: remove it");
  CHECK(ErrorOf(with(R"({"auto": {"cluster": {"nodes": {"gpu": {"autoscaling": {"max": 2}}}}}})")) ==
        "plans/p.json:/scenario_patches/auto/cluster/nodes/gpu/autoscaling/max: the plan sets "
        "the node group's max: remove it");
  CHECK(ErrorOf(with(R"({"a": {"cluster": {"nodes": {"gpu": null}}}})")) ==
        "plans/p.json:/scenario_patches/a/cluster/nodes/gpu: the plan's pool cannot be replaced "
        "or removed: patch it in /configurations");
  CHECK(ErrorOf(with(R"({"a": {"seed": 3}})")) ==
        "plans/p.json:/scenario_patches/a/seed: the plan's seeds set the seed: give 'seeds'");
  CHECK(ErrorOf(with(R"({"a": {"variants": {}}})")) ==
        "plans/p.json:/scenario_patches/a/variants: a plan runs its scenario without variants");
  // A patch that leaves the cluster alone: looked into for the pool all the same, it once
  // ended as an internal error (found by the plan fuzz target).
  CHECK_THAT(ErrorOf(with(R"({"a": {"not-a-field": {}}})")),
             Catch::Matchers::StartsWith("plans/p.json:/scenario_patches/a"));
  CHECK(ErrorOf(with(R"({"a": {"cluster": {"karpenter": {}}}})")) ==
        "plans/p.json:/scenario_patches/a: does not load as a scenario with 1 node: "
        "/cluster/karpenter: no node pool is autoscaled (give a pool 'autoscaling')");
}

TEST_CASE("plan objectives, sizes and seeds are checked", "[plan]") {
  auto with_slo = [](const std::string& slo, const std::string& rest = R"("max_nodes": 4)") {
    return R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "gpu",
      "configurations": {"a": {}}, "slo": )" + slo + ", " + rest + "}";
  };
  CHECK(ErrorOf(with_slo("{}")) ==
        "plans/p.json:/slo: must set at least one objective (expected one of: "
        "p95_queueing_latency_s, max_pending, makespan_s, min_completed_fraction, max_wait_s, "
        "max_unserved, max_pending_peak)");
  CHECK(ErrorOf(with_slo(R"({"min_completed_fraction": 1.5})")) ==
        "plans/p.json:/slo/min_completed_fraction: must be <= 1");
  CHECK(ErrorOf(with_slo(R"({"p95_latency_s": 5})")) ==
        "plans/p.json:/slo/p95_latency_s: unknown field 'p95_latency_s' (expected one of: "
        "p95_queueing_latency_s, max_pending, makespan_s, min_completed_fraction, max_wait_s, "
        "max_unserved, max_pending_peak)");
  CHECK(ErrorOf(with_slo(R"({"max_pending": -1})")) == "plans/p.json:/slo/max_pending: must be >= 0");
  CHECK(ErrorOf(with_slo(R"({"max_wait_s": -1})")) == "plans/p.json:/slo/max_wait_s: must be >= 0");
  CHECK(ErrorOf(with_slo(R"({"max_unserved": 1.5})")) ==
        "plans/p.json:/slo/max_unserved: expected an integer, got 1.5");
  CHECK(ErrorOf(with_slo(R"({"max_pending_peak": -2})")) ==
        "plans/p.json:/slo/max_pending_peak: must be >= 0");
  SECTION("the serving objectives load") {
    Result<PlanFile> loaded =
        LoadPlan(with_slo(R"({"max_wait_s": 420, "max_unserved": 0, "max_pending_peak": 5})"));
    REQUIRE(loaded.ok());
    CHECK(loaded.value().slo.max_wait_s == 420);
    CHECK(loaded.value().slo.max_unserved == 0);
    CHECK(loaded.value().slo.max_pending_peak == 5);
  }
  CHECK(ErrorOf(with_slo(R"({"max_pending": 0})", R"("max_nodes": 0)")) ==
        "plans/p.json:/max_nodes: must be >= 1");
  CHECK(ErrorOf(with_slo(R"({"max_pending": 0})", R"("max_nodes": 4, "seeds": [])")) ==
        "plans/p.json:/seeds: must not be empty");
  CHECK(ErrorOf(with_slo(R"({"max_pending": 0})", R"("max_nodes": 4, "seeds": [1, 2, 1])")) ==
        "plans/p.json:/seeds/2: seed 1 is listed twice");
}

TEST_CASE("a plan file that cannot be read is an error at its path", "[plan]") {
  Result<PlanFile> loaded = LoadPlanFile("no-such-dir/p.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().ToString() ==
        "no-such-dir/p.json: cannot read file: No such file or directory");
}

TEST_CASE("a plan ranks by cost unless it says energy, and sets every configuration's energy",
          "[plan][energy]") {
  Result<PlanFile> plain = LoadPlan(PlanText());
  REQUIRE(plain.ok());
  CHECK(plain.value().rank_by == PlanRankBy::kCost);
  Result<PlanFile> loaded =
      LoadPlan(PlanText(R"(, "rank_by": "energy", "energy": {"price_per_kwh": 0.08, "pue": 1.2})"));
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  CHECK(plan.rank_by == PlanRankBy::kEnergy);
  Result<Scenario> s = PlanScenario(plan, plan.configurations[0], 2, plan.seeds.front());
  REQUIRE(s.ok());
  CHECK(s.value().energy.price_per_kwh == 0.08);
  CHECK(s.value().energy.pue == 1.2);
  CHECK(s.value().energy.grid_gco2_per_kwh == EnergySpec{}.grid_gco2_per_kwh);
}

TEST_CASE("a plan's bad rank_by or energy is refused at its pointer", "[plan][energy]") {
  CHECK(ErrorOf(PlanText(R"(, "rank_by": "speed")")) ==
        "plans/p.json:/rank_by: unknown rank_by 'speed' (valid: cost, energy)");
  CHECK(ErrorOf(PlanText(R"(, "energy": {"pue": 0.5})")) ==
        "plans/p.json:/energy/pue: must be >= 1");
  CHECK(ErrorOf(PlanText(R"(, "energy": 1)")) ==
        "plans/p.json:/energy: expected an object, got a number");
}

}  // namespace migsim
