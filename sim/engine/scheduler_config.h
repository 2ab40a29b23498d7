#pragma once
// kube-scheduler's queue settings (KubeSchedulerConfiguration and the scheduling queue),
// with their documented defaults (docs/scheduling.md §1).

#include "sim/core/sim_time.h"

namespace migsim {

struct SchedulerConfig {
  // A pod that failed a scheduling cycle waits initial × 2^(attempts − 1), at most max,
  // before it is tried again (podInitialBackoffSeconds 1, podMaxBackoffSeconds 10).
  SimTime pod_initial_backoff = SimTime::Micros(1'000'000);
  SimTime pod_max_backoff = SimTime::Micros(10'000'000);
  // An unschedulable pod is retried after this long even without a cluster event
  // (podMaxInUnschedulablePodsDuration, 5 min).
  SimTime pod_max_in_unschedulable = SimTime::Micros(300'000'000);

  // The back-off after the `attempts`-th failed cycle (attempts >= 1).
  SimTime Backoff(int attempts) const {
    SimTime d = pod_initial_backoff;
    for (int i = 1; i < attempts && d < pod_max_backoff; ++i) d = d + d;
    return d < pod_max_backoff ? d : pod_max_backoff;
  }
};

}  // namespace migsim
