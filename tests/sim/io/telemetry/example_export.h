#pragma once
// The example telemetry export of scenarios/telemetry/ (README "Telemetry export"), read and
// joined, for the tests of the telemetry readers.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/io/telemetry/pod_observations.h"

namespace migsim::telemetry {

inline PodObservations LoadExampleExport() {
  static const char* const kFiles[] = {"kube_pod_created",
                                       "kube_pod_start_time",
                                       "kube_pod_completion_time",
                                       "kube_pod_owner",
                                       "kube_replicaset_owner",
                                       "kube_pod_container_status_terminated_reason",
                                       "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                                       "DCGM_FI_DEV_GPU_UTIL",
                                       "DCGM_FI_DEV_FB_USED"};
  std::vector<std::string> paths;
  for (const char* name : kFiles) {
    paths.push_back(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/telemetry/" + name + ".json");
  }
  Result<std::vector<Series>> series = LoadPrometheusFiles(paths);
  REQUIRE(series.ok());
  Result<PodObservations> pods = JoinPodObservations(series.value());
  REQUIRE(pods.ok());
  return std::move(pods).value();
}

}  // namespace migsim::telemetry
