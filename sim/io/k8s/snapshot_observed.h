#pragma once
// Internal to sim/io/k8s: what `migsim import` observed of each workload's runs and what it
// makes of them. Three sources, each optional:
//  - telemetry (sim/io/telemetry: Prometheus exports of kube-state-metrics and dcgm-exporter):
//    run times (completion - start), duty cycles, peak GPU memory, the device measured on;
//  - the snapshot's finished pods (their containers' terminated startedAt / finishedAt);
//  - Jobs (`kubectl get jobs -A -o json`: status.startTime and completionTime), the run time
//    of a Job none of whose pods says how long it ran.
// A workload (owner) with observations gets a job class of observed figures, and its
// finished pods are replayed: a Trace workload "<name>/observed" submits each at its
// creation time (relative to the earliest replayed pod) for its observed run time.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/io/k8s/observed_workload.h"
#include "sim/io/k8s/snapshot_model.h"
#include "sim/io/telemetry/pod_observations.h"

namespace migsim::k8s {

// The completed Jobs of `items` (kind Job) by OwnerKey; Jobs without both times are left
// out. Errors (a time that is not RFC 3339, a completion before the start) go to `log`.
std::map<std::string, JobSpan> ReadSnapshotJobs(const std::vector<ManifestNode>& items,
                                                ManifestLog* log);

struct ObservedInputs {
  const telemetry::PodObservations* telemetry = nullptr;  // nullptr: no --telemetry
  std::map<std::string, JobSpan> jobs;
  bool given = false;  // --telemetry or --jobs was given: the report lists every default
};

struct ObservedReport {
  std::vector<std::string> notices;  // one per observed workload, then the defaults' summary
  std::set<std::string> observed_classes;  // job classes whose run time was observed
  int replayed = 0;                        // pods replayed
};

// Writes what `in` and the snapshot's finished pods say into `workloads` (job classes,
// workloads' templates, replay workloads). `placeholder_run_s` is the run time of classes
// without observed ones.
ObservedReport ApplyObservations(const SnapshotPods& pods, const ObservedInputs& in,
                                 double placeholder_run_s, SnapshotWorkloads* workloads);

}  // namespace migsim::k8s
