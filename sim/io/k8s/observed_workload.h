#pragma once
// Internal to sim/io/k8s: one workload's observed pods (snapshot_observed.h), the model made
// of them — run time, duty cycle, GPU memory, device measured on, pods to replay — and the
// import report's text about it.

#include <optional>
#include <string>
#include <vector>

#include "sim/io/k8s/snapshot_model.h"
#include "sim/io/telemetry/run_time_fit.h"

namespace migsim::k8s {

// A Job's status times (Unix seconds), from `kubectl get jobs -A -o json`.
struct JobSpan {
  double start_s = 0, completion_s = 0;
  ManifestPlace place;
};

enum class ObservedSource { kNone, kTelemetry, kSnapshot, kJobs };

struct ObservedPod {
  std::string name;
  bool telemetry = false;            // some series named it
  std::optional<double> created_s;   // Unix seconds
  std::optional<double> run_s;       // telemetry's, else the snapshot's terminated times
  ObservedSource run_source = ObservedSource::kNone;
  std::optional<double> duty_cycle;  // telemetry only
  std::string duty_cycle_metric;
  std::optional<double> peak_memory_mib;  // telemetry only
  std::string reason;                     // terminated reason; "" when unknown
  std::string mig_profile, gpu_model;     // the device telemetry measured it on
  const OrderedJson* tmpl = nullptr;      // its scenario template, when the snapshot has it
};

struct ObservedWorkload {
  std::string ns, kind, name;  // the owner, as the snapshot names it (ReplicaSet -> Deployment)
  std::vector<ObservedPod> pods;
  const JobSpan* job = nullptr;  // the Jobs file's times
};

struct RunFigures {
  double mean_s = 0, min_s = 0, max_s = 0;
  int runs = 0, from_telemetry = 0, from_snapshot = 0;
  bool from_job = false;  // the Job's completionTime - startTime (no pod said)
  std::optional<telemetry::LogNormalFit> fit;
};

struct WorkloadModel {
  std::optional<RunFigures> run;
  std::optional<double> duty_cycle;  // mean over the pods with one
  int duty_pods = 0;
  std::string duty_metric;  // the DCGM metric of the first, "+" another when mixed
  std::optional<double> memory_mib;  // the largest peak of the pods that did not fail
  int memory_pods = 0;
  bool memory_of_failed = false;  // every pod with a peak failed: their largest peak
  std::string measured_on;  // "NVIDIA A100-SXM4-40GB 3g.20gb"; "" when unknown
  std::string device_key;   // job class run_s key "A100-40GB/3g.20gb"; "" outside the catalog
  std::vector<const ObservedPod*> replayed;  // finished pods with a creation and run time
  const OrderedJson* replay_template = nullptr;
};

// Jobs and bare pods end on their own; Deployments, StatefulSets, ... run until deleted.
bool EndsOnItsOwn(const std::string& kind);

// The model of `w`.
WorkloadModel ModelOf(const ObservedWorkload& w);

// The report line of one observed workload, written as `base`.
std::string DescribeWorkload(const ObservedWorkload& w, const WorkloadModel& m, bool ends,
                             bool live, const std::string& base, double placeholder_run_s);

// "<n> finished pods replayed ... time 0 is <t0>".
std::string ReplayNotice(int replayed, double t0);

// The workloads still on defaults, counted for the report's closing lines.
class DefaultsTally {
 public:
  // A workload of the scenario (`model` nullptr: nothing observed of it).
  void Count(const std::string& label, const WorkloadModel* model, bool ends, bool in_scenario);
  std::vector<std::string> Lines(double placeholder_run_s) const;

 private:
  std::vector<std::string> run_, duty_, memory_, left_out_;
};

}  // namespace migsim::k8s
