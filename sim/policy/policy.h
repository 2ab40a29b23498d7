#pragma once
// The policy API, modelled on the kube-scheduler framework: one interface whose extension
// points all have defaults, so a policy overrides only what it decides.
//
//   filter        Filter(view, pod, node)    may the pod go there, besides fitting
//                                            (default: every node that fits)
//   score         Score(view, pod, node)     how good is the node (default: none, so the
//                                            first node that passes the filter wins)
//   devices       ChooseDevices(...)         which GPUs, MIG devices, replicas or shares
//                                            the pod takes there (default: the device
//                                            plugin's preferred allocation)
//   post-filter   PostFilter(view, pod)      the pod fits nowhere: ask for MIG layouts to
//                                            change (default: nothing)
//
// Place() runs filter -> score -> pick -> devices; a policy may replace it whole (to cache
// scores, say). The engine validates every answer — the node exists and the pod fits, each
// chosen device exists, has room and serves what the pod asks, each MIG layout obeys the
// GPU's placement rules and keeps every busy GPU instance — and rejects a bad one without
// touching the cluster: the pod stays pending and the rejection is counted.
//
// Which pending pod is tried first is not a policy's to say: as kube-scheduler's QueueSort
// is a plugin of its own, the queue order is a QueueOrder (sim/policy/queue_order.h), the
// one the scenario names in scheduler.queue_order — which may name "policy", the order a
// policy supplies (SuppliedQueueOrder: a plugin's or a Python policy's).

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/cluster/mig_layout.h"
#include "sim/policy/cluster_view.h"
#include "sim/policy/queue_order.h"

namespace migsim {

// One device the pod takes on its node: an index into NodeInfo::devices, and how many of
// its replicas (time-slicing, MPS) or units (a fractional share) — 1 for an exclusive
// device (a whole GPU or a MIG device).
struct DeviceChoice {
  uint32_t device = 0;
  int32_t count = 1;
  bool operator==(const DeviceChoice&) const = default;
};

struct Placement {
  NodeId node;
  // Empty: the device plugin picks. Otherwise they must cover every extended resource the
  // pod requests, exactly (the counts per resource sum to the request).
  std::vector<DeviceChoice> devices{};
};

// A new MIG layout for one GPU of a node (NodeInfo::gpus index).
struct GpuLayoutChange {
  int gpu = 0;
  MigLayout layout{};
};

// Asks the MIG manager to repartition GPUs of a node: the node's GPU resources are
// withdrawn for the node's reconfiguration window (nvidia.com/mig.config.state=pending),
// then come back with the new layouts. Valid when the node is not already reconfiguring,
// each GPU is MIG-enabled, each layout obeys the model's rules, and every GPU instance
// that holds a pod keeps its placement (no pod loses its device to a policy's decision).
struct MigReconfiguration {
  NodeId node;
  std::vector<GpuLayoutChange> gpus{};
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;

  // Filter, beyond the scheduler's fit (ClusterView::Fits), which the default Place and
  // the engine always require: may the pod go on `node`? Default: yes. Called only for
  // nodes that fit.
  virtual bool Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) {
    (void)view, (void)pod, (void)node;
    return true;
  }
  // Score: higher is better; by convention in [0, 100] so that weighted sums of plugins
  // compare (see ScoredPolicy). nullopt: this policy does not score, and the first node
  // that passes the filter wins.
  virtual std::optional<double> Score(const ClusterView& view, const PodView& pod,
                                      const NodeInfo& node) {
    (void)view, (void)pod, (void)node;
    return std::nullopt;
  }
  // The devices the pod takes on `node` (which passed the filter). Empty: the device
  // plugin's preferred allocation.
  virtual std::vector<DeviceChoice> ChooseDevices(const ClusterView& view, const PodView& pod,
                                                  const NodeInfo& node) {
    (void)view, (void)pod, (void)node;
    return {};
  }
  // Where to bind `pod`, or nullopt to leave it pending until something changes. The
  // default: every node that fits and passes Filter is scored, the highest wins (ties to
  // the lowest node id, so runs are deterministic), then devices are chosen there. When
  // the view samples nodes (ClusterView::SampleNodes, percentageOfNodesToScore), only the
  // first feasible nodes found from its start are scored.
  virtual std::optional<Placement> Place(const ClusterView& view, const PodView& pod);

  // Called when Place found no node for `pod`: MIG repartitions that would make room (the
  // pod stays pending; it is offered again once they are done). Default: none.
  virtual std::vector<MigReconfiguration> PostFilter(const ClusterView& view, const PodView& pod) {
    (void)view, (void)pod;
    return {};
  }

  // The queue order this policy supplies, for a scenario whose scheduler.queue_order is
  // "policy" (a plugin library's migsim_policy_queue_less, a Python policy's less), or
  // nullptr: the built-ins supply none. The order calls into this policy, which must
  // outlive it. Default: none.
  virtual std::unique_ptr<QueueOrder> SuppliedQueueOrder(const QueueNames& names) {
    (void)names;
    return nullptr;
  }

 private:
  std::optional<Placement> PlaceSampled(const ClusterView& view, const PodView& pod);
};

}  // namespace migsim
