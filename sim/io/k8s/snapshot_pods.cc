// `migsim import`, pods: what each pod of `kubectl get pods -A -o json` asks of the
// scheduler, read with the manifests' pod-spec reader, and whom it belongs to.

#include <algorithm>
#include <array>
#include <string_view>

#include "sim/io/k8s/pod_spec_model.h"
#include "sim/io/k8s/rfc3339_time.h"
#include "sim/io/k8s/snapshot_model.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::k8s {
namespace {

// Labels the controllers stamp on each pod (a hash, an index, a uid): they would make the
// pods of one owner look different, and nothing a scenario does selects them.
constexpr std::array<std::string_view, 9> kGeneratedLabels = {
    "pod-template-hash",
    "controller-revision-hash",
    "statefulset.kubernetes.io/pod-name",
    "apps.kubernetes.io/pod-index",
    "controller-uid",
    "job-name",
    "batch.kubernetes.io/controller-uid",
    "batch.kubernetes.io/job-name",
    "batch.kubernetes.io/job-completion-index"};

constexpr std::string_view kQueueLabel = "kueue.x-k8s.io/queue-name";

// Kueue's pod integration gates a queued pod with kueue.x-k8s.io/admission until it admits
// it (its pod webhook); the workload's queue_name models that gate.
void NoteKueueGate(const ManifestNode& gates, ManifestLog* log, SnapshotPods* out) {
  if (!gates.present()) return;
  for (const ManifestNode& g : gates.Elements(log)) {
    if (g["name"].String(log) != "kueue.x-k8s.io/admission") return;
  }
  out->kueue_gates.insert(gates.place().ToString());
}

bool Generated(std::string_view key) {
  return std::find(kGeneratedLabels.begin(), kGeneratedLabels.end(), key) != kGeneratedLabels.end();
}

struct Owner {
  std::string kind = "Pod";
  std::string name;
};

// The controlling owner reference. A ReplicaSet named "<deployment>-<pod-template-hash>"
// belongs to that Deployment (the pod's own pod-template-hash label says which hash).
Owner OwnerOf(const ManifestNode& metadata, const std::string& pod_name, ManifestLog* log) {
  Owner owner{"Pod", pod_name};
  const ManifestNode refs = metadata["ownerReferences"];
  for (const ManifestNode& ref : refs.Elements(log)) {
    if (refs.yaml().size() > 1 && !ref["controller"].Bool(log, false)) continue;
    owner = {ref["kind"].String(log), ref["name"].String(log)};
    // Workloads and job classes are named after owners.
    if (owner.kind.empty() || owner.name.empty()) ref.Fail(log, "an owner needs a kind and a name");
    break;
  }
  if (owner.kind == "ReplicaSet") {
    const std::string hash = metadata["labels"]["pod-template-hash"].String(log);
    const std::string suffix = "-" + hash;
    if (!hash.empty() && owner.name.size() > suffix.size() && owner.name.ends_with(suffix)) {
      owner = {"Deployment", owner.name.substr(0, owner.name.size() - suffix.size())};
    }
  }
  static constexpr std::array<std::string_view, 6> kKnown = {
      "Pod", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job"};
  if (std::find(kKnown.begin(), kKnown.end(), owner.kind) == kKnown.end()) {
    refs.Warn(log, "owner kind " + owner.kind +
                       " is not modelled: its pods are imported as bare pods named after it");
  }
  return owner;
}

OrderedJson Resources(const PodSpecModel& spec) {
  OrderedJson out = OrderedJson::object();
  if (spec.cpu_milli > 0) out["cpu"] = std::to_string(spec.cpu_milli) + "m";
  if (spec.memory_mib > 0) out["memory"] = std::to_string(spec.memory_mib) + "Mi";
  for (const auto& [name, count] : spec.extended) out[name] = count;
  return out;
}

OrderedJson TolerationsJson(const Tolerations& list) {
  OrderedJson out = OrderedJson::array();
  for (const Toleration& t : list) {
    OrderedJson one = OrderedJson::object();
    if (!t.key.empty()) one["key"] = t.key;
    one["operator"] = t.op == TolerationOperator::kExists ? "Exists" : "Equal";
    if (!t.value.empty()) one["value"] = t.value;
    if (t.effect) one["effect"] = std::string(TaintEffectName(*t.effect));
    out.push_back(std::move(one));
  }
  return out;
}

// A scenario template has a node selector but no node affinity: a term of one value is the
// same as a selector; one of several values cannot be written, which matters only for a
// pending pod (a bound pod keeps its node).
OrderedJson Selector(const PodTemplateModel& model, bool bound, ManifestLog* log) {
  OrderedJson selector = OrderedJson::object();
  for (const auto& [key, value] : model.spec.node_selector) selector[key] = value;
  for (const LabelIn& term : model.spec.node_affinity) {
    if (term.values.size() == 1) {
      selector[term.key] = term.values.front();
    } else if (!bound) {
      log->Warn(model.place, "required node affinity on '" + term.key + "' with " +
                                 std::to_string(term.values.size()) +
                                 " values cannot be written in a scenario template: dropped");
    }
  }
  return selector;
}

OrderedJson TemplateJson(const PodTemplateModel& model, bool bound, ManifestLog* log) {
  const PodSpecModel& spec = model.spec;
  OrderedJson t = OrderedJson::object();
  if (OrderedJson r = Resources(spec); !r.empty()) t["resources"] = std::move(r);
  if (OrderedJson selector = Selector(model, bound, log); !selector.empty()) {
    t["node_selector"] = std::move(selector);
  }
  OrderedJson labels = OrderedJson::object();
  for (const auto& [k, v] : model.labels) {
    if (!Generated(k)) labels[k] = v;
  }
  if (!labels.empty()) t["labels"] = labels;
  if (!spec.priority_class.empty()) t["priorityClassName"] = spec.priority_class;
  if (spec.termination_grace && *spec.termination_grace != SimTime::Seconds(30)) {
    t["terminationGracePeriodSeconds"] = spec.termination_grace->seconds();
  }
  if (!spec.tolerations.empty()) t["tolerations"] = TolerationsJson(spec.tolerations);
  return t;
}

void NotePriority(const ManifestNode& spec, const std::string& class_name, ManifestLog* log,
                  SnapshotPods* out, SnapshotSources* sources) {
  // The system's classes exist in every cluster; other names starting with "system-" are
  // reserved, which no cluster's pods can use.
  if (class_name.empty() || class_name == kSystemClusterCritical ||
      class_name == kSystemNodeCritical) {
    return;
  }
  if (class_name.starts_with("system-")) {
    return spec["priorityClassName"].Fail(
        log, "priority class '" + class_name +
                 "': names starting with 'system-' are reserved for the system's classes");
  }
  PriorityValue p{spec["priority"].Int(log, 0, -2147483648LL, 1'000'000'000),
                  spec["preemptionPolicy"].String(log) == "Never"};
  const auto [it, added] = out->priority_classes.try_emplace(class_name, p);
  sources->Add({"priority_classes", class_name}, spec["priorityClassName"].place());
  if (!added && (it->second.value != p.value || it->second.never != p.never)) {
    spec["priority"].Warn(log, "priority class '" + class_name +
                                   "' has another value or preemption policy on an earlier "
                                   "pod: the earlier one is kept");
  }
}

bool RequestsExtended(const PodTemplateModel& model) { return !model.spec.extended.empty(); }

bool RunsForever(const Owner& owner, const PodSpecModel& spec) {
  if (owner.kind == "Job") return false;
  if (owner.kind != "Pod" && owner.kind != "ReplicaSet" && owner.kind != "Deployment" &&
      owner.kind != "StatefulSet" && owner.kind != "DaemonSet") {
    return spec.restart_policy.empty() || spec.restart_policy == "Always";
  }
  return owner.kind != "Pod" || spec.restart_policy.empty() || spec.restart_policy == "Always";
}

// The run of a finished pod, from its containers' terminated states (status.
// containerStatuses[].state.terminated: startedAt, finishedAt, reason); nothing is recorded
// for a pod none of whose containers says both.
void ReadFinishedPod(const ManifestNode& item, ManifestLog* log, SnapshotPods* out,
                     SnapshotSources* sources) {
  ++out->finished;
  FinishedPod pod;
  bool timed = false;
  for (const ManifestNode& status : item["status"]["containerStatuses"].Elements(log)) {
    const ManifestNode t = status["state"]["terminated"];
    if (!t.present() || !t["startedAt"].present() || !t["finishedAt"].present()) continue;
    const double started = TimeAt(t["startedAt"], log), finished = TimeAt(t["finishedAt"], log);
    if (log->ok() && finished < started) {
      return t["finishedAt"].Fail(log, "the container finished before it started (startedAt " +
                                           t["startedAt"].String(log) + ")");
    }
    pod.started_s = timed ? std::min(pod.started_s, started) : started;
    pod.finished_s = timed ? std::max(pod.finished_s, finished) : finished;
    timed = true;
    const std::string reason = t["reason"].String(log);
    if (pod.reason.empty() || pod.reason == "Completed") pod.reason = reason;
  }
  if (!timed || !log->ok()) return;
  const ManifestNode metadata = item["metadata"];
  pod.place = item.place();
  pod.ns = metadata["namespace"].String(log, "default");
  pod.name = metadata["name"].String(log);
  if (pod.name.empty()) return item.Fail(log, "missing required field 'metadata.name'");
  const Owner owner = OwnerOf(metadata, pod.name, log);
  pod.owner_kind = owner.kind;
  pod.owner = owner.name;
  pod.created_s = TimeAt(metadata["creationTimestamp"], log);
  const PodTemplateModel model = ReadPodTemplate(item, log);
  if (!log->ok()) return;
  pod.tmpl = TemplateJson(model, false, log);
  NotePriority(item["spec"], model.spec.priority_class, log, out, sources);
  if (log->ok()) out->finished_pods.push_back(std::move(pod));
}

void ReadPod(const ManifestNode& item, ManifestLog* log, SnapshotPods* out,
             SnapshotSources* sources) {
  if (!item.ExpectMap(log)) return;
  const ManifestNode metadata = item["metadata"], spec = item["spec"];
  const std::string phase = item["status"]["phase"].String(log);
  if (phase == "Succeeded" || phase == "Failed") return ReadFinishedPod(item, log, out, sources);
  const std::string scheduler = spec["schedulerName"].String(log, "default-scheduler");
  if (scheduler != "default-scheduler") {
    spec["schedulerName"].Warn(
        log, "a pod for scheduler '" + scheduler + "', which migsim does not simulate: left out");
    return void(++out->other_scheduler);
  }
  SnapshotPod pod;
  pod.place = item.place();
  pod.ns = metadata["namespace"].String(log, "default");
  if (!io::IsNamespaceName(pod.ns))
    return metadata["namespace"].Fail(log, io::NamespaceMessage(pod.ns));
  const std::string name = metadata["name"].String(log);
  if (name.empty()) return item.Fail(log, "missing required field 'metadata.name'");
  pod.name = name;
  const Owner owner = OwnerOf(metadata, name, log);
  pod.owner_kind = owner.kind;
  pod.owner = owner.name;
  pod.node = spec["nodeName"].String(log);
  pod.created = metadata["creationTimestamp"].String(log);
  pod.queue = metadata["labels"][std::string(kQueueLabel)].String(log);
  if (!pod.queue.empty()) NoteKueueGate(spec["schedulingGates"], log, out);
  const PodTemplateModel model = ReadPodTemplate(item, log);
  if (!log->ok()) return;
  if (owner.kind == "DaemonSet" && !RequestsExtended(model)) return void(++out->daemonset_skipped);
  pod.runs_forever = RunsForever(owner, model.spec);
  pod.tmpl = TemplateJson(model, !pod.node.empty(), log);
  NotePriority(spec, model.spec.priority_class, log, out, sources);
  if (log->ok()) out->pods.push_back(std::move(pod));
}

}  // namespace

double TimeAt(const ManifestNode& node, ManifestLog* log) {
  const std::string text = node.String(log);
  if (const std::optional<double> t = ParseRfc3339(text)) return *t;
  node.Fail(log, "expected an RFC 3339 time such as 2025-11-27T00:02:00Z, got '" + text + "'");
  return 0;
}

SnapshotPods ReadSnapshotPods(const std::vector<ManifestNode>& items, ManifestLog* log,
                              SnapshotSources* sources) {
  SnapshotPods out;
  for (const ManifestNode& item : items) {
    ReadPod(item, log, &out, sources);
    if (!log->ok()) break;
  }
  return out;
}

}  // namespace migsim::k8s
