#pragma once
// kube-scheduler's queue settings (KubeSchedulerConfiguration and the scheduling queue),
// with their documented defaults (docs/scheduling.md §1).

#include "sim/core/sim_time.h"

namespace migsim {

struct SchedulerConfig {
  // A pod that failed a scheduling cycle waits initial × 2^(attempts − 1), at most max,
  // before it is tried again (podInitialBackoffSeconds 1, podMaxBackoffSeconds 10; the
  // scheduling queue's calculateBackoffDuration).
  SimTime pod_initial_backoff = SimTime::Micros(1'000'000);
  SimTime pod_max_backoff = SimTime::Micros(10'000'000);
  // An unschedulable pod is retried after this long even without a cluster event
  // (podMaxInUnschedulablePodsDuration, 5 min; flushUnschedulablePodsLeftover). Upstream
  // checks every 30 s, so a pod waits 5 to 5.5 min; migsim retries it at 5 min exactly.
  SimTime pod_max_in_unschedulable = SimTime::Micros(300'000'000);
  // percentageOfNodesToScore: the share of the nodes a scheduling cycle looks for
  // feasible nodes among before it scores them, from where the last cycle stopped. 100
  // (migsim's default) looks at every node, so that placements do not depend on the
  // cluster's size; 0 is kube-scheduler's adaptive default (50 % - nodes / 125, at least
  // 5 %). Clusters under 100 nodes, and any cycle, look for at least 100 feasible nodes.
  int32_t percentage_of_nodes_to_score = 100;

  // kube-scheduler's numFeasibleNodesToFind (pkg/scheduler/schedule_one.go;
  // minFeasibleNodesToFind 100, minFeasibleNodesPercentageToFind 5) for a cluster of
  // `nodes`: 0 when every node is to be looked at.
  uint32_t FeasibleNodesToFind(uint32_t nodes) const {
    constexpr uint32_t kMinFeasibleNodes = 100;
    constexpr int32_t kMinPercentage = 5;
    if (nodes < kMinFeasibleNodes || percentage_of_nodes_to_score >= 100) return 0;
    int64_t percentage = percentage_of_nodes_to_score;
    if (percentage == 0) {
      percentage = 50 - static_cast<int64_t>(nodes) / 125;
      if (percentage < kMinPercentage) percentage = kMinPercentage;
    }
    const int64_t find = static_cast<int64_t>(nodes) * percentage / 100;
    return find < kMinFeasibleNodes ? kMinFeasibleNodes : static_cast<uint32_t>(find);
  }

  // The back-off after the `attempts`-th failed cycle (attempts >= 1).
  SimTime Backoff(int attempts) const {
    SimTime d = pod_initial_backoff;
    for (int i = 1; i < attempts && d < pod_max_backoff; ++i) d = d + d;
    return d < pod_max_backoff ? d : pod_max_backoff;
  }
};

}  // namespace migsim
