#pragma once
// Internal to sim/io/k8s: the steps of `migsim import` (snapshot_import.h). Pods are read
// first (so that the pods file's errors come first), then nodes, then the pods are grouped
// into workloads.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/io/k8s/manifest_node.h"
#include "sim/io/k8s/snapshot_sources.h"

namespace migsim::k8s {

using OrderedJson = nlohmann::ordered_json;  // keeps members in the order written

// A pod of the snapshot that becomes part of the scenario.
struct SnapshotPod {
  std::string ns;
  std::string name;        // metadata.name
  std::string owner_kind;  // "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "Pod"
  std::string owner;       // the owner's name (a bare pod's own)
  std::string node;        // spec.nodeName as in the snapshot; "" for a pending pod
  std::string created;     // metadata.creationTimestamp (RFC 3339: orders as text)
  bool runs_forever = false;
  std::string queue;  // Kueue's kueue.x-k8s.io/queue-name label; "" when absent
  OrderedJson tmpl;  // a scenario pod template, without job_class and nodeName
  ManifestPlace place;
};

// A finished pod (phase Succeeded or Failed) whose containers' terminated states say when
// it ran: an observed run of its workload (snapshot_observed.h). Times in Unix seconds.
struct FinishedPod {
  std::string ns, name;
  std::string owner_kind, owner;  // as SnapshotPod's
  double created_s = 0;           // metadata.creationTimestamp
  // The earliest state.terminated.startedAt and the latest finishedAt of its containers.
  double started_s = 0, finished_s = 0;
  std::string reason;  // a terminated reason other than Completed wins; "" when none
  OrderedJson tmpl;    // a scenario pod template, as a pending pod's
  ManifestPlace place;
};

struct PriorityValue {
  int64_t value = 0;
  bool never = false;  // preemptionPolicy: Never
};

struct SnapshotPods {
  std::vector<SnapshotPod> pods;                          // in the file's order
  std::map<std::string, PriorityValue> priority_classes;  // names the pods give, not system-*
  int finished = 0;                                       // Succeeded or Failed: left out
  std::vector<FinishedPod> finished_pods;  // those of them with terminated times, in order
  int daemonset_skipped = 0;  // DaemonSet pods without GPU (extended) resources: left out
  int other_scheduler = 0;    // for another scheduler than kube-scheduler: left out
  // The places of queued pods' schedulingGates that are only Kueue's admission gate, which
  // the pod's queue_name models (their "gated pod" warnings are not the user's concern).
  std::set<std::string> kueue_gates;
};

// Reads `items` (the pods). Errors go to `log`; the priority classes' places to `sources`.
SnapshotPods ReadSnapshotPods(const std::vector<ManifestNode>& items, ManifestLog* log,
                              SnapshotSources* sources);

// The time at `node`, an RFC 3339 text (a Kubernetes object's metav1.Time), in Unix
// seconds; an error at `node` (and 0) when it is something else.
double TimeAt(const ManifestNode& node, ManifestLog* log);

// The value of label `key`, or "".
std::string LabelValue(const Labels& labels, const std::string& key);

// A device count (kubectl writes capacities as strings, "8"); an error at `node` if it is
// not one. 0 when absent.
int DeviceCount(const ManifestNode& node, ManifestLog* log);

// A node's GPUs as a pool describes them (snapshot_gpus.cc).
struct SnapshotGpus {
  const GpuModel* model = nullptr;  // nullptr: no GPU
  int gpus = 0;                     // physical GPUs
  OrderedJson mig;                  // the pool's `mig`; null: the default (MIG off)
  OrderedJson device_plugin;        // the pool's `device_plugin`; null: the default
  bool usable = true;               // false: the node is left out (a warning says why)
  bool single_profile = false;      // GFD's -MIG-<profile>: pods ask nvidia.com/gpu for one
};

// Reads GPU Feature Discovery's labels (`labels`, the node's) and the advertised device
// plugin resources of node `item` (named `node`). Warnings and errors go to `log`.
SnapshotGpus ReadSnapshotGpus(const ManifestNode& item, const std::string& node,
                              const Labels& labels, ManifestLog* log);

struct SnapshotCluster {
  OrderedJson pools = OrderedJson::object();       // cluster.nodes
  OrderedJson node_types = OrderedJson::object();  // cluster.node_types
  std::map<std::string, std::string> node_names;   // the snapshot's name -> "<pool>-<i>"
  std::set<std::string> left_out;                  // nodes read but not in the cluster
  std::set<std::string> single_profile;            // pools of GFD's -MIG-<profile> nodes
  int nodes = 0;                                   // nodes read
};

// Reads `items` (the nodes) into pools. Errors go to `log`; each pool's and node type's
// place (its first node) to `sources`.
SnapshotCluster ReadSnapshotNodes(const std::vector<ManifestNode>& items,
                                  ManifestLog* log,
                                  SnapshotSources* sources);

struct SnapshotWorkloads {
  OrderedJson workloads = OrderedJson::object();
  // "<namespace>/<owner kind>/<owner>" -> the base name of its job class and workloads, and
  // the workloads written for it.
  std::map<std::string, std::string> names;
  std::map<std::string, std::vector<std::string>> owner_workloads;
  OrderedJson job_classes = OrderedJson::object();
  int bound = 0, pending = 0, dropped = 0;  // pods; dropped: bound to a node left out
  std::set<std::string> queues;  // "<namespace>/<queue>" of the workloads given a queue_name
  int queued = 0;                // workloads given a queue_name
};

// "<namespace>/<owner kind>/<owner>": how workloads are told apart.
std::string OwnerKey(const std::string& ns, const std::string& kind, const std::string& owner);

// Groups the pods by owner, node and template into workloads; each Job and bare pod gets a
// job class of its own running `run_s`. Warnings go to `log`; each workload's and job
// class's place (its first pod) to `sources`.
SnapshotWorkloads GroupSnapshotPods(const SnapshotPods& pods, const SnapshotCluster& cluster,
                                    double run_s, ManifestLog* log, SnapshotSources* sources);

}  // namespace migsim::k8s
