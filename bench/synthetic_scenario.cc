#include "bench/synthetic_scenario.h"

#include <cstdlib>
#include <string>

#include "sim/cluster/mig_config.h"
#include "sim/cluster/node_type.h"

namespace migsim {
namespace {

NodeSpec BalancedP4d(int i) {
  NodeSpec node;
  node.name = "p4d-" + std::to_string(i);
  node.type = SharedCatalogNodeType("p4d.24xlarge");
  node.plugin.strategy = MigStrategy::kMixed;
  node.mig_config = "all-balanced";
  Result<GpuMigSetting> setting = ResolveMigConfig(*node.type->gpu, node.mig_config);
  if (!setting.ok()) std::abort();
  node.gpus.assign(node.type->gpu_count, setting.value());
  return node;
}

PodTemplate MigPod(ResourceTable& resources, const char* profile) {
  PodTemplate t;
  t.requests.cpu_milli = 500;
  t.requests.memory_mib = 2048;
  t.requests.extended.push_back({resources.Intern(std::string("nvidia.com/mig-") + profile), 1});
  t.job_class = JobClassId(0);
  return t;
}

}  // namespace

// Waves of `wave` pods every 10 s, each mixing the three profiles 4:2:1 (the node's own
// 2:1:1 supply is outpaced, so a backlog builds). REQUIRES: `wave` a multiple of 1,000,
// or 1,000 / 10^k.
Scenario MigScenarioInWaves(int nodes, int pods, int wave, uint64_t seed) {
  Scenario s;
  s.seed = seed;
  for (int i = 0; i < nodes; ++i) s.cluster.nodes.push_back(BalancedP4d(i));
  JobClass inference;
  inference.name = "inference";
  inference.startup = SimTime::Seconds(5);
  inference.run_time = {{"1g.5gb", SimTime::Seconds(90)},
                        {"2g.10gb", SimTime::Seconds(50)},
                        {"3g.20gb", SimTime::Seconds(35)}};
  s.job_classes.push_back(inference);
  for (const char* profile : {"1g.5gb", "2g.10gb", "3g.20gb"}) {
    s.templates.push_back(MigPod(s.resources, profile));
  }
  const int waves = pods / wave;
  for (int w = 0; w < waves; ++w) {
    for (int t = 0; t < 3; ++t) {
      const int share[] = {572, 286, 142};  // of 1,000
      s.workloads.push_back(PodGroupSpec{"wave" + std::to_string(w) + "-" + std::to_string(t),
                                         SimTime::Seconds(10.0 * w), share[t] * wave / 1000,
                                         TemplateId(static_cast<TemplateId::Rep>(t))});
    }
  }
  return s;
}

Scenario SyntheticMigScenario(int nodes, int pods, uint64_t seed) {
  return MigScenarioInWaves(nodes, pods, 1000, seed);
}

Scenario SyntheticMigScenarioAtScale(int nodes, int pods, uint64_t seed) {
  return MigScenarioInWaves(nodes, pods, 10 * nodes, seed);
}

Scenario SyntheticPriorityScenario(int nodes, int pods, bool priorities, uint64_t seed) {
  Scenario s = SyntheticMigScenario(nodes, 0, seed);
  const int32_t values[] = {0, 1'000, 1'000'000};
  const int percent[] = {60, 30, 10};
  std::vector<PodTemplate> by_profile = std::move(s.templates);
  s.templates.clear();
  for (int p = 0; p < 3; ++p) {
    for (const PodTemplate& t : by_profile) {
      s.templates.push_back(t);
      s.templates.back().priority = priorities ? values[p] : 0;
    }
  }
  const int wave = 10 * nodes;
  const int profile_share[] = {4, 2, 1};  // of 7
  for (int w = 0; w < pods / wave; ++w) {
    for (int p = 0; p < 3; ++p) {
      for (int t = 0; t < 3; ++t) {
        s.workloads.push_back(PodGroupSpec{
            "wave" + std::to_string(w) + "-" + std::to_string(p) + "-" + std::to_string(t),
            SimTime::Seconds(10.0 * w), wave * percent[p] / 100 * profile_share[t] / 7,
            TemplateId(static_cast<TemplateId::Rep>(3 * p + t))});
      }
    }
  }
  return s;
}

Scenario SyntheticTimeSlicedScenario(int nodes, int pods, uint64_t seed) {
  Scenario s;
  s.seed = seed;
  for (int i = 0; i < nodes; ++i) {
    NodeSpec node;
    node.name = "p4d-" + std::to_string(i);
    node.type = SharedCatalogNodeType("p4d.24xlarge");
    node.plugin.sharing = SharingMode::kTimeSlicing;
    node.plugin.shared = {{.name = "nvidia.com/gpu", .replicas = 10}};
    node.mig_config = "all-disabled";
    node.gpus.assign(node.type->gpu_count, GpuMigSetting{});
    s.cluster.nodes.push_back(node);
  }
  JobClass inference;
  inference.name = "inference";
  inference.startup = SimTime::Seconds(5);
  inference.run_time = {{"gpu", SimTime::Seconds(12)}};
  inference.duty_cycle = 0.3;
  s.job_classes.push_back(inference);
  PodTemplate t;
  t.requests.cpu_milli = 500;
  t.requests.memory_mib = 2048;
  t.requests.extended.push_back({s.resources.Intern("nvidia.com/gpu"), 1});
  t.job_class = JobClassId(0);
  s.templates.push_back(t);
  for (int w = 0; w < pods / 1000; ++w) {
    s.workloads.push_back(
        PodGroupSpec{"wave" + std::to_string(w), SimTime::Seconds(10.0 * w), 1000, TemplateId(0)});
  }
  return s;
}

}  // namespace migsim
