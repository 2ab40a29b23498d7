// `migsim import`, workloads: the snapshot's pods grouped by owner, node and template.
// A bound pod's group is pinned to its node (nodeName) and starts there at time 0; pending
// pods are created at time 0 too, and queue in the order they were created.

#include <algorithm>
#include <map>

#include "sim/io/k8s/snapshot_model.h"

namespace migsim::k8s {
namespace {

// Pods of one owner on one node (or pending) with one template.
struct PodGroup {
  std::string owner_key;  // namespace, owner kind and name
  std::string node;       // as in the snapshot; "" when pending
  std::vector<const SnapshotPod*> pods;
};

}  // namespace

std::string OwnerKey(const std::string& ns, const std::string& kind, const std::string& owner) {
  return ns + "/" + kind + "/" + owner;
}

namespace {

std::string OwnerKey(const SnapshotPod& p) { return k8s::OwnerKey(p.ns, p.owner_kind, p.owner); }

std::vector<PodGroup> Group(const SnapshotPods& in) {
  std::vector<PodGroup> groups;
  std::map<std::string, size_t> index;
  for (const SnapshotPod& p : in.pods) {
    const std::string key = OwnerKey(p) + "\n" + p.node + "\n" + p.tmpl.dump();
    const auto [it, added] = index.try_emplace(key, groups.size());
    if (added) groups.push_back({OwnerKey(p), p.node, {}});
    groups[it->second].pods.push_back(&p);
  }
  return groups;
}

// Workload and job-class names: the owner's name, or "<namespace>/<name>" when two owners
// (of two namespaces or kinds) share it.
std::map<std::string, std::string> BaseNames(const SnapshotPods& in) {
  std::map<std::string, std::set<std::string>> owners_of;
  for (const SnapshotPod& p : in.pods) owners_of[p.owner].insert(OwnerKey(p));
  std::map<std::string, std::string> names;
  for (const SnapshotPod& p : in.pods) {
    const bool shared = owners_of[p.owner].size() > 1;
    names[OwnerKey(p)] = shared ? p.ns + "/" + p.owner_kind + "/" + p.owner : p.owner;
  }
  return names;
}

// Kueue's queue-name label: a Job's pods, or a bare pod (Kueue's pod integration: a Job of
// one pod, never retried, as the manifests' Pod is), wait in that LocalQueue. Pods that run
// until deleted are not modelled under Kueue: a warning, and no queue.
void AddQueue(const SnapshotPod& first, OrderedJson* w, ManifestLog* log,
              SnapshotWorkloads* out) {
  if (first.queue.empty()) return;
  if (first.runs_forever) {
    return log->Warn(first.place, "Kueue's queue-name '" + first.queue + "' on a pod of " +
                                      first.owner_kind + " '" + first.owner +
                                      "', which runs until deleted: migsim models Kueue for "
                                      "Jobs and pods that end; imported outside Kueue's quota");
  }
  if ((*w)["kind"] == "Pod") {
    const OrderedJson n = (*w)["count"];
    OrderedJson job = {{"kind", "Job"}, {"completions", n}, {"parallelism", n},
                       {"backoff_limit", 0}};
    for (const auto& [key, value] : w->items()) {
      if (key != "kind" && key != "count") job[key] = value;
    }
    *w = std::move(job);
  }
  OrderedJson queued = OrderedJson::object();
  for (const auto& [key, value] : w->items()) {
    if (key == "template") queued["queue_name"] = first.queue;
    queued[key] = value;
  }
  *w = std::move(queued);
  out->queues.insert(first.ns + "/" + first.queue);
  ++out->queued;
}

// A selector on kubernetes.io/hostname names the snapshot's node: migsim's is "<pool>-<i>".
void RenameHostname(const SnapshotCluster& cluster, OrderedJson* tmpl) {
  if (!tmpl->contains("node_selector")) return;
  OrderedJson& selector = (*tmpl)["node_selector"];
  if (!selector.contains("kubernetes.io/hostname")) return;
  const auto it = cluster.node_names.find(selector["kubernetes.io/hostname"].get<std::string>());
  if (it != cluster.node_names.end()) selector["kubernetes.io/hostname"] = it->second;
}

OrderedJson Workload(const PodGroup& g, const std::string& job_class, const std::string& node) {
  const SnapshotPod& first = *g.pods.front();
  const int n = static_cast<int>(g.pods.size());
  OrderedJson w = OrderedJson::object();
  OrderedJson t = OrderedJson::object();
  if (!first.runs_forever) t["job_class"] = job_class;
  for (const auto& [key, value] : first.tmpl.items()) t[key] = value;
  if (!node.empty()) t["nodeName"] = node;
  if (first.runs_forever) {
    w = {{"kind", "Deployment"}, {"replicas", n}};
  } else if (first.owner_kind == "Job") {
    w = {{"kind", "Job"}, {"completions", n}, {"parallelism", n}};
  } else {
    w = {{"kind", "Pod"}, {"count", n}};
  }
  if (first.ns != "default") w["namespace"] = first.ns;
  w["template"] = std::move(t);
  return w;
}

struct Entry {
  bool pending;
  std::string created;  // the group's earliest creation time
  std::string name;
  OrderedJson workload;
};

std::string Earliest(const PodGroup& g) {
  std::string min = g.pods.front()->created;
  for (const SnapshotPod* p : g.pods) min = std::min(min, p->created);
  return min;
}

// The pods bound to a node the cluster does not have: one warning per node.
void WarnDropped(const PodGroup& g, const SnapshotCluster& cluster, ManifestLog* log) {
  const std::string why = cluster.left_out.contains(g.node) ? "which is left out of the cluster"
                                                            : "which the nodes file does not have";
  log->Warn(g.pods.front()->place,
            "pods bound to node '" + g.node + "', " + why + ", are left out");
}

}  // namespace

SnapshotWorkloads GroupSnapshotPods(const SnapshotPods& pods, const SnapshotCluster& cluster,
                                    double run_s, ManifestLog* log, SnapshotSources* sources) {
  SnapshotWorkloads out;
  const std::map<std::string, std::string> base = BaseNames(pods);
  out.names = base;
  std::vector<Entry> entries;
  std::map<std::string, int> pending_groups;  // base name -> pending groups so far
  for (const PodGroup& g : Group(pods)) {
    const SnapshotPod& first = *g.pods.front();
    const std::string& name = base.at(g.owner_key);
    std::string node;
    if (!g.node.empty()) {
      const auto it = cluster.node_names.find(g.node);
      if (it == cluster.node_names.end()) {
        WarnDropped(g, cluster, log);
        out.dropped += static_cast<int>(g.pods.size());
        continue;
      }
      node = it->second;
    }
    if (!first.runs_forever) {
      out.job_classes[name] = {{"run_s", run_s}};
      sources->Add({"job_classes", name}, first.place);
    }
    std::string workload = name;
    if (!node.empty()) {
      workload += "@" + node;
      out.bound += static_cast<int>(g.pods.size());
    } else {
      if (const int k = ++pending_groups[name]; k > 1) workload += "#" + std::to_string(k);
      out.pending += static_cast<int>(g.pods.size());
    }
    sources->Add({"workloads", workload}, first.place);
    out.owner_workloads[g.owner_key].push_back(workload);
    OrderedJson w = Workload(g, name, node);
    RenameHostname(cluster, &w["template"]);
    AddQueue(first, &w, log, &out);
    entries.push_back({node.empty(), Earliest(g), workload, std::move(w)});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.pending != b.pending) return !a.pending;
    return a.pending && a.created < b.created;
  });
  for (Entry& e : entries) out.workloads[e.name] = std::move(e.workload);
  return out;
}

}  // namespace migsim::k8s
