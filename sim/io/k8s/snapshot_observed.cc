// `migsim import`, observations: the snapshot's finished pods, the telemetry's pods and the
// Jobs' times joined per workload (snapshot_observed.h), and the job classes and replay
// workloads they become.

#include "sim/io/k8s/snapshot_observed.h"

#include <algorithm>

#include "sim/io/k8s/observed_workload.h"
#include "sim/io/telemetry/workload_observations.h"

namespace migsim::k8s {
namespace {

// The pods of `pods` by "<namespace>/<name>": their owner key and template.
struct KnownPod {
  std::string owner_key;
  const OrderedJson* tmpl = nullptr;
};

std::map<std::string, KnownPod> KnownPods(const SnapshotPods& pods) {
  std::map<std::string, KnownPod> known;
  for (const SnapshotPod& p : pods.pods) {
    known[p.ns + "/" + p.name] = {OwnerKey(p.ns, p.owner_kind, p.owner), &p.tmpl};
  }
  for (const FinishedPod& p : pods.finished_pods) {
    known[p.ns + "/" + p.name] = {OwnerKey(p.ns, p.owner_kind, p.owner), &p.tmpl};
  }
  return known;
}

ObservedWorkload& WorkloadFor(std::map<std::string, ObservedWorkload>* all, const std::string& ns,
                              const std::string& kind, const std::string& name) {
  ObservedWorkload& w = (*all)[OwnerKey(ns, kind, name)];
  w.ns = ns;
  w.kind = kind;
  w.name = name;
  return w;
}

ObservedPod& PodFor(ObservedWorkload* w, const std::string& name) {
  for (ObservedPod& p : w->pods) {
    if (p.name == name) return p;
  }
  ObservedPod& p = w->pods.emplace_back();
  p.name = name;
  return p;
}

void AddFinishedPods(const SnapshotPods& pods, std::map<std::string, ObservedWorkload>* all) {
  for (const FinishedPod& f : pods.finished_pods) {
    ObservedPod& p = PodFor(&WorkloadFor(all, f.ns, f.owner_kind, f.owner), f.name);
    p.created_s = f.created_s;
    p.run_s = f.finished_s - f.started_s;
    p.run_source = ObservedSource::kSnapshot;
    p.reason = f.reason;
    p.tmpl = &f.tmpl;
  }
}

// The telemetry's pods, in the workload the snapshot gives them (its owner references), else
// the one kube_pod_owner gives (telemetry::WorkloadOf).
void AddTelemetry(const telemetry::PodObservations& t, const std::map<std::string, KnownPod>& known,
                  std::map<std::string, ObservedWorkload>* all) {
  for (const telemetry::PodObservation& o : t.pods) {
    const auto it = known.find(o.key.namespace_name + "/" + o.key.pod);
    const telemetry::WorkloadKey key = telemetry::WorkloadOf(o);
    ObservedWorkload& w = it != known.end() ? (*all)[it->second.owner_key]
                                            : WorkloadFor(all, key.namespace_name, key.kind, key.name);
    if (w.name.empty()) {  // named by the snapshot: its key's parts
      const std::string& k = it->second.owner_key;
      const size_t a = k.find('/'), b = k.find('/', a + 1);
      w.ns = k.substr(0, a);
      w.kind = k.substr(a + 1, b - a - 1);
      w.name = k.substr(b + 1);
    }
    ObservedPod& p = PodFor(&w, o.key.pod);
    p.telemetry = true;
    if (o.created) p.created_s = *o.created;
    if (o.run_seconds) {
      p.run_s = *o.run_seconds;
      p.run_source = ObservedSource::kTelemetry;
    }
    p.duty_cycle = o.duty_cycle;
    p.duty_cycle_metric = o.duty_cycle_metric;
    p.peak_memory_mib = o.peak_memory_mib;
    if (!o.terminated_reason.empty()) p.reason = o.terminated_reason;
    p.mig_profile = o.mig_profile;
    p.gpu_model = o.gpu_model;
    if (p.tmpl == nullptr && it != known.end()) p.tmpl = it->second.tmpl;
  }
}

// A new name for a workload the snapshot's live pods did not name: its owner's, or
// "<namespace>/<kind>/<owner>" when that is taken.
std::string BaseName(const ObservedWorkload& w, const std::string& key,
                     const SnapshotWorkloads& sw) {
  if (const auto it = sw.names.find(key); it != sw.names.end()) return it->second;
  for (const auto& [other, name] : sw.names) {
    if (name == w.name) return key;
  }
  return sw.job_classes.contains(w.name) ? key : w.name;
}

// The job class of an observed workload: its run time (measured device's key and the
// default), duty cycle and GPU memory; members absent when not observed.
OrderedJson JobClassJson(const WorkloadModel& m, double placeholder_run_s, bool ends) {
  OrderedJson jc = OrderedJson::object();
  if (ends) {
    if (!m.run) {
      jc["run_s"] = placeholder_run_s;
    } else if (m.device_key.empty()) {
      jc["run_s"] = m.run->mean_s;
    } else {
      jc["run_s"] = {{m.device_key, m.run->mean_s}, {"default", m.run->mean_s}};
    }
  }
  if (m.duty_cycle) jc["duty_cycle"] = *m.duty_cycle;
  if (m.memory_mib) jc["gpu_memory_gib"] = *m.memory_mib / 1024;
  return jc;
}

OrderedJson ReplayJson(const ObservedWorkload& w, const WorkloadModel& m, const std::string& base,
                       double t0) {
  OrderedJson tmpl = {{"job_class", base}};
  for (const auto& [key, value] : m.replay_template->items()) tmpl[key] = value;
  OrderedJson rows = OrderedJson::array();
  for (const ObservedPod* p : m.replayed) {
    rows.push_back(
        {{"at_s", *p->created_s - t0}, {"template", base}, {"run_s", *p->run_s}, {"name", p->name}});
  }
  OrderedJson trace = {{"kind", "Trace"}};
  if (w.ns != "default") trace["namespace"] = w.ns;
  trace["templates"] = {{base, std::move(tmpl)}};
  trace["pods"] = std::move(rows);
  return trace;
}

// A workload that runs until deleted: its observed duty cycle and memory go to its live
// workloads' templates through a job class of its own (without a run time).
void AttachClass(const std::string& key, const std::string& base, SnapshotWorkloads* sw) {
  const auto it = sw->owner_workloads.find(key);
  if (it == sw->owner_workloads.end()) return;
  for (const std::string& name : it->second) sw->workloads[name]["template"]["job_class"] = base;
}

}  // namespace

std::map<std::string, JobSpan> ReadSnapshotJobs(const std::vector<ManifestNode>& items,
                                                ManifestLog* log) {
  std::map<std::string, JobSpan> jobs;
  for (const ManifestNode& item : items) {
    if (!item.ExpectMap(log)) break;
    const ManifestNode status = item["status"], metadata = item["metadata"];
    if (!status["startTime"].present() || !status["completionTime"].present()) continue;
    JobSpan span;
    span.place = item.place();
    span.start_s = TimeAt(status["startTime"], log);
    span.completion_s = TimeAt(status["completionTime"], log);
    if (log->ok() && span.completion_s < span.start_s) {
      status["completionTime"].Fail(log, "the Job completed before it started");
    }
    if (!log->ok()) break;
    jobs[OwnerKey(metadata["namespace"].String(log, "default"), "Job",
                  metadata["name"].String(log))] = span;
  }
  return jobs;
}

ObservedReport ApplyObservations(const SnapshotPods& pods, const ObservedInputs& in,
                                 double placeholder_run_s, SnapshotWorkloads* sw) {
  std::map<std::string, ObservedWorkload> all;
  AddFinishedPods(pods, &all);
  if (in.telemetry != nullptr) AddTelemetry(*in.telemetry, KnownPods(pods), &all);
  for (const auto& [key, span] : in.jobs) {
    const size_t a = key.find('/');
    WorkloadFor(&all, key.substr(0, a), "Job", key.substr(key.rfind('/') + 1)).job = &span;
  }
  ObservedReport report;
  if (all.empty() && !in.given) return report;
  std::map<std::string, WorkloadModel> models;
  std::optional<double> t0;
  for (auto& [key, w] : all) {
    std::sort(w.pods.begin(), w.pods.end(),
              [](const ObservedPod& a, const ObservedPod& b) { return a.name < b.name; });
    const WorkloadModel& m = models[key] = ModelOf(w);
    for (const ObservedPod* p : m.replayed) t0 = std::min(t0.value_or(*p->created_s), *p->created_s);
  }
  DefaultsTally defaults;
  for (const auto& [key, w] : all) {
    const WorkloadModel& m = models.at(key);
    const std::string base = BaseName(w, key, *sw);
    const bool ends = EndsOnItsOwn(w.kind);
    const bool live = sw->owner_workloads.contains(key);
    if (ends && (live || !m.replayed.empty())) {
      sw->job_classes[base] = JobClassJson(m, placeholder_run_s, true);
      if (m.run) report.observed_classes.insert(base);
    } else if (!ends && live && (m.duty_cycle || m.memory_mib)) {
      sw->job_classes[base] = JobClassJson(m, placeholder_run_s, false);
      AttachClass(key, base, sw);
    }
    if (!m.replayed.empty()) {
      sw->workloads[base + "/observed"] = ReplayJson(w, m, base, *t0);
      report.replayed += static_cast<int>(m.replayed.size());
    }
    report.notices.push_back(DescribeWorkload(w, m, ends, live, base, placeholder_run_s));
    defaults.Count(key, &m, ends, live || !m.replayed.empty());
  }
  // The snapshot's workloads nothing was observed of.
  for (const auto& [key, workloads] : sw->owner_workloads) {
    if (all.contains(key)) continue;
    const std::string kind = key.substr(key.find('/') + 1, key.rfind('/') - key.find('/') - 1);
    defaults.Count(key, nullptr, EndsOnItsOwn(kind), true);
  }
  if (t0) report.notices.push_back(ReplayNotice(report.replayed, *t0));
  for (std::string& line : defaults.Lines(placeholder_run_s)) {
    report.notices.push_back(std::move(line));
  }
  return report;
}

}  // namespace migsim::k8s
