#pragma once
// The spec of faults, part of ClusterSpec's vocabulary: nodes and GPUs that fail during a
// run, scripted at given times (Fault) or drawn from failure processes (FaultProcess).
// Built and validated by the scenario loader (sim/io/faults_json.cc); the faults' controller
// (sim/controllers/faults, FaultInjector) applies them.
// What each kind does to the node, its pods and their controllers is documented in
// scenarios/README.md ("faults").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/sim_time.h"

namespace migsim {

enum class FaultKind : uint8_t {
  // The node goes NotReady at once (the machine is gone): its pods stop computing, new
  // pods are not scheduled there (node.kubernetes.io/not-ready:NoSchedule), and after the
  // pods' not-ready/unreachable toleration the taint manager evicts them (EndReason
  // kNodeLost). A repair brings the node back Ready and empty.
  kNodeLost,
  // The device plugin marks the GPU unhealthy (an Xid error) and withdraws its devices:
  // the whole GPU, its MIG devices or its shared replicas. Pods on it fail at once
  // (kGpuFailed). A repair returns the devices.
  kGpuUnhealthy,
  // A spot instance is reclaimed: at the notice the node is cordoned and drained (the
  // node termination handler's evictions, which respect PodDisruptionBudgets and the
  // pods' grace periods); at the notice's end the node is gone for good and the pods
  // still on it end (kNodeRemoved).
  kSpotInterruption,
  // Planned maintenance (kubectl drain): cordon, evictions through the Eviction API that
  // respect PodDisruptionBudgets (a refused eviction is retried every 5 s); once the node
  // is empty the maintenance takes `maintenance` and the node is uncordoned.
  kDrain,
  // A MIG reconfiguration of the node fails (nvidia.com/mig.config.state=failed): pods on
  // its MIG GPUs lose their devices (kDeviceLost), the plugin is withdrawn for the MIG
  // manager's pending window, and afterwards the MIG GPUs have no GPU instances (no MIG
  // devices) until a repair re-applies the node's previous config.
  kMigReconfigureFailed,
};

std::string_view FaultKindName(FaultKind kind);  // "node-lost", ...

// The Kubernetes and cloud defaults the faults use.
// DefaultTolerationSeconds admission plugin: every pod tolerates
// node.kubernetes.io/not-ready and /unreachable (NoExecute) for 300 s.
inline constexpr SimTime kDefaultNotReadyToleration = SimTime::Micros(300'000'000);
// AWS EC2 Spot: the interruption notice comes two minutes before the instance stops.
inline constexpr SimTime kSpotNotice = SimTime::Micros(120'000'000);
// kubectl drain: an eviction refused by a PodDisruptionBudget (HTTP 429) is retried
// after 5 s.
inline constexpr SimTime kEvictionRetry = SimTime::Micros(5'000'000);

// What a fault hits. Exactly one form is used:
//  - `nodes` named (every GPU of each, for kGpuUnhealthy), or one node with `gpus` named
//    (kGpuUnhealthy);
//  - a pool's nodes in `nodes` with `count` of them (or of their GPUs, for kGpuUnhealthy)
//    drawn by the run's seed, `count` being either given or the pool's `fraction`
//    rounded up.
struct FaultTarget {
  std::vector<uint32_t> nodes;  // indices into ClusterSpec::nodes
  std::vector<int> gpus;        // GPU indices on nodes[0]; empty: not a GPU list
  bool drawn = false;           // pick `count` among `nodes` (or their GPUs)
  uint32_t count = 0;
};

struct Fault {
  SimTime at;
  FaultKind kind = FaultKind::kNodeLost;
  FaultTarget target;
  // kNodeLost, kGpuUnhealthy, kMigReconfigureFailed: back after this long (from `at`);
  // nullopt: never within the run.
  std::optional<SimTime> repair;
  SimTime toleration = kDefaultNotReadyToleration;  // kNodeLost
  SimTime notice = kSpotNotice;                     // kSpotInterruption
  SimTime maintenance;                              // kDrain: from the node being empty
};

// A random failure process on every node (or every GPU) of `nodes`: each fails
// independently, its time to failure drawn from an exponential (shape 1) or Weibull
// distribution, and is repaired after `repair` (fixed or exponential with that mean); its
// next time to failure is drawn from the repair on.
struct FaultProcess {
  std::string name;                           // for messages and the metrics
  FaultKind kind = FaultKind::kGpuUnhealthy;  // kGpuUnhealthy (per GPU) or kNodeLost (per node)
  std::vector<uint32_t> nodes;                // indices into ClusterSpec::nodes
  // Weibull(shape k, scale λ): P(T > t) = exp(-(t/λ)^k); k = 1 is the exponential with
  // mean λ.
  double shape = 1;
  SimTime scale;
  SimTime repair;
  bool repair_exponential = false;
  SimTime toleration = kDefaultNotReadyToleration;  // kNodeLost
};

}  // namespace migsim
