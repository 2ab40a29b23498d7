#pragma once
// An index of the nodes' free capacity for the scheduler's filter, so that finding the
// first node that may fit a pod does not scan every full node before it.
//
// For each dimension a pod can request — each extended resource (a MIG profile, whole GPUs,
// replicas), CPU and memory — a max segment tree over the nodes in cluster order holds each
// node's free units (allocatable - requested; "never" while the node is unschedulable).
// A query walks the trees of the pod's requested dimensions to the first node at or after
// a position whose free units reach every request: O(log n) per node returned, however
// many full nodes it jumps over.
//
// An upper bound, never an answer: a node it returns may still fail ClusterView::Fits (no
// single device is free enough, a selector, a taint, CPU or memory beside an extended
// resource, ...), so the caller checks each one; a node it skips cannot pass Fits. That
// holds as long as every change to a node's books (requested, allocatable, schedulable) is
// reported with Invalidate before the next query.
//
// Lazy, so that small runs pay nothing: a dimension's tree is built at the first query
// that asks for it (O(n)); invalidated nodes are re-read at the next query (a burst of
// changes to one node costs one update); below kMinNodes nodes there is no index at all,
// a scan being as fast.

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "sim/policy/resources.h"

namespace migsim {

struct NodeInfo;

// The nodes that may fit one pod, in cluster order (NodeCapacityIndex::CandidatesFor): a
// cursor over the index's trees. Valid until the nodes' books change, so within one call
// of a policy.
class CandidateNodes {
 public:
  // Every one of `node_count` nodes is a candidate: no index.
  static CandidateNodes All(uint32_t node_count) {
    CandidateNodes all;
    all.node_count_ = node_count;
    return all;
  }

  // The first candidate at or after `from`, or node_count() when there is none. Every
  // node in [from, result) fails ClusterView::Fits for the pod.
  uint32_t Next(uint32_t from) const {
    if (dims_ == 0 || from >= node_count_) return from < node_count_ ? from : node_count_;
    if (Passes(leaves_ + from)) return from;  // the common case when nodes have room
    return NextAfterLeaf(leaves_ + from);
  }
  uint32_t node_count() const { return node_count_; }

 private:
  friend class NodeCapacityIndex;
  static constexpr size_t kMaxDims = 4;  // more requested dimensions: the first four
  // True when the tree slot `v` (a node, or a range of them) may hold the request: its
  // maximum free units reach the need in every dimension.
  bool Passes(size_t v) const {
    for (size_t d = 0; d < dims_; ++d) {
      if (trees_[d][v] < needs_[d]) return false;
    }
    return true;
  }
  // Next's search from leaf `v`, which failed: right to the next passing subtree, then
  // down to its leftmost passing leaf.
  uint32_t NextAfterLeaf(size_t v) const;

  std::array<const int64_t*, kMaxDims> trees_{};
  std::array<int64_t, kMaxDims> needs_{};
  size_t dims_ = 0;    // 0: no index, every node is a candidate
  size_t leaves_ = 0;  // index of the first leaf in each tree (a power of two)
  uint32_t node_count_ = 0;
};

class NodeCapacityIndex {
 public:
  // Smaller clusters get CandidateNodes::All: scanning a few nodes costs less than the trees.
  static constexpr size_t kMinNodes = 32;

  // Node `node`'s requested or allocatable resources, or whether it is schedulable, may
  // have changed. O(1).
  void Invalidate(uint32_t node) {
    if (node < dirty_flag_.size() && dirty_flag_[node] == 0) {
      dirty_flag_[node] = 1;
      dirty_.push_back(node);
    }
  }

  // The nodes of `nodes` that may fit a pod requesting `req`: for a pod with extended
  // resources, those with enough free units of each (up to four), otherwise those with
  // enough free CPU and memory. `nodes` is the cluster, the same at every call but for
  // its nodes' books (a change in their number rebuilds the index).
  CandidateNodes CandidatesFor(std::span<const NodeInfo> nodes, const PodRequests& req);

  // Best-fit's walk over one extended resource `r` (kube-scheduler's MostAllocated on one
  // resource: the fuller the node with the pod, the better). The nodes are grouped by
  // their allocatable units of `r`; in each group, the nodes with at least `need` free
  // units are offered to `take` tightest first (fewest free units, then cluster order)
  // until it returns true. Within a group that is the order of descending score, so the
  // first node taken is the group's best; groups are few (one per MIG layout or GPU count).
  // O(groups x log n) plus one step per node refused. `nodes` as for CandidatesFor.
  template <class Take>
  void ForEachTightest(std::span<const NodeInfo> nodes, ResourceId r, int64_t need, Take&& take) {
    const std::set<FreeKey>& order = ByFreeUnits(nodes, r);
    for (auto group = order.begin(); group != order.end();) {
      const int32_t allocatable = group->allocatable;
      for (auto it = order.lower_bound({allocatable, need, 0});
           it != order.end() && it->allocatable == allocatable; ++it) {
        if (take(it->node)) break;
      }
      group = order.upper_bound({allocatable, kMaxFree, UINT32_MAX});
    }
  }

  // For the engine's end-of-run check: a node whose indexed free units differ from its
  // books though it was not invalidated (a change nobody reported), or nullopt.
  std::optional<uint32_t> StaleNode(std::span<const NodeInfo> nodes) const;

 private:
  // A node's place in best-fit's order of one resource.
  struct FreeKey {
    int32_t allocatable = 0;
    int64_t free = 0;  // kNever while the node is unschedulable
    uint32_t node = 0;
    auto operator<=>(const FreeKey&) const = default;
  };
  static constexpr int64_t kMaxFree = std::numeric_limits<int64_t>::max();

  // Dimension ids: CPU, memory, then extended resource r at kFirstResource + r.
  static constexpr size_t kCpu = 0, kMemory = 1, kFirstResource = 2;
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::min();

  static int64_t FreeUnits(const NodeInfo& node, size_t dim);
  // Clears every tree when the node count changed; re-reads the invalidated nodes.
  void Refresh(std::span<const NodeInfo> nodes);
  const int64_t* Tree(std::span<const NodeInfo> nodes, size_t dim);
  void SetLeaf(std::vector<int64_t>& tree, uint32_t node, int64_t value);
  static FreeKey KeyOf(const NodeInfo& node, uint32_t index, ResourceId r);
  // Best-fit's order of resource `r`, built at its first use.
  const std::set<FreeKey>& ByFreeUnits(std::span<const NodeInfo> nodes, ResourceId r);
  void Reorder(uint32_t resource, const NodeInfo& node, uint32_t index);

  size_t leaves_ = 0;  // a power of two >= the node count
  uint32_t node_count_ = 0;
  std::vector<std::vector<int64_t>> trees_;  // by dimension; empty until asked for
  std::vector<uint32_t> built_;              // the dimensions with a tree
  std::vector<uint8_t> dirty_flag_;          // by node: 1 when in dirty_
  std::vector<uint32_t> dirty_;
  // Best-fit's orders, by extended resource (empty until asked for), each node's key in
  // them (by resource, by node), and the resources that have one.
  std::vector<std::set<FreeKey>> orders_;
  std::vector<std::vector<FreeKey>> order_keys_;
  std::vector<uint32_t> ordered_;
};

}  // namespace migsim
