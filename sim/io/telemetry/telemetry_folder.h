#pragma once
// A folder of Prometheus exports, one "<metric>.json" per query (README "Telemetry
// export"), read into per-pod observations: what `migsim import --telemetry DIR` and
// migsim.import_cluster(telemetry=DIR) read.

#include <string>

#include "sim/core/status.h"
#include "sim/io/telemetry/pod_observations.h"

namespace migsim::telemetry {

// The files read from the folder, those present: each the answer of the query of that
// metric. Other files there are not read.
inline constexpr const char* kTelemetryFiles[] = {"kube_pod_created",
                                                  "kube_pod_start_time",
                                                  "kube_pod_completion_time",
                                                  "kube_pod_owner",
                                                  "kube_replicaset_owner",
                                                  "kube_pod_container_status_terminated_reason",
                                                  "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                                                  "DCGM_FI_DEV_GPU_UTIL",
                                                  "DCGM_FI_DEV_FB_USED"};

// The exports of folder `dir` (kTelemetryFiles, those present) joined per pod, and in
// `notice` the report line on what they held ("telemetry: 9 files read (absent: none), ...").
// InvalidArgument, prefixed with `what` (e.g. "--telemetry") and located at `dir`, when it
// is not a folder or holds none of the files; a file's own error as it is.
Result<PodObservations> ReadTelemetryFolder(const std::string& dir, const std::string& what,
                                            std::string* notice);

}  // namespace migsim::telemetry
