#include "sim/io/telemetry/telemetry_folder.h"

#include <filesystem>
#include <vector>

#include "sim/io/telemetry/prometheus_matrix.h"

namespace migsim::telemetry {

Result<PodObservations> ReadTelemetryFolder(const std::string& dir, const std::string& what,
                                            std::string* notice) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Status::InvalidArgument(what + ": not a folder", {dir, ""});
  }
  std::vector<std::string> paths;
  std::string missing;
  for (const char* metric : kTelemetryFiles) {
    const fs::path path = fs::path(dir) / (std::string(metric) + ".json");
    if (fs::exists(path, ec)) {
      paths.push_back(path.string());
    } else {
      missing += std::string(missing.empty() ? "" : ", ") + metric;
    }
  }
  if (paths.empty()) {
    return Status::InvalidArgument(
        what +
            ": none of the exports is here (kube_pod_created.json, ...; README "
            "'Telemetry export')",
        {dir, ""});
  }
  Result<std::vector<Series>> series = LoadPrometheusFiles(paths);
  if (!series.ok()) return series.status();
  Result<PodObservations> pods = JoinPodObservations(series.value());
  if (!pods.ok()) return pods.status();
  const ObservationReport& r = pods.value().report;
  *notice = "telemetry: " + std::to_string(paths.size()) +
            " files read (absent: " + (missing.empty() ? "none" : missing) + "), " +
            std::to_string(r.pods) + " pods: " + std::to_string(r.without_finished) +
            " without a completion time, " + std::to_string(r.without_gpu) +
            " without GPU series, " + std::to_string(r.duty_cycle_from_gpu_util) +
            " with the duty cycle from " + "DCGM_FI_DEV_GPU_UTIL; " +
            std::to_string(r.gpu_series_without_pod) + " GPU series of no pod, " +
            std::to_string(r.unnamed_series) + " series without a metric name, " +
            std::to_string(r.other_series) + " of other metrics: not used";
  return pods;
}

}  // namespace migsim::telemetry
