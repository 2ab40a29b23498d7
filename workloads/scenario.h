#pragma once
// A scenario as the engine runs it: one variant of a scenario file, fully validated.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/dra/device_class.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/disruption_budget.h"
#include "sim/engine/job_class.h"
#include "sim/engine/kueue_spec.h"
#include "sim/engine/pod.h"
#include "sim/engine/priority_class.h"
#include "sim/engine/scheduler_config.h"
#include "sim/metrics/energy_spec.h"
#include "sim/policy/policy_spec.h"
#include "sim/policy/queue_order.h"
#include "sim/policy/resources.h"
#include "workloads/queueing_theory_spec.h"
#include "workloads/workload_spec.h"

namespace migsim {

struct Scenario {
  uint64_t seed = 1;
  SimTime horizon = SimTime::Max();
  ClusterSpec cluster;
  ResourceTable resources;  // names the templates request
  std::vector<JobClass> job_classes;
  std::vector<PodTemplate> templates;
  std::vector<WorkloadSpec> workloads;
  PolicySpec policy;  // the loader fills in the parameters' defaults
  // The system's two classes, then the scenario's; PodTemplate::priority_class indexes it.
  std::vector<PriorityClass> priority_classes;
  // The workloads' namespaces, "default" first; PodTemplate::namespace_index indexes it.
  std::vector<std::string> namespaces{"default"};
  std::vector<PodDisruptionBudget> disruption_budgets;
  SchedulerConfig scheduler;
  std::string queue_order = "priority";               // a name in QueueOrderNames()
  QueueOrderParams queue_params;                      // the parameters of queue_order
  std::optional<QueueingTheorySpec> queueing_theory;  // compare the run with this formula
  std::optional<KueueSpec> kueue;  // Kueue's objects; Jobs with a queue_name are managed
  // DRA's DeviceClasses: NVIDIA's two (gpu.nvidia.com, mig.nvidia.com), then the scenario's.
  std::vector<dra::DeviceClass> device_classes = dra::NvidiaDeviceClasses();
  // Shared ResourceClaims (top-level `resource_claims`, kind ResourceClaim); a template's
  // PodTemplate::shared_claims index them.
  std::vector<dra::SharedClaim> shared_claims;
  // What the run's energy is priced and weighed at (the `energy` section).
  EnergySpec energy;
};

struct ScenarioFile {
  std::string path;
  std::string name;
  std::string description;
  // In file order; a file without "variants" has one variant named "base".
  std::vector<std::pair<std::string, Scenario>> variants;
  // What the scenario's Kubernetes manifests ask for that migsim does not model, each
  // "<file>: document N: <path> (line L): <what>" (sim/io/k8s), once across the variants.
  std::vector<std::string> warnings{};
};

}  // namespace migsim
