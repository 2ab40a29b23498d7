#include "sim/io/telemetry/pod_observations.h"

#include <cmath>
#include <map>

#include "sim/io/json_reader.h"
#include "sim/io/telemetry/gpu_usage.h"

namespace migsim::telemetry {
namespace {

// A timestamp metric's value as last sampled: kube-state-metrics repeats the same Unix time
// at every step while the pod exists.
struct Stamp {
  double sampled_at = 0;  // when Prometheus sampled it (the latest of a pod's series wins)
  double value = 0;       // the Unix time the metric reports
  const Series* series = nullptr;
  size_t index = 0;
};

struct PodState {
  std::optional<Stamp> created, started, finished;
  std::optional<PodOwner> controller_owner, other_owner;
  bool ownerless = false;
  std::string terminated_reason;
  GpuUsage gpu;
};

Status ErrorAt(const Series& series, const std::string& pointer, const std::string& message) {
  return Status::InvalidArgument(message, {series.file, pointer});
}

// The (namespace, pod) a kube-state-metrics series is about; both labels are required.
Result<PodKey> KsmPod(const Series& series) {
  for (const char* label : {"namespace", "pod"}) {
    if (series.Label(label).value_or("").empty()) {
      return ErrorAt(series, series.pointer + "/metric",
                     series.metric + " series lacks the label '" + std::string(label) + "'");
    }
  }
  return PodKey{std::string(*series.Label("namespace")), std::string(*series.Label("pod"))};
}

// The last sample that is not NaN, checked to be a Unix time; nullopt when every one is NaN.
Result<std::optional<Stamp>> LastStamp(const Series& series) {
  for (size_t i = series.samples.size(); i-- > 0;) {
    const Sample& s = series.samples[i];
    if (std::isnan(s.value)) continue;
    if (!(s.value >= 0 && s.value <= kMaxUnixSeconds)) {
      return ErrorAt(
          series, series.SamplePointer(i),
          series.metric + " must be a Unix time in seconds, got " + io::FormatNumber(s.value));
    }
    return std::optional<Stamp>(Stamp{s.time, s.value, &series, i});
  }
  return std::optional<Stamp>();
}

// The reason a container's terminated_reason series holds now: value 1 at its last sample.
// Older kube-state-metrics write every reason, the current one 1 and the rest 0.
bool ReasonIsCurrent(const Series& series) {
  return !series.samples.empty() && series.samples.back().value == 1;
}

class Joiner {
 public:
  Status Add(const Series& series);
  Result<PodObservations> Finish();

 private:
  // The state of the pod a kube-state-metrics series is about.
  Result<PodState*> PodOf(const Series& series);
  Status AddStamp(const Series& series, std::optional<Stamp> PodState::*field);
  Status AddOwner(const Series& series);
  Status AddReason(const Series& series);
  Status AddReplicaSetOwner(const Series& series);
  Status AddGpuSeries(const Series& series);
  Result<PodObservation> Observe(const PodKey& key, const PodState& state);
  void Count(const PodObservation& pod, const PodState& state);

  std::map<PodKey, PodState> pods_;
  std::map<PodKey, PodOwner> replica_set_owners_;  // (namespace, ReplicaSet) -> its owner
  ObservationReport report_;
};

Status Joiner::Add(const Series& series) {
  const std::string& m = series.metric;
  if (m.empty()) {
    ++report_.unnamed_series;
    return Status::Ok();
  }
  if (m == "kube_pod_created") return AddStamp(series, &PodState::created);
  if (m == "kube_pod_start_time") return AddStamp(series, &PodState::started);
  if (m == "kube_pod_completion_time") return AddStamp(series, &PodState::finished);
  if (m == "kube_pod_owner") return AddOwner(series);
  if (m == "kube_pod_container_status_terminated_reason") return AddReason(series);
  if (m == "kube_replicaset_owner") return AddReplicaSetOwner(series);
  if (IsGpuUsageMetric(m)) return AddGpuSeries(series);
  ++report_.other_series;
  return Status::Ok();
}

Result<PodState*> Joiner::PodOf(const Series& series) {
  Result<PodKey> key = KsmPod(series);
  if (!key.ok()) return key.status();
  return &pods_[key.value()];
}

Status Joiner::AddStamp(const Series& series, std::optional<Stamp> PodState::*field) {
  Result<PodState*> pod = PodOf(series);
  if (!pod.ok()) return pod.status();
  Result<std::optional<Stamp>> stamp = LastStamp(series);
  if (!stamp.ok()) return stamp.status();
  std::optional<Stamp>& kept = pod.value()->*field;
  if (stamp.value() && (!kept || stamp.value()->sampled_at >= kept->sampled_at)) {
    kept = stamp.value();
  }
  return Status::Ok();
}

// kube-state-metrics writes owner_kind="<none>" for a pod without owner references
// (internal/store/pod.go, createPodOwnerFamilyGenerator).
Status Joiner::AddOwner(const Series& series) {
  Result<PodState*> state = PodOf(series);
  if (!state.ok()) return state.status();
  PodState& pod = *state.value();
  const std::string kind(series.Label("owner_kind").value_or(""));
  const std::string name(series.Label("owner_name").value_or(""));
  if (kind == "<none>" || kind.empty()) {
    pod.ownerless = true;
  } else if (series.Label("owner_is_controller") == "true") {
    pod.controller_owner = PodOwner{kind, name};
  } else if (!pod.other_owner) {
    pod.other_owner = PodOwner{kind, name};
  }
  return Status::Ok();
}

Status Joiner::AddReason(const Series& series) {
  Result<PodState*> state = PodOf(series);
  if (!state.ok()) return state.status();
  PodState& pod = *state.value();
  const std::string reason(series.Label("reason").value_or(""));
  if (!ReasonIsCurrent(series) || reason.empty()) return Status::Ok();
  if (pod.terminated_reason.empty() || pod.terminated_reason == "Completed") {
    pod.terminated_reason = reason;
  }
  return Status::Ok();
}

Status Joiner::AddReplicaSetOwner(const Series& series) {
  const std::string ns(series.Label("namespace").value_or(""));
  const std::string rs(series.Label("replicaset").value_or(""));
  const std::string kind(series.Label("owner_kind").value_or(""));
  if (ns.empty() || rs.empty()) {
    return ErrorAt(series, series.pointer + "/metric",
                   "kube_replicaset_owner series lacks the label 'namespace' or 'replicaset'");
  }
  if (kind.empty() || kind == "<none>") return Status::Ok();
  replica_set_owners_[PodKey{ns, rs}] =
      PodOwner{kind, std::string(series.Label("owner_name").value_or(""))};
  return Status::Ok();
}

Status Joiner::AddGpuSeries(const Series& series) {
  const std::optional<PodKey> key = GpuSeriesPod(series);
  if (!key) {
    ++report_.gpu_series_without_pod;
    return Status::Ok();
  }
  return pods_[*key].gpu.Add(series);
}

Result<PodObservation> Joiner::Observe(const PodKey& key, const PodState& state) {
  PodObservation pod;
  pod.key = key;
  if (state.created) pod.created = state.created->value;
  if (state.started) pod.started = state.started->value;
  if (state.finished) pod.finished = state.finished->value;
  if (pod.started && pod.finished) {
    if (*pod.finished < *pod.started) {
      const Stamp& f = *state.finished;
      return ErrorAt(*f.series, f.series->SamplePointer(f.index),
                     "the pod completed before it started (start time " +
                         io::FormatNumber(*pod.started) + ")");
    }
    pod.run_seconds = *pod.finished - *pod.started;
  }
  pod.owner = state.controller_owner ? state.controller_owner : state.other_owner;
  pod.ownerless = !pod.owner && state.ownerless;
  pod.workload = pod.owner;
  if (pod.owner && pod.owner->kind == "ReplicaSet") {
    const auto it = replica_set_owners_.find(PodKey{key.namespace_name, pod.owner->name});
    if (it != replica_set_owners_.end()) pod.workload = it->second;
  }
  pod.terminated_reason = state.terminated_reason;
  state.gpu.Fill(&pod);
  return pod;
}

void Joiner::Count(const PodObservation& pod, const PodState& state) {
  ObservationReport& r = report_;
  ++r.pods;
  r.without_created += !pod.created;
  r.without_started += !pod.started;
  r.without_finished += !pod.finished;
  r.without_run_time += !pod.run_seconds;
  r.without_owner += !pod.owner && !pod.ownerless;
  r.without_terminated_reason += pod.terminated_reason.empty();
  r.without_gpu += !state.gpu.seen();
  r.without_duty_cycle += !pod.duty_cycle;
  r.without_memory += !pod.peak_memory_mib;
  r.duty_cycle_from_gpu_util += pod.duty_cycle_metric == kGpuUtil;
  r.replica_sets_without_deployment += pod.workload && pod.workload->kind == "ReplicaSet";
}

Result<PodObservations> Joiner::Finish() {
  PodObservations out;
  for (const auto& [key, state] : pods_) {
    Result<PodObservation> pod = Observe(key, state);
    if (!pod.ok()) return pod.status();
    Count(pod.value(), state);
    out.pods.push_back(std::move(pod).value());
  }
  out.report = report_;
  return out;
}

}  // namespace

Result<PodObservations> JoinPodObservations(const std::vector<Series>& series) {
  Joiner joiner;
  for (const Series& s : series) {
    Status added = joiner.Add(s);
    if (!added.ok()) return added;
  }
  return joiner.Finish();
}

}  // namespace migsim::telemetry
