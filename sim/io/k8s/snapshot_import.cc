// `migsim import`: reads the two snapshot files' documents, runs the three steps
// (snapshot_model.h) and writes the scenario with its two example variants.

#include "sim/io/k8s/snapshot_import.h"

#include <algorithm>
#include <sstream>

#include "sim/cluster/node_type.h"
#include "sim/io/k8s/snapshot_model.h"
#include "sim/io/k8s/snapshot_observed.h"
#include "sim/io/scenario_json.h"
#include "sim/io/yaml_documents.h"

namespace migsim::k8s {
namespace {

// The items of every document: a List's (kind List, NodeList or PodList) or the object
// itself, which must be of kind `kind`.
std::vector<ManifestNode> Items(const std::vector<YAML::Node>& docs, const std::string& label,
                                const std::string& kind, ManifestLog* log) {
  std::vector<ManifestNode> items;
  for (size_t i = 0; i < docs.size() && log->ok(); ++i) {
    const ManifestNode doc(docs[i], ManifestPlace{label, static_cast<int>(i + 1), "", 0});
    if (!doc.present() || !doc.ExpectMap(log)) continue;
    const std::string k = doc["kind"].String(log);
    const bool list = k == "List" || k == kind + "List";
    for (const ManifestNode& item : list ? doc["items"].Elements(log) : std::vector{doc}) {
      if (const std::string ik = item["kind"].String(log, kind); ik != kind && log->ok()) {
        item["kind"].Fail(log, "expected a " + kind + " (kubectl get " +
                                   (kind == "Node" ? "nodes" : kind == "Job" ? "jobs -A" : "pods -A") +
                                   " -o json), got " +
                                   (ik.empty() ? "no kind" : ik));
      }
      items.push_back(item);
    }
  }
  return items;
}

const GpuModel* PoolGpu(const OrderedJson& pool, const OrderedJson& node_types) {
  const std::string type = pool["type"].get<std::string>();
  if (const NodeType* t = FindNodeType(type)) return t->gpu;
  const OrderedJson& custom = node_types[type];
  return custom.contains("gpu_model") ? FindGpuModel(custom["gpu_model"].get<std::string>())
                                      : nullptr;
}

// "What if I add two p4d nodes": a copy of the first p4d.24xlarge pool (taints, labels,
// MIG) with two nodes, or a plain pool of two.
OrderedJson AddTwoP4d(const SnapshotCluster& cluster) {
  for (const auto& [name, pool] : cluster.pools.items()) {
    if (pool["type"] != "p4d.24xlarge") continue;
    OrderedJson added = pool;
    added["count"] = 2;
    return {{"cluster", {{"nodes", {{name + "-added", added}}}}}};
  }
  return {{"cluster", {{"nodes", {{"p4d-added", {{"type", "p4d.24xlarge"}, {"count", 2}}}}}}}};
}

// "What if I switch to all-balanced": every pool of MIG-capable GPUs relabelled, but those
// healthy under the single strategy: their pods ask for nvidia.com/gpu, one MIG device,
// which the mixed strategy's all-balanced does not advertise.
OrderedJson AllBalanced(const SnapshotCluster& cluster) {
  OrderedJson nodes = OrderedJson::object();
  for (const auto& [name, pool] : cluster.pools.items()) {
    const GpuModel* gpu = PoolGpu(pool, cluster.node_types);
    if (gpu == nullptr || !gpu->mig_capable() || cluster.single_profile.contains(name)) continue;
    nodes[name] = {{"mig", {{"config", "all-balanced"}, {"layouts", nullptr}}},
                   {"device_plugin", {{"mig_strategy", "mixed"}}}};
  }
  return nodes.empty() ? OrderedJson() : OrderedJson{{"cluster", {{"nodes", nodes}}}};
}

OrderedJson PriorityClasses(const SnapshotPods& pods) {
  OrderedJson out = OrderedJson::object();
  for (const auto& [name, p] : pods.priority_classes) {
    out[name] = {{"value", p.value}};
    if (p.never) out[name]["preemptionPolicy"] = "Never";
  }
  return out;
}

std::string Join(const OrderedJson& object) {
  std::string out;
  for (const auto& [key, value] : object.items()) out += (out.empty() ? "" : ", ") + key;
  return out;
}

// The pod-spec reader warns that a pod's nodeName, priority and preemptionPolicy are not
// read; here they are (the pin, the priority classes).
bool ReadHere(const std::string& warning) {
  for (const char* field : {".spec.nodeName (", ".spec.priority (", ".spec.preemptionPolicy ("}) {
    if (warning.find(field) != std::string::npos) return true;
  }
  return false;
}

struct Steps {
  SnapshotPods pods;
  SnapshotCluster cluster;
  SnapshotWorkloads workloads;
  SnapshotSources sources;
  ObservedReport observed;
};

// Kueue's objects are not in a pods snapshot, nor is which workload Kueue admitted where.
std::string QueueNotice(const SnapshotWorkloads& w) {
  std::string queues;
  for (const std::string& q : w.queues) queues += (queues.empty() ? "" : ", ") + q;
  return std::to_string(w.queued) +
         " workloads carry Kueue's kueue.x-k8s.io/queue-name and wait in its LocalQueues (" +
         queues +
         "). A snapshot cannot show Kueue's admission state (which workloads it admitted, in "
         "which flavor, against which quota): bound pods ask for admission again at time 0, as "
         "pending ones do, within the quotas you give. Add Kueue's ResourceFlavor, "
         "ClusterQueue and LocalQueue manifests (kubectl get resourceflavors,clusterqueues,"
         "localqueues -A -o yaml) and run them beside the scenario: migsim run <scenario> "
         "kueue.yaml (without them the scenario does not load)";
}

std::vector<std::string> Notices(const Steps& s, const SnapshotOptions& options) {
  std::vector<std::string> out;
  out.push_back(std::to_string(s.cluster.nodes) +
                " nodes read: " + std::to_string(s.cluster.node_names.size()) + " in " +
                std::to_string(s.cluster.pools.size()) + " pools, " +
                std::to_string(s.cluster.left_out.size()) + " left out");
  out.push_back(std::to_string(s.workloads.bound) + " bound pods pinned to their nodes, " +
                std::to_string(s.workloads.pending) +
                " pending pods queued at time 0; left out: " + std::to_string(s.workloads.dropped) +
                " on nodes left out, " + std::to_string(s.pods.finished) + " finished, " +
                std::to_string(s.pods.daemonset_skipped) + " of DaemonSets without GPUs, " +
                std::to_string(s.pods.other_scheduler) + " for other schedulers");
  if (s.workloads.queued > 0) out.push_back(QueueNotice(s.workloads));
  OrderedJson placeholders = OrderedJson::object();
  for (const auto& [name, jc] : s.workloads.job_classes.items()) {
    if (jc.contains("run_s") && !s.observed.observed_classes.contains(name)) placeholders[name] = jc;
  }
  if (!placeholders.empty()) {
    std::ostringstream run;
    run << options.run_s;
    out.push_back("job classes with the placeholder run time of " + run.str() +
                  " s (edit job_classes, or use --run-s): " + Join(placeholders));
  }
  for (const std::string& n : s.observed.notices) out.push_back(n);
  return out;
}

std::string Description(const Steps& s, const std::string& nodes, const std::string& pods) {
  return "Imported by migsim import from " + nodes + " and " + pods + ": " +
         std::to_string(s.cluster.node_names.size()) + " nodes in " +
         std::to_string(s.cluster.pools.size()) + " pools, " + std::to_string(s.workloads.bound) +
         " bound pods pinned to their nodes (nodeName) at time 0 and " +
         std::to_string(s.workloads.pending) +
         " pending pods queued at time 0. " +
         (s.observed.observed_classes.empty()
              ? std::string("Job classes run a placeholder time: edit them. ")
              : "Job classes run the observed times (" + std::to_string(s.observed.replayed) +
                    " finished pods replayed: the workloads '<name>/observed'); the import's "
                    "notices say which still run a placeholder. ") +
         "Variants: the snapshot as it is, two more p4d.24xlarge nodes, and every MIG-capable "
         "pool relabelled all-balanced.";
}

OrderedJson ScenarioJson(const Steps& s, const SnapshotOptions& options,
                         const std::string& description) {
  OrderedJson cluster = {{"nodes", s.cluster.pools}};
  if (!s.cluster.node_types.empty()) cluster["node_types"] = s.cluster.node_types;
  OrderedJson scenario = {{"name", options.name},
                          {"description", description},
                          {"horizon_s", options.horizon_s},
                          {"cluster", std::move(cluster)}};
  if (!s.pods.priority_classes.empty()) scenario["priority_classes"] = PriorityClasses(s.pods);
  scenario["job_classes"] = s.workloads.job_classes;
  scenario["workloads"] = s.workloads.workloads;
  OrderedJson variants = {{"snapshot", OrderedJson::object()},
                          {"add-two-p4d", AddTwoP4d(s.cluster)}};
  if (OrderedJson balanced = AllBalanced(s.cluster); !balanced.is_null()) {
    variants["all-balanced"] = std::move(balanced);
  }
  scenario["variants"] = std::move(variants);
  return scenario;
}

// The variants' copies of pools (AddTwoP4d, AllBalanced) come from the pools' first nodes.
void AddVariantSources(const SnapshotCluster& cluster, SnapshotSources* sources) {
  for (const auto& [name, pool] : cluster.pools.items()) {
    const ManifestPlace* place = sources->Find(JsonPointer({"cluster", "nodes", name}));
    if (place == nullptr) continue;
    sources->Add({"variants", "add-two-p4d", "cluster", "nodes", name + "-added"}, *place);
    sources->Add({"variants", "all-balanced", "cluster", "nodes", name}, *place);
  }
}

// A load error of the generated scenario, at the snapshot's element the refused value came
// from; or, for a member no element made, at the file its section is read from.
Status LoadErrorAtSource(const Status& error, const SnapshotSources& sources,
                         const std::string& nodes_label, const std::string& pods_label) {
  const std::string& pointer = error.location().json_pointer;
  const std::string what =
      "the imported scenario would not load (at " + pointer + "): " + error.message();
  if (const ManifestPlace* place = sources.Find(pointer)) return ErrorAt(*place, what);
  const bool from_nodes = pointer.starts_with("/cluster/") || pointer.starts_with("/variants/");
  return Status::InvalidArgument(what, {from_nodes ? nodes_label : pods_label, ""});
}

// The scenario's text without its workloads' queue_name members.
std::string WithoutQueues(const std::string& json) {
  OrderedJson doc = OrderedJson::parse(json);
  for (auto& [name, w] : doc["workloads"].items()) w.erase("queue_name");
  return doc.dump();
}

// The three steps and the scenario's text. Errors are returned, or recorded in `log`.
Status RunSteps(const std::vector<YAML::Node>& node_docs, const std::string& nodes_label,
                const std::vector<YAML::Node>& pod_docs, const std::string& pods_label,
                const SnapshotOptions& options, ManifestLog* log, Steps* s, std::string* json) {
  const std::vector<ManifestNode> pods = Items(pod_docs, pods_label, "Pod", log);
  if (log->ok()) s->pods = ReadSnapshotPods(pods, log, &s->sources);
  const std::vector<ManifestNode> nodes = Items(node_docs, nodes_label, "Node", log);
  if (log->ok()) s->cluster = ReadSnapshotNodes(nodes, log, &s->sources);
  if (log->ok() && s->cluster.node_names.empty()) {
    return Status::InvalidArgument("no node to import (a scenario needs one)", {nodes_label, ""});
  }
  if (log->ok()) {
    s->workloads = GroupSnapshotPods(s->pods, s->cluster, options.run_s, log, &s->sources);
  }
  ObservedInputs observed{options.telemetry, {}, options.telemetry != nullptr};
  if (log->ok() && !options.jobs_label.empty()) {
    Result<std::vector<YAML::Node>> docs = LoadYamlDocuments(options.jobs_text, options.jobs_label);
    if (!docs.ok()) return docs.status();
    const std::vector<ManifestNode> jobs = Items(docs.value(), options.jobs_label, "Job", log);
    if (log->ok()) observed.jobs = ReadSnapshotJobs(jobs, log);
    observed.given = true;
  }
  if (log->ok()) s->observed = ApplyObservations(s->pods, observed, options.run_s, &s->workloads);
  if (!log->ok()) return Status::Ok();
  *json = ScenarioJson(*s, options, Description(*s, nodes_label, pods_label)).dump(2) + "\n";
  // What the snapshot says may still be no scenario (a label or name migsim refuses):
  // checked here, so that nothing is written that `migsim run` would refuse. Queue names
  // need Kueue's objects, which the user adds (QueueNotice): checked without them.
  Result<ScenarioFile> loads =
      ParseScenarioText(s->workloads.queued > 0 ? WithoutQueues(*json) : *json, "scenario",
                        NamedFiles::kRefused);
  if (loads.ok()) return Status::Ok();
  AddVariantSources(s->cluster, &s->sources);
  return LoadErrorAtSource(loads.status(), s->sources, nodes_label, pods_label);
}

}  // namespace

Result<SnapshotScenario> ImportSnapshot(std::string_view nodes_text, const std::string& nodes_label,
                                        std::string_view pods_text, const std::string& pods_label,
                                        const SnapshotOptions& options) {
  Result<std::vector<YAML::Node>> node_docs = LoadYamlDocuments(nodes_text, nodes_label);
  if (!node_docs.ok()) return node_docs.status();
  Result<std::vector<YAML::Node>> pod_docs = LoadYamlDocuments(pods_text, pods_label);
  if (!pod_docs.ok()) return pod_docs.status();
  ManifestLog log;
  Steps s;
  SnapshotScenario out;
  try {
    const Status ran = RunSteps(node_docs.value(), nodes_label, pod_docs.value(), pods_label,
                                options, &log, &s, &out.json);
    if (!ran.ok()) return ran;
  } catch (const YAML::Exception& e) {
    return Status::Internal("unexpected YAML error: " + e.msg);
  } catch (const nlohmann::json::type_error&) {
    // Names and labels come from valid UTF-8 text, and yaml-cpp refuses escapes of lone
    // surrogates ("\ud800"); should any other decoding give bytes that are not UTF-8, the
    // JSON writer throws, and the input is refused rather than the program ended.
    return Status::InvalidArgument("a name or label is not valid UTF-8 once its escapes are read",
                                   {nodes_label + ", " + pods_label, ""});
  }
  if (!log.ok()) return log.status();
  for (const std::string& w : log.warnings()) {
    const bool gate = std::any_of(s.pods.kueue_gates.begin(), s.pods.kueue_gates.end(),
                                  [&w](const std::string& p) { return w.starts_with(p + ": "); });
    if (!ReadHere(w) && !gate) out.warnings.push_back(w);
  }
  out.notices = Notices(s, options);
  return out;
}

}  // namespace migsim::k8s
