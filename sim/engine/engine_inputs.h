#pragma once
// What an Engine (engine.h) is made of and how it runs: its inputs, which it takes
// ownership of, and its configuration.

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/dra/device_class.h"
#include "sim/dra/shared_claim.h"
#include "sim/engine/cluster_controller.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/controller.h"
#include "sim/engine/disruption_budget.h"
#include "sim/engine/job_class.h"
#include "sim/engine/pod.h"
#include "sim/engine/run_budget.h"
#include "sim/engine/scheduler_config.h"
#include "sim/policy/queue_order.h"
#include "sim/policy/resources.h"

namespace migsim {

struct EngineConfig {
  uint64_t seed = 1;
  SimTime horizon = SimTime::Max();  // events after it are not run
  // Integrates MIG fragmentation (mig_fragmentation()) as the run goes: a scan of the
  // node's MIG devices at every allocation, so off unless asked for (a scenario with a DRA
  // pool asks for it in every variant; sim/study/run.h).
  bool measure_mig_fragmentation = false;
  // Asked between event times (at least once per simulated instant that has events); true
  // stops the run there: Run returns at once and stopped() is true. For a caller that
  // must be interruptible (Ctrl-C in Python); it must be cheap or rate-limit itself.
  std::function<bool()> should_stop{};
  // What the run may create; past it the run stops (overrun()).
  RunBudget budget{};
  // Gives back the records of pods that are over, a block at a time (PodStore), once the
  // observers have read them (EngineObserver::OnPodsReleased): memory then follows the pods
  // alive, not every pod of the run, and pods() holds only the pods not released. Runs
  // with gangs keep every pod (a gang's books read its members after they end).
  bool release_ended_pods = false;
};

// Everything a run is made of. The engine takes ownership of the controllers; the
// cluster spec must outlive the engine.
struct EngineInputs {
  const ClusterSpec* cluster = nullptr;
  ResourceTable resources;  // pre-interned names used by the templates
  std::vector<JobClass> job_classes;
  std::vector<PodTemplate> templates;
  std::vector<std::unique_ptr<Controller>> controllers;
  // The cluster controllers (cluster_controller.h), in the order the engine calls them
  // (make_controllers.h, in the controllers' folder, builds them from the cluster spec).
  ClusterControllers cluster_controllers{};
  SchedulerConfig scheduler{};
  // The queue discipline, the one queue-order extension point; null: PrioritySort.
  std::unique_ptr<QueueOrder> queue_order{};
  std::vector<PodDisruptionBudget> disruption_budgets{};
  // DRA: the DeviceClasses the templates' claims name (NVIDIA's and the scenario's), and
  // the shared ResourceClaims (by dra::SharedClaimId) the templates name.
  std::vector<dra::DeviceClass> device_classes{};
  std::vector<dra::SharedClaim> shared_claims{};
  // A hint: about how many pods the run creates. Their records are reserved up front, so
  // that a run of millions of pods does not hold twice their records while they grow.
  size_t expected_pods = 0;
};

}  // namespace migsim
