#pragma once
// A HorizontalPodAutoscaler on a Deployment (README "Demand that follows the clock"): its
// metric is an external load (requests per second, load_series.h) with an AverageValue
// target per replica, so its decisions depend on the load and on the replicas it set
// itself, not on the run: they are computed before it, as the Deployment's scale events.

#include <vector>

#include "sim/core/sim_time.h"
#include "workloads/load_series.h"
#include "workloads/workload_spec.h"

namespace migsim {

// The HPA's spec and behaviour; defaults are Kubernetes' (HPA documentation, "Algorithm
// details" and "Default Behavior"; kube-controller-manager flags).
struct HpaSpec {
  LoadSeries load;
  double target_per_replica = 1;  // the metric's target AverageValue
  int min_replicas = 1;
  int max_replicas = 1;
  SimTime sync_period = SimTime::Seconds(15);  // --horizontal-pod-autoscaler-sync-period
  double tolerance = 0.1;                      // --horizontal-pod-autoscaler-tolerance
  // behavior.scaleUp / scaleDown.stabilizationWindowSeconds.
  SimTime scale_up_window = SimTime::Zero();
  SimTime scale_down_window = SimTime::Seconds(300);
};

// The scale events of an HPA that starts with the Deployment at `start` with `replicas`,
// synced every sync_period after it until `end`. Each sync: the raw recommendation is
// the current replicas within the tolerance of the target, else ceil(load / target); it
// is stabilized (the lowest recommendation of the scale-up window, the highest of the
// scale-down window), limited by the default rate policies (up: at most max(100 %, 4
// pods) more per 15 s; down: up to 100 % per 15 s) and clamped to min .. max. A count
// outside min .. max is brought to the nearer bound; 0 replicas turn the HPA off.
std::vector<ScaleEvent> HpaScaleEvents(const HpaSpec& hpa, int replicas, SimTime start,
                                       SimTime end);

}  // namespace migsim
