#include "sim/io/scenario_json.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <variant>

#include "sim/cluster/mig_config.h"
#include "sim/cluster/mig_layout.h"

namespace migsim {
namespace {

constexpr const char* kFullScenario = R"({
  "name": "superres-mig",
  "description": "GAN super-resolution fanned out over p4d nodes",
  "seed": 7,
  "horizon_s": 3600,
  "policy": {"name": "best-fit"},
  "cluster": {
    "node_types": {"cpu-box": {"vcpu": 16, "memory_gib": 64, "price_per_hour": 0.5}},
    "nodes": {
      "p4d": {"type": "p4d.24xlarge", "count": 2, "labels": {"tier": "gold", "team": "vision"},
              "mig": {"config": "all-1g.5gb"}},
      "mixed": {"type": "p4d.24xlarge",
                "mig": {"layouts": [["3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb"]]},
                "device_plugin": {"mig_strategy": "mixed",
                                  "time_slicing": {"replicas": 2,
                                                   "resources": ["nvidia.com/mig-1g.5gb"]}}},
      "cpu": {"type": "cpu-box"}
    },
    "reconfigurations": [
      {"at_s": 600, "pool": "p4d", "mig_config": "all-balanced"},
      {"at_s": 300, "node": "mixed-0", "mig_config": "all-7g.40gb", "duration_s": 30}
    ]
  },
  "job_classes": {
    "superres": {"startup_s": 20, "run_s": {"1g.5gb": 120, "gpu": 40, "default": 200},
                 "failure_probability": 0.01},
    "prep": {"run_s": 30}
  },
  "workloads": {
    "pipeline": {"kind": "Workflow", "at_s": 5, "parallelism": 8, "step_delay_s": 1.5, "steps": {
      "generate": {"template": {"job_class": "prep",
                                "resources": {"cpu": "500m", "memory": "1Gi"}}},
      "upscale": {"depends": ["generate"], "fan_out": 3,
                  "template": {"job_class": "superres",
                               "resources": {"cpu": 1, "memory": "2Gi",
                                             "nvidia.com/mig-1g.5gb": 1},
                               "node_selector": {"tier": "gold", "team": "vision"}},
                  "retry": {"limit": 2, "policy": "OnError"}},
      "report": {"depends": ["upscale", "generate"], "items": ["a", 2],
                 "template": {"job_class": "prep"}}
    }},
    "api": {"kind": "Deployment", "replicas": 2,
            "scale": [{"at_s": 900, "replicas": 0}, {"at_s": 100, "replicas": 4}],
            "template": {"resources": {"nvidia.com/gpu": 1}}},
    "batch": {"kind": "Job", "at_s": 10, "completions": 4, "parallelism": 2, "backoff_limit": 1,
              "template": {"job_class": "superres", "resources": {"nvidia.com/mig-1g.5gb": 1}}},
    "smoke": {"kind": "Pod", "count": 3, "template": {"job_class": "prep"}}
  },
  "variants": {
    "mig-1g": {},
    "whole-gpu": {"cluster": {"nodes": {"p4d": {"mig": null}}}, "policy": {"name": "first-fit"}}
  }
})";

ScenarioFile Load(std::string_view text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  INFO((loaded.ok() ? "" : loaded.status().ToString()));
  REQUIRE(loaded.ok());
  return std::move(loaded).value();
}

std::string Describe(const NodeSpec& node, size_t gpu) {
  return DescribeLayout(*node.type->gpu, node.gpus[gpu].layout);
}

const Labels kVisionGold = {{"team", "vision"}, {"tier", "gold"}};

}  // namespace

TEST_CASE("a full scenario loads every section in file order", "[io]") {
  const ScenarioFile file = Load(kFullScenario);
  CHECK(file.path == "t.json");
  CHECK(file.name == "superres-mig");
  CHECK(file.description == "GAN super-resolution fanned out over p4d nodes");
  REQUIRE(file.variants.size() == 2);
  CHECK(file.variants[0].first == "mig-1g");
  CHECK(file.variants[1].first == "whole-gpu");
  const Scenario& s = file.variants[0].second;
  CHECK(s.seed == 7);
  CHECK(s.horizon == SimTime::Seconds(3600));
  CHECK(s.policy.name == "best-fit");

  SECTION("nodes are named <pool>-<i> and carry their resolved MIG state") {
    const auto& nodes = s.cluster.nodes;
    REQUIRE(nodes.size() == 4);
    CHECK(nodes[0].name == "p4d-0");
    CHECK(nodes[1].name == "p4d-1");
    CHECK(nodes[2].name == "mixed-0");
    CHECK(nodes[3].name == "cpu-0");
    CHECK(nodes[0].type->name == "p4d.24xlarge");
    CHECK(nodes[0].extra_labels == kVisionGold);
    CHECK(nodes[0].mig_config == "all-1g.5gb");
    REQUIRE(nodes[0].gpus.size() == 8);
    CHECK(nodes[0].gpus[7].mig_enabled);
    CHECK(Describe(nodes[0], 7) ==
          "1g.5gb@0 + 1g.5gb@1 + 1g.5gb@2 + 1g.5gb@3 + 1g.5gb@4 + 1g.5gb@5 + 1g.5gb@6");
    CHECK(nodes[0].plugin.strategy == MigStrategy::kMixed);
    CHECK(nodes[0].plugin.sharing == SharingMode::kNone);
  }
  SECTION("a custom layout is placed as mig-parted would and applies to every GPU") {
    const NodeSpec& mixed = s.cluster.nodes[2];
    CHECK(mixed.mig_config.empty());
    REQUIRE(mixed.gpus.size() == 8);
    const GpuModel& a100 = *mixed.type->gpu;
    const std::vector<ProfileCount> counts = {{a100.FindProfile("3g.20gb"), 1},
                                              {a100.FindProfile("2g.10gb"), 1},
                                              {a100.FindProfile("1g.5gb"), 2}};
    CHECK(mixed.gpus[0].mig_enabled);
    CHECK(mixed.gpus[0].layout == PlaceProfiles(a100, counts).value());
    CHECK(mixed.gpus[7] == mixed.gpus[0]);
    CHECK(mixed.plugin.sharing == SharingMode::kTimeSlicing);
    REQUIRE(mixed.plugin.shared.size() == 1);
    CHECK(mixed.plugin.shared[0].name == "nvidia.com/mig-1g.5gb");
    CHECK(mixed.plugin.shared[0].replicas == 2);
  }
  SECTION("a custom node type is usable by name") {
    const NodeSpec& cpu = s.cluster.nodes[3];
    CHECK(cpu.type->name == "cpu-box");
    CHECK(cpu.type->vcpu == 16);
    CHECK(cpu.type->memory_gib == 64);
    CHECK(cpu.type->gpu == nullptr);
    CHECK(cpu.type->price_per_hour == 0.5);
    CHECK(cpu.gpus.empty());
    CHECK(cpu.mig_config.empty());
  }
  SECTION("reconfigurations become one entry per node, sorted by time") {
    const auto& r = s.cluster.reconfigurations;
    REQUIRE(r.size() == 3);
    CHECK(r[0].node == 2);
    CHECK(r[0].at == SimTime::Seconds(300));
    CHECK(r[0].duration == SimTime::Seconds(30));
    CHECK(r[0].mig_config == "all-7g.40gb");
    CHECK(r[1].node == 0);
    CHECK(r[2].node == 1);
    CHECK(r[2].at == SimTime::Seconds(600));
    CHECK(r[2].duration == SimTime::Seconds(60));
    REQUIRE(r[2].gpus.size() == 8);
    CHECK(r[2].gpus[3] == ResolveMigConfig(*s.cluster.nodes[1].type->gpu, "all-balanced").value());
  }
  SECTION("job classes keep per-device run times and a default") {
    REQUIRE(s.job_classes.size() == 2);
    const JobClass& superres = s.job_classes[0];
    CHECK(superres.name == "superres");
    CHECK(superres.startup == SimTime::Seconds(20));
    CHECK(superres.RunTimeOn("", "1g.5gb") == SimTime::Seconds(120));
    CHECK(superres.RunTimeOn("", "gpu") == SimTime::Seconds(40));
    CHECK(superres.RunTimeOn("", "3g.20gb") == SimTime::Seconds(200));
    CHECK(superres.failure_probability == 0.01);
    CHECK(s.job_classes[1].RunTimeOn("", "cpu") == SimTime::Seconds(30));
  }
  SECTION("each template occurrence becomes one pod template with parsed requests") {
    REQUIRE(s.templates.size() == 6);
    REQUIRE(s.resources.size() == 2);
    CHECK(s.resources.name(ResourceId(0)) == "nvidia.com/mig-1g.5gb");
    CHECK(s.resources.name(ResourceId(1)) == "nvidia.com/gpu");
    const PodTemplate& generate = s.templates[0];
    CHECK(generate.requests == PodRequests{.cpu_milli = 500, .memory_mib = 1024, .extended = {}});
    CHECK(generate.job_class == JobClassId(1));
    const PodTemplate& upscale = s.templates[1];
    CHECK(upscale.requests ==
          PodRequests{.cpu_milli = 1000, .memory_mib = 2048, .extended = {{ResourceId(0), 1}}});
    CHECK(upscale.node_selector == kVisionGold);
    CHECK(upscale.job_class == JobClassId(0));
    CHECK_FALSE(upscale.runs_forever);
    const PodTemplate& api = s.templates[3];
    CHECK(api.runs_forever);
    CHECK_FALSE(api.job_class.valid());
    CHECK(api.requests.extended == std::vector<ResourceRequest>{{ResourceId(1), 1}});
  }
  SECTION("workflow steps keep file order, dependencies by index, and fan-out items") {
    REQUIRE(s.workloads.size() == 4);
    const auto& wf = std::get<WorkflowSpec>(s.workloads[0]);
    CHECK(wf.name == "pipeline");
    CHECK(wf.at == SimTime::Seconds(5));
    CHECK(wf.parallelism == 8);
    CHECK(wf.step_delay == SimTime::Millis(1500));
    REQUIRE(wf.steps.size() == 3);
    CHECK(wf.steps[0].name == "generate");
    CHECK(wf.steps[0].depends.empty());
    CHECK(wf.steps[0].items.empty());
    CHECK(wf.steps[1].depends == std::vector<int>{0});
    CHECK(wf.steps[1].items == std::vector<std::string>{"0", "1", "2"});
    CHECK(wf.steps[1].retry.limit == 2);
    CHECK(wf.steps[1].retry.policy == RetryPolicy::kOnError);
    CHECK(wf.steps[1].tmpl == TemplateId(1));
    CHECK(wf.steps[2].depends == std::vector<int>{1, 0});
    CHECK(wf.steps[2].items == std::vector<std::string>{"a", "2"});
  }
  SECTION("deployments, jobs and pods keep their counts; scale events are sorted") {
    const auto& api = std::get<DeploymentSpec>(s.workloads[1]);
    CHECK(api.name == "api");
    CHECK(api.replicas == 2);
    REQUIRE(api.scale.size() == 2);
    CHECK(api.scale[0].at == SimTime::Seconds(100));
    CHECK(api.scale[0].replicas == 4);
    CHECK(api.scale[1].at == SimTime::Seconds(900));
    CHECK(api.tmpl == TemplateId(3));
    const auto& batch = std::get<JobSpec>(s.workloads[2]);
    CHECK(batch.at == SimTime::Seconds(10));
    CHECK(batch.completions == 4);
    CHECK(batch.parallelism == 2);
    CHECK(batch.backoff_limit == 1);
    const auto& smoke = std::get<PodGroupSpec>(s.workloads[3]);
    CHECK(smoke.count == 3);
    CHECK(smoke.tmpl == TemplateId(5));
  }
  SECTION("a variant is the base document with its merge patch applied") {
    const Scenario& whole = file.variants[1].second;
    CHECK(whole.policy.name == "first-fit");
    CHECK(whole.seed == 7);
    CHECK(whole.cluster.nodes[0].mig_config == "all-disabled");
    CHECK_FALSE(whole.cluster.nodes[0].gpus[0].mig_enabled);
    CHECK(whole.cluster.nodes[2].mig_config.empty());
    CHECK(whole.templates.size() == 6);
  }
}

TEST_CASE("a minimal scenario gets the documented defaults", "[io]") {
  const ScenarioFile file = Load(R"({
    "name": "d", "description": "defaults",
    "cluster": {"nodes": {"n": {"type": "p4d.24xlarge"}, "t4": {"type": "g4dn.xlarge"}}},
    "job_classes": {"c": {}},
    "workloads": {"j": {"kind": "Job", "template": {"job_class": "c"}},
                  "w": {"kind": "Workflow", "steps": {"only": {"template": {"job_class": "c"}}}}}
  })");
  REQUIRE(file.variants.size() == 1);
  CHECK(file.variants[0].first == "base");
  const Scenario& s = file.variants[0].second;
  CHECK(s.seed == 1);
  CHECK(s.horizon == SimTime::Max());
  CHECK(s.policy.name == "first-fit");
  const NodeSpec& n = s.cluster.nodes[0];
  CHECK(n.name == "n-0");
  CHECK(n.mig_config == "all-disabled");
  CHECK(n.gpus == std::vector<GpuMigSetting>(8, GpuMigSetting{}));
  CHECK(n.plugin.strategy == MigStrategy::kMixed);
  CHECK(n.plugin.sharing == SharingMode::kNone);
  CHECK(n.extra_labels.empty());
  const NodeSpec& t4 = s.cluster.nodes[1];
  CHECK(t4.mig_config.empty());
  CHECK(t4.plugin.strategy == MigStrategy::kNone);
  CHECK(s.cluster.reconfigurations.empty());
  const JobClass& c = s.job_classes[0];
  CHECK(c.startup == SimTime::Zero());
  CHECK(c.run_time.empty());
  CHECK_FALSE(c.default_run_time.has_value());
  CHECK(c.failure_probability == 0);
  CHECK(s.templates[0].requests == PodRequests{});
  CHECK(s.templates[0].node_selector.empty());
  const auto& job = std::get<JobSpec>(s.workloads[0]);
  CHECK(job.at == SimTime::Zero());
  CHECK(job.completions == 1);
  CHECK(job.parallelism == 1);
  CHECK(job.backoff_limit == 6);
  const auto& wf = std::get<WorkflowSpec>(s.workloads[1]);
  CHECK(wf.parallelism == 0);
  CHECK(wf.step_delay == SimTime::Zero());
  CHECK(wf.steps[0].retry.limit == 0);
  CHECK(wf.steps[0].retry.policy == RetryPolicy::kOnFailure);
}

TEST_CASE("a Deployment gets one replica and no scale events by default", "[io]") {
  const ScenarioFile file = Load(R"({"name": "d", "description": "d", "horizon_s": 60,
    "cluster": {"nodes": {"n": {"type": "p4d.24xlarge"}}},
    "workloads": {"d": {"kind": "Deployment", "template": {}}}})");
  const auto& deployment = std::get<DeploymentSpec>(file.variants[0].second.workloads[0]);
  CHECK(deployment.replicas == 1);
  CHECK(deployment.scale.empty());
  CHECK(deployment.at == SimTime::Zero());
}

TEST_CASE("a scenario with a Deployment and no horizon is rejected at the Deployment", "[io]") {
  Result<ScenarioFile> r = ParseScenarioText(R"({"name": "d", "description": "d",
    "cluster": {"nodes": {"n": {"type": "p4d.24xlarge"}}},
    "workloads": {"web/api": {"kind": "Deployment", "template": {}}}})", "t.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().ToString() ==
        "t.json:/workloads/web~1api: a Deployment runs until deleted: the scenario needs horizon_s");
}

TEST_CASE("time-slicing defaults to sharing nvidia.com/gpu without renaming", "[io]") {
  const ScenarioFile file = Load(R"({"name": "t", "description": "d", "workloads": {},
    "cluster": {"nodes": {"g": {"type": "g5.12xlarge",
                                "device_plugin": {"time_slicing": {"replicas": 4}}}}}})");
  const DevicePluginConfig& plugin = file.variants[0].second.cluster.nodes[0].plugin;
  CHECK(plugin.strategy == MigStrategy::kNone);
  CHECK(plugin.sharing == SharingMode::kTimeSlicing);
  REQUIRE(plugin.shared.size() == 1);
  CHECK(plugin.shared[0].name == "nvidia.com/gpu");
  CHECK(plugin.shared[0].replicas == 4);
  CHECK_FALSE(plugin.rename_by_default);
  CHECK_FALSE(plugin.fail_requests_greater_than_one);
}

TEST_CASE("explicit GI starts are kept and sorted, an empty layout enables MIG alone", "[io]") {
  const ScenarioFile file = Load(R"({"name": "t", "description": "d", "workloads": {},
    "cluster": {"nodes": {"p": {"type": "p5.48xlarge", "mig": {"layouts": [
      ["3g.40gb@4", "1g.10gb@0"], [], [], [], [], [], [], ["7g.80gb"]]}}}}})");
  const NodeSpec& node = file.variants[0].second.cluster.nodes[0];
  CHECK(Describe(node, 0) == "1g.10gb@0 + 3g.40gb@4");
  CHECK(node.gpus[1].mig_enabled);
  CHECK(node.gpus[1].layout.empty());
  CHECK(Describe(node, 7) == "7g.80gb@0");
}

TEST_CASE("a scenario file is read from disk and its path is kept", "[io]") {
  const std::string path = "/tmp/migsim_io_test_scenario.json";
  {
    std::ofstream out(path);
    out << kFullScenario;
  }
  Result<ScenarioFile> loaded = LoadScenarioFile(path);
  std::remove(path.c_str());
  REQUIRE(loaded.ok());
  CHECK(loaded.value().path == path);
  CHECK(loaded.value().variants.size() == 2);
}

TEST_CASE("a missing file is an I/O error naming the path", "[io]") {
  Result<ScenarioFile> loaded = LoadScenarioFile("/nonexistent/missing.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == StatusCode::kIoError);
  CHECK(loaded.status().ToString() ==
        "/nonexistent/missing.json: cannot read file: No such file or directory");
}

}  // namespace migsim

namespace migsim {
namespace {

std::vector<SimTime> ArrivalTimes(const Scenario& scenario) {
  std::vector<SimTime> times;
  for (const TraceEntry& e : std::get<TraceSpec>(scenario.workloads.front()).entries) {
    times.push_back(e.at);
  }
  return times;
}

const Scenario& Variant(const ScenarioFile& file, const std::string& name) {
  for (const auto& [n, scenario] : file.variants) {
    if (n == name) return scenario;
  }
  FAIL("no variant " + name);
  return file.variants.front().second;
}

}  // namespace

TEST_CASE("a seed given with the load draws an Arrivals workload's arrivals from it", "[io][seed]") {
  const std::string path = std::string(MIGSIM_SOURCE_DIR) + "/scenarios/arrivals-example.json";
  Result<ScenarioFile> own = LoadScenarioFile(path);
  Result<ScenarioFile> one = LoadScenarioFile(path, {.seed = 1});
  Result<ScenarioFile> seven = LoadScenarioFile(path, {.seed = 7});
  REQUIRE((own.ok() && one.ok() && seven.ok()));
  for (const std::string variant : {"base", "busier"}) {
    CHECK(Variant(seven.value(), variant).seed == 7);
    // The file's seed is 1: the same arrivals; seed 7 draws others.
    CHECK(ArrivalTimes(Variant(one.value(), variant)) ==
          ArrivalTimes(Variant(own.value(), variant)));
    CHECK(ArrivalTimes(Variant(seven.value(), variant)) !=
          ArrivalTimes(Variant(one.value(), variant)));
  }
}

TEST_CASE("a seed given with the load replaces a variant's own seed too", "[io][seed]") {
  const std::string text = R"({"name": "s", "description": "d", "seed": 3,
    "cluster": {"nodes": {"a": {"type": "g4dn.xlarge"}}}, "workloads": {},
    "variants": {"own": {"seed": 5}, "inherits": {}}})";
  Result<ScenarioFile> as_written = ParseScenarioText(text, "s.json");
  Result<ScenarioFile> seeded = ParseScenarioText(text, "s.json", NamedFiles::kRead, {.seed = 9});
  REQUIRE((as_written.ok() && seeded.ok()));
  CHECK(Variant(as_written.value(), "own").seed == 5);
  CHECK(Variant(as_written.value(), "inherits").seed == 3);
  CHECK(Variant(seeded.value(), "own").seed == 9);
  CHECK(Variant(seeded.value(), "inherits").seed == 9);
}

TEST_CASE("the random policy draws from the run's seed unless the scenario gives it one",
          "[io][seed]") {
  auto policy_seed = [](const std::string& policy, std::optional<uint64_t> seed) {
    Result<ScenarioFile> file = ParseScenarioText(
        R"({"name": "s", "description": "d", "seed": 4, "policy": )" + policy +
            R"(, "cluster": {"nodes": {"a": {"type": "g4dn.xlarge"}}}, "workloads": {}})",
        "s.json", NamedFiles::kRead, {.seed = seed});
    REQUIRE(file.ok());
    return file.value().variants.front().second.policy.Integer("seed");
  };
  CHECK(policy_seed(R"({"name": "random"})", std::nullopt) == 4);
  CHECK(policy_seed(R"({"name": "random"})", 11) == 11);
  CHECK(policy_seed(R"({"name": "random", "params": {"seed": 2}})", 11) == 2);
}

}  // namespace migsim
