#pragma once
// What a cluster's telemetry says about each pod it ran: the series of kube-state-metrics and
// NVIDIA dcgm-exporter (prometheus_matrix.h) joined by (namespace, pod). `migsim import` turns
// the observations of each workload (owner) into its run times, duty cycle, memory and
// arrivals, and tells users which workloads lack them and run on defaults.
//
// Metrics read (README "Telemetry export" gives the queries):
//  - kube-state-metrics, pod metrics (docs/pod-metrics.md of kubernetes/kube-state-metrics),
//    each with the labels namespace, pod, uid: kube_pod_created, kube_pod_start_time,
//    kube_pod_completion_time (value: Unix seconds); kube_pod_owner (owner_kind, owner_name,
//    owner_is_controller; "<none>" for a pod without owner);
//    kube_pod_container_status_terminated_reason (container, reason; 1 while current); and
//    kube_replicaset_owner (replicaset, owner_kind, owner_name) to name a ReplicaSet's
//    Deployment.
//  - dcgm-exporter: DCGM_FI_PROF_GR_ENGINE_ACTIVE (ratio 0..1; in etc/dcp-metrics-included.csv,
//    not etc/default-counters.csv), DCGM_FI_DEV_GPU_UTIL (percent 0..100; default counter),
//    DCGM_FI_DEV_FB_USED (MiB; default counter). Its metric template labels each series gpu,
//    UUID, pci_bus_id, device, modelName, GPU_I_PROFILE and GPU_I_ID (MIG instances only),
//    Hostname; its Kubernetes pod mapper adds pod, namespace, container for a GPU a pod holds.
//    A scrape without honor_labels renames those to exported_pod, exported_namespace
//    (Prometheus scrape_config honor_labels): both spellings are read.

#include <optional>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/telemetry/prometheus_matrix.h"

namespace migsim::telemetry {

// A pod's identity in every source. A pod recreated under the same name (a StatefulSet's) is
// one key: its latest sample wins.
struct PodKey {
  std::string namespace_name;
  std::string pod;
  auto operator<=>(const PodKey&) const = default;
};

struct PodOwner {
  std::string kind;  // "Job", "ReplicaSet", "Deployment", ...
  std::string name;
};

struct PodObservation {
  PodKey key;
  // Unix seconds. kube_pod_start_time is the pod's status.startTime: when the kubelet
  // acknowledged it, before images were pulled; the run time counts from there.
  std::optional<double> created, started, finished;
  std::optional<double> run_seconds;  // finished - started, when both are known
  // The controller owner kube_pod_owner names (owner_is_controller="true" first).
  std::optional<PodOwner> owner;
  bool ownerless = false;  // kube_pod_owner says the pod has no owner ("<none>")
  // The workload the pod belongs to: the owner, or a ReplicaSet owner's Deployment when
  // kube_replicaset_owner names it.
  std::optional<PodOwner> workload;
  // A container's current terminated reason ("Completed", "OOMKilled", "Error", ...): a
  // reason other than Completed wins over Completed; "" when none was seen.
  std::string terminated_reason;
  std::optional<double> duty_cycle;       // mean over the pod's GPU samples, 0..1
  std::string duty_cycle_metric;          // the DCGM metric it came from
  std::optional<double> peak_memory_mib;  // largest DCGM_FI_DEV_FB_USED sample
  // The device measured on, from the pod's first DCGM series: a MIG profile ("1g.10gb"; ""
  // on a whole GPU), the GPU model as the driver names it ("NVIDIA A100-SXM4-40GB"), node.
  std::string mig_profile, gpu_model, hostname;
};

// How many of the pods lack each item, and what of the input was not used.
struct ObservationReport {
  int pods = 0;
  int without_created = 0, without_started = 0, without_finished = 0, without_run_time = 0;
  int without_owner = 0;  // neither an owner nor "<none>" was seen
  int without_terminated_reason = 0;
  int without_gpu = 0;  // no DCGM series names the pod
  int without_duty_cycle = 0, without_memory = 0;
  int duty_cycle_from_gpu_util = 0;         // DCGM_FI_DEV_GPU_UTIL / 100 stood in for GR_ENGINE
  int replica_sets_without_deployment = 0;  // pods whose ReplicaSet owner stays unresolved
  int gpu_series_without_pod = 0;           // DCGM series of GPUs no pod held
  int unnamed_series = 0;  // series whose query dropped __name__ (rate(), sum, ...)
  int other_series = 0;    // series of metrics not read here
};

struct PodObservations {
  std::vector<PodObservation> pods;  // sorted by key
  ObservationReport report;
};

// Joins `series` (any number of responses, in any order) into per-pod observations. Errors,
// InvalidArgument at the series' file and JSON pointer: a series of a read metric without its
// namespace or pod label; a timestamp that is not a finite Unix time; a completion before the
// start; a GR_ENGINE_ACTIVE sample outside [0, 1], a GPU_UTIL one outside [0, 100], an
// FB_USED one negative or infinite. NaN samples (no data at that step) are skipped.
Result<PodObservations> JoinPodObservations(const std::vector<Series>& series);

}  // namespace migsim::telemetry
