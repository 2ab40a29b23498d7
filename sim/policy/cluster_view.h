#pragma once
// The read-only view of the cluster that a policy sees: what a kube-scheduler plugin
// knows of each node — labels, allocatable and requested resources, the pods bound there —
// and what the device plugin and GPU Feature Discovery publish about its GPUs: their MIG
// layouts and every device with its occupancy.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_config.h"
#include "sim/core/ids.h"
#include "sim/core/sim_time.h"
#include "sim/dra/allocator.h"
#include "sim/policy/gang_constraint.h"
#include "sim/policy/node_capacity_index.h"
#include "sim/policy/resources.h"
#include "sim/policy/shared_claims.h"
#include "sim/policy/taint.h"

namespace migsim {

// What a node can give a pod that must take a resource from one device (a fractional GPU
// share, e.g. 300 of a GPU's 1000 milli): the units per device, the most units free on
// one device, and how many devices are entirely free (for whole multiples of `units`).
struct DeviceShares {
  int32_t units = 0;  // 0: the resource is not taken per device
  int32_t largest_free = 0;
  int32_t whole_free = 0;
};

// One device the node's device plugin hands out.
struct DeviceInfo {
  int gpu = 0;                        // index of the physical GPU (NodeInfo::gpus)
  std::optional<MigPlacement> mig{};  // the GPU instance, or none for a whole GPU
  ResourceId resource;                // the extended resource it serves
  int32_t capacity = 1;               // replicas (time-slicing, MPS), units (fractional), or 1
  int32_t used = 0;                   // replicas or units taken by bound pods
  bool shared = false;                // time-sliced or MPS: pods share its time
  bool fractional = false;            // a pod takes `count` units of it (milli-GPU and alike)
  // False once the device plugin marked its GPU unhealthy (an Xid error): capacity is 0
  // then, so free() is never positive, and the node's allocatable leaves it out.
  bool healthy = true;
  int32_t free() const { return capacity - used; }
};

// A pod bound to a node, as a scheduler plugin sees it in its node snapshot.
struct BoundPod {
  PodId id;
  const PodRequests* requests = nullptr;
};

struct NodeInfo {
  NodeId id;
  std::string name;
  Labels labels;            // sorted by key
  bool schedulable = true;  // false while cordoned
  int64_t cpu_milli_allocatable = 0;
  int64_t cpu_milli_requested = 0;
  int64_t memory_mib_allocatable = 0;
  int64_t memory_mib_requested = 0;
  // Bound pods that request no CPU, and no memory: for scoring, each counts as the non-zero
  // default (NonZeroCpuMilliRequested, NonZeroMemoryMibRequested).
  int32_t pods_without_cpu = 0;
  int32_t pods_without_memory = 0;
  std::vector<int32_t> allocatable;         // by ResourceId; shorter vectors mean 0
  std::vector<int32_t> requested;           // by ResourceId, same length as allocatable
  std::vector<DeviceShares> device_shares;  // by ResourceId; shorter vectors mean none
  // Free units of each fractional-share GPU, in GPU order (empty on nodes without them;
  // zeros while the node is withdrawn). Placement::shares indexes it.
  std::vector<int32_t> share_free;
  // The GPUs: model (null on nodes without GPUs), each GPU's MIG setting, and the devices
  // the plugin hands out (ordered by GPU, then GPU-instance start). `mig_pending` is true
  // while the MIG manager reconfigures the node: its devices are withdrawn meanwhile.
  const GpuModel* gpu_model = nullptr;
  std::vector<GpuMigSetting> gpus;
  std::vector<DeviceInfo> devices;
  bool mig_pending = false;
  std::vector<BoundPod> pods;  // in no particular order
  // Changes whenever anything above does (a bind, a release, a MIG change): a key for
  // policies that cache what they derive from a node.
  uint64_t generation = 0;
  Taints taints;  // the node's taints (spec.taints); empty on most nodes
  // Set on a node whose GPUs are under DRA (NVIDIA's DRA driver instead of the device
  // plugin): its ResourceSlice and what is allocated. Owned by the engine; null elsewhere.
  const dra::Allocator* dra = nullptr;

  int32_t Allocatable(ResourceId r) const {
    return r.value() < allocatable.size() ? allocatable[r.value()] : 0;
  }
  int32_t Requested(ResourceId r) const {
    return r.value() < requested.size() ? requested[r.value()] : 0;
  }
  int32_t Free(ResourceId r) const { return Allocatable(r) - Requested(r); }
  // kube-scheduler's NodeInfo.NonZeroRequested: the requested CPU and memory with every
  // bound pod that requests none counted as the default (kDefaultMilliCpuRequest,
  // kDefaultMemoryRequestMib). Scores use these; the filter uses the real requests.
  int64_t NonZeroCpuMilliRequested() const {
    return cpu_milli_requested + kDefaultMilliCpuRequest * pods_without_cpu;
  }
  int64_t NonZeroMemoryMibRequested() const {
    return memory_mib_requested + kDefaultMemoryRequestMib * pods_without_memory;
  }
  // Books (sign +1) or takes back (-1) a bound pod's requested CPU and memory.
  void BookCpuMemory(const PodRequests& req, int sign) {
    cpu_milli_requested += sign * req.cpu_milli;
    memory_mib_requested += sign * req.memory_mib;
    pods_without_cpu += sign * (req.cpu_milli == 0 ? 1 : 0);
    pods_without_memory += sign * (req.memory_mib == 0 ? 1 : 0);
  }
  // True when `count` of `r` can be taken as the resource demands: from the node's free
  // total, and for a per-device resource from one device (or from whole free devices).
  // Inline: the scheduler's filter calls it for every node it considers.
  bool CanTake(ResourceId r, int32_t count) const {
    if (Free(r) < count) return false;
    return device_shares.empty() || CanTakeFromDevices(r, count);
  }
  bool CanTakeFromDevices(ResourceId r, int32_t count) const;
  // True when the node's free resources hold `req`: each extended resource (CanTake), CPU
  // and memory. The resource half of ClusterView::Fits.
  bool HasRoomFor(const PodRequests& req) const {
    // Extended resources first: on a busy GPU cluster they rule out the most nodes.
    for (const ResourceRequest& r : req.extended) {
      if (!CanTake(r.resource, r.count)) return false;
    }
    return cpu_milli_requested + req.cpu_milli <= cpu_milli_allocatable &&
           memory_mib_requested + req.memory_mib <= memory_mib_allocatable;
  }
};

// A pod waiting to be placed, as the scheduler sees it.
struct PodView {
  PodId id;
  const PodRequests* requests = nullptr;
  const Labels* node_selector = nullptr;        // nullptr or empty: no selector
  const NodeAffinity* node_affinity = nullptr;  // nullptr or empty: no affinity
  SimTime created{};
  // Pods alike to this one (same requests, selector, affinity) pending behind it, this one
  // included, when the engine offers it; 1 elsewhere. A post-filter can make room for all.
  uint32_t pending_alike = 1;
  int32_t priority = 0;  // .spec.priority, from the pod's PriorityClass
  // What the scheduler is told of the pod's run time: a trace's recorded or a generator's
  // drawn run time, else its job class's (on a whole GPU); nullopt for pods that run until
  // deleted. Queue disciplines such as SJF order by it.
  std::optional<SimTime> run_estimate{};
  // The pod's labels (sorted by key; nullptr: none) and its namespace (an index into the
  // run's namespaces, 0 "default"): what a queue order may read (QueueNames names them).
  const Labels* labels = nullptr;
  int32_t namespace_index = 0;
  // For a pod of a gang: where the gang lets it go (Fits checks it); nullptr otherwise.
  const GangConstraint* gang = nullptr;
  // Set only under a preemptive queue discipline (LAS, SRTF), 0 otherwise. The fraction of its work
  // the pod resumed from a checkpoint; how long it has run (0 unless running); the GPUs it holds (0
  // while pending); its attained service in GPU-seconds: what the pods it replaces (preempted pods
  // of its controller) had attained, plus gpus × ran.
  double resumed = 0;
  SimTime ran{};
  double gpus = 0;
  double attained_gpu_s = 0;
  const Tolerations* tolerations = nullptr;  // nullptr or empty: tolerates no taint
  // The pod's ResourceClaims (from its templates' ResourceClaimTemplates) and the cluster's
  // DeviceClasses they name; nullptr or empty: no claims.
  const std::vector<dra::ResourceClaim>* claims = nullptr;
  std::span<const dra::DeviceClass> device_classes{};
  bool has_claims() const { return claims != nullptr && !claims->empty(); }
  // The shared ResourceClaims the pod references by name (spec.resourceClaims[]
  // .resourceClaimName): ids into `shared_claims`, the cluster's. nullptr or empty: none.
  // REQUIRES: when set and not empty, `claims` is set too (to the pod's own claims, maybe
  // none), so that Fits tests one pointer for both.
  const std::vector<dra::SharedClaimId>* shared_claim_ids = nullptr;
  std::span<const SharedClaimState> shared_claims{};
};

class ClusterView {
 public:
  // `capacity`, when given, indexes `nodes` (CandidatesFor); it is a cache, updated as the
  // view is queried, and must be told of every change to the nodes' books.
  ClusterView(std::span<const NodeInfo> nodes, const ResourceTable& resources, SimTime now,
              NodeCapacityIndex* capacity = nullptr)
      : nodes_(nodes), resources_(&resources), now_(now), capacity_(capacity) {}

  std::span<const NodeInfo> nodes() const { return nodes_; }
  const ResourceTable& resources() const { return *resources_; }
  SimTime now() const { return now_; }

  // The scheduler's filter: the node is schedulable, matches the pod's node selector and
  // node affinity, has room for every requested resource, the DRA plugin can allocate
  // every request of the pod's claims there (and of its shared claims not allocated yet;
  // those allocated must be on this node), and the pod's gang allows it.
  bool Fits(const PodView& pod, const NodeInfo& node) const;
  // The other half of Fits, what no change of the node's load alters: the node is
  // schedulable, matches the pod's node selector and node affinity, and the pod tolerates
  // its NoSchedule and NoExecute taints.
  static bool Admits(const PodView& pod, const NodeInfo& node);
  // The nodes that may pass Fits for `pod`, in cluster order: every node it leaves out
  // fails Fits, so a filter may visit only these (`for (i = c.Next(0); i < n; i =
  // c.Next(i + 1))`) and find the same nodes, without scanning the full ones. Every node
  // when the view has no capacity index. Valid while the view is.
  CandidateNodes CandidatesFor(const PodView& pod) const {
    const auto count = static_cast<uint32_t>(nodes_.size());
    return capacity_ == nullptr ? CandidateNodes::All(count)
                                : capacity_->CandidatesFor(nodes_, *pod.requests);
  }

  // Best-fit's walk over one extended resource (NodeCapacityIndex::ForEachTightest): `take`
  // is offered node indices, tightest first within each allocatable of `r`, and returns
  // true to end that group. False, having offered nothing, when the view has no capacity
  // index: the caller scans instead.
  template <class Take>
  bool ForEachTightest(ResourceId r, int64_t need, Take&& take) const {
    if (capacity_ == nullptr || nodes_.size() < NodeCapacityIndex::kMinNodes) return false;
    capacity_->ForEachTightest(nodes_, r, need, std::forward<Take>(take));
    return true;
  }

  // kube-scheduler's percentageOfNodesToScore (SchedulerConfig): Policy::Place looks for
  // `feasible_nodes_to_find` feasible nodes (0: all) from node `start` on, wrapping, and
  // notes how many nodes it went through (Examined), where the next cycle starts.
  void SampleNodes(uint32_t feasible_nodes_to_find, uint32_t start) {
    feasible_nodes_to_find_ = feasible_nodes_to_find;
    start_ = start;
  }
  uint32_t feasible_nodes_to_find() const { return feasible_nodes_to_find_; }
  uint32_t sample_start() const { return start_; }
  void NoteExamined(uint32_t nodes) const { examined_ = nodes; }
  uint32_t examined() const { return examined_; }

 private:
  std::span<const NodeInfo> nodes_;
  const ResourceTable* resources_;
  SimTime now_;
  NodeCapacityIndex* capacity_;
  uint32_t feasible_nodes_to_find_ = 0;
  uint32_t start_ = 0;
  mutable uint32_t examined_ = 0;  // written by Place, read by the engine
};

}  // namespace migsim
