#include "sim/io/telemetry/gpu_usage.h"

#include <algorithm>
#include <cmath>

#include "sim/io/json_reader.h"

namespace migsim::telemetry {
namespace {

// The first non-empty of two labels.
std::string EitherLabel(const Series& series, std::string_view name, std::string_view renamed) {
  std::string_view value = series.Label(name).value_or("");
  if (value.empty()) value = series.Label(renamed).value_or("");
  return std::string(value);
}

// The bounds of each metric's samples: a ratio, a percentage, MiB.
struct Bounds {
  double min, max;
};
Bounds BoundsOf(std::string_view metric) {
  if (metric == kGrEngineActive) return {0, 1};
  if (metric == kGpuUtil) return {0, 100};
  return {0, 1e12};  // MiB: a petabyte, past any GPU
}

}  // namespace

bool IsGpuUsageMetric(std::string_view metric) {
  return metric == kGrEngineActive || metric == kGpuUtil || metric == kFbUsed;
}

std::optional<PodKey> GpuSeriesPod(const Series& series) {
  PodKey key{EitherLabel(series, "namespace", "exported_namespace"),
             EitherLabel(series, "pod", "exported_pod")};
  if (key.pod.empty() || key.namespace_name.empty()) return std::nullopt;
  return key;
}

Status GpuUsage::Add(const Series& series) {
  const Bounds bounds = BoundsOf(series.metric);
  Mean* mean = series.metric == kGrEngineActive ? &engine_active_
               : series.metric == kGpuUtil      ? &gpu_util_
                                                : nullptr;
  for (size_t i = 0; i < series.samples.size(); ++i) {
    const double v = series.samples[i].value;
    if (std::isnan(v)) continue;
    if (!(v >= bounds.min && v <= bounds.max)) {
      return Status::InvalidArgument(
          series.metric + " must be within [" + io::FormatNumber(bounds.min) + ", " +
              io::FormatNumber(bounds.max) + "], got " + io::FormatNumber(v),
          {series.file, series.SamplePointer(i)});
    }
    if (mean != nullptr) {
      mean->sum += v;
      ++mean->count;
    } else {
      peak_mib_ = std::max(peak_mib_.value_or(v), v);
    }
  }
  if (!seen_) {
    seen_ = true;
    mig_profile_ = std::string(series.Label("GPU_I_PROFILE").value_or(""));
    gpu_model_ = std::string(series.Label("modelName").value_or(""));
    hostname_ = std::string(series.Label("Hostname").value_or(""));
  }
  return Status::Ok();
}

void GpuUsage::Fill(PodObservation* pod) const {
  if (engine_active_.count > 0) {
    pod->duty_cycle = engine_active_.sum / static_cast<double>(engine_active_.count);
    pod->duty_cycle_metric = std::string(kGrEngineActive);
  } else if (gpu_util_.count > 0) {
    pod->duty_cycle = gpu_util_.sum / static_cast<double>(gpu_util_.count) / 100;
    pod->duty_cycle_metric = std::string(kGpuUtil);
  }
  pod->peak_memory_mib = peak_mib_;
  pod->mig_profile = mig_profile_;
  pod->gpu_model = gpu_model_;
  pod->hostname = hostname_;
}

}  // namespace migsim::telemetry
