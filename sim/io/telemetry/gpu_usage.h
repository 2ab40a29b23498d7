#pragma once
// Internal to sim/io/telemetry: what dcgm-exporter's series say of one pod's GPU use (the
// metrics and labels are listed in pod_observations.h).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/core/status.h"
#include "sim/io/telemetry/pod_observations.h"
#include "sim/io/telemetry/prometheus_matrix.h"

namespace migsim::telemetry {

inline constexpr std::string_view kGrEngineActive = "DCGM_FI_PROF_GR_ENGINE_ACTIVE";  // 0..1
inline constexpr std::string_view kGpuUtil = "DCGM_FI_DEV_GPU_UTIL";                  // percent
inline constexpr std::string_view kFbUsed = "DCGM_FI_DEV_FB_USED";                    // MiB

bool IsGpuUsageMetric(std::string_view metric);

// The pod a DCGM series is about (labels pod and namespace, or exported_pod and
// exported_namespace); nullopt for a GPU no pod held (the labels absent or empty).
std::optional<PodKey> GpuSeriesPod(const Series& series);

// Accumulates a pod's DCGM series.
class GpuUsage {
 public:
  // Adds the finite samples of `series` (NaN skipped). An out-of-range sample is an
  // InvalidArgument at its pointer. REQUIRES: IsGpuUsageMetric(series.metric).
  Status Add(const Series& series);
  bool seen() const { return seen_; }  // some series named the pod
  // Sets the pod's duty cycle (GR_ENGINE_ACTIVE's mean, else GPU_UTIL's mean / 100), peak
  // memory and the device of its first series.
  void Fill(PodObservation* pod) const;

 private:
  struct Mean {
    double sum = 0;
    int64_t count = 0;
  };
  Mean engine_active_, gpu_util_;
  std::optional<double> peak_mib_;
  bool seen_ = false;
  std::string mig_profile_, gpu_model_, hostname_;
};

}  // namespace migsim::telemetry
