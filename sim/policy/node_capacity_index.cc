#include "sim/policy/node_capacity_index.h"

#include <algorithm>
#include <bit>

#include "sim/policy/cluster_view.h"

namespace migsim {

// Right from leaf `v`: leave every subtree that fails by its right edge, climbing while it
// is a right child (its parent's range was covered), then step to the next subtree; from a
// subtree that passes, go down, left child first. A parent can pass while neither child
// does (its maxima come from different nodes), which is just another failing subtree.
uint32_t CandidateNodes::NextAfterLeaf(size_t v) const {
  for (;;) {
    while (v & 1) v >>= 1;           // at the right edge of this level: up
    if (v == 0) return node_count_;  // climbed out of the root: nothing to the right
    ++v;
    while (Passes(v)) {
      if (v >= leaves_) return static_cast<uint32_t>(std::min<size_t>(v - leaves_, node_count_));
      v = 2 * v;  // the left child; when it fails, the loop above steps to the right one
    }
  }
}

int64_t NodeCapacityIndex::FreeUnits(const NodeInfo& node, size_t dim) {
  if (!node.schedulable) return kNever;
  if (dim == kCpu) return node.cpu_milli_allocatable - node.cpu_milli_requested;
  if (dim == kMemory) return node.memory_mib_allocatable - node.memory_mib_requested;
  return node.Free(ResourceId(static_cast<ResourceId::Rep>(dim - kFirstResource)));
}

void NodeCapacityIndex::Refresh(std::span<const NodeInfo> nodes) {
  if (nodes.size() != node_count_ || leaves_ == 0) {
    node_count_ = static_cast<uint32_t>(nodes.size());
    leaves_ = std::bit_ceil(std::max<size_t>(nodes.size(), 1));
    trees_.clear();
    built_.clear();
    orders_.clear();
    order_keys_.clear();
    ordered_.clear();
    dirty_.clear();
    dirty_flag_.assign(nodes.size(), 0);
    return;
  }
  for (uint32_t node : dirty_) {
    dirty_flag_[node] = 0;
    for (uint32_t dim : built_) SetLeaf(trees_[dim], node, FreeUnits(nodes[node], dim));
    for (uint32_t r : ordered_) Reorder(r, nodes[node], node);
  }
  dirty_.clear();
}

// Sets a leaf and the maxima above it, stopping where a maximum does not change.
void NodeCapacityIndex::SetLeaf(std::vector<int64_t>& tree, uint32_t node, int64_t value) {
  size_t v = leaves_ + node;
  if (tree[v] == value) return;
  tree[v] = value;
  for (v >>= 1; v > 0; v >>= 1) {
    const int64_t max = std::max(tree[2 * v], tree[2 * v + 1]);
    if (tree[v] == max) return;
    tree[v] = max;
  }
}

const int64_t* NodeCapacityIndex::Tree(std::span<const NodeInfo> nodes, size_t dim) {
  if (dim >= trees_.size()) trees_.resize(dim + 1);
  std::vector<int64_t>& tree = trees_[dim];
  if (tree.empty()) {
    tree.assign(2 * leaves_, kNever);
    for (uint32_t i = 0; i < node_count_; ++i) tree[leaves_ + i] = FreeUnits(nodes[i], dim);
    for (size_t v = leaves_ - 1; v > 0; --v) tree[v] = std::max(tree[2 * v], tree[2 * v + 1]);
    built_.push_back(static_cast<uint32_t>(dim));
  }
  return tree.data();
}

NodeCapacityIndex::FreeKey NodeCapacityIndex::KeyOf(const NodeInfo& node, uint32_t index,
                                                    ResourceId r) {
  return {.allocatable = node.Allocatable(r),
          .free = FreeUnits(node, kFirstResource + r.value()),
          .node = index};
}

void NodeCapacityIndex::Reorder(uint32_t resource, const NodeInfo& node, uint32_t index) {
  FreeKey& key = order_keys_[resource][index];
  const FreeKey now = KeyOf(node, index, ResourceId(static_cast<ResourceId::Rep>(resource)));
  if (key == now) return;
  std::set<FreeKey>& order = orders_[resource];
  order.erase(key);
  order.insert(now);
  key = now;
}

const std::set<NodeCapacityIndex::FreeKey>& NodeCapacityIndex::ByFreeUnits(
    std::span<const NodeInfo> nodes, ResourceId r) {
  Refresh(nodes);
  const size_t resource = r.value();
  if (resource >= orders_.size()) {
    orders_.resize(resource + 1);
    order_keys_.resize(resource + 1);
  }
  std::vector<FreeKey>& keys = order_keys_[resource];
  if (keys.empty() && node_count_ > 0) {
    keys.reserve(node_count_);
    for (uint32_t i = 0; i < node_count_; ++i) keys.push_back(KeyOf(nodes[i], i, r));
    orders_[resource] = std::set<FreeKey>(keys.begin(), keys.end());
    ordered_.push_back(static_cast<uint32_t>(resource));
  }
  return orders_[resource];
}

CandidateNodes NodeCapacityIndex::CandidatesFor(std::span<const NodeInfo> nodes,
                                                const PodRequests& req) {
  if (nodes.size() < kMinNodes) return CandidateNodes::All(static_cast<uint32_t>(nodes.size()));
  Refresh(nodes);
  CandidateNodes c;
  c.node_count_ = node_count_;
  c.leaves_ = leaves_;
  const auto add = [&](size_t dim, int64_t need) {
    if (c.dims_ == CandidateNodes::kMaxDims) return;
    c.trees_[c.dims_] = Tree(nodes, dim);
    c.needs_[c.dims_++] = need;
  };
  if (req.extended.empty()) {
    add(kCpu, req.cpu_milli);
    add(kMemory, req.memory_mib);
  }
  for (const ResourceRequest& r : req.extended) add(kFirstResource + r.resource.value(), r.count);
  return c;
}

std::optional<uint32_t> NodeCapacityIndex::StaleNode(std::span<const NodeInfo> nodes) const {
  if (leaves_ == 0 || nodes.size() != node_count_) return std::nullopt;  // rebuilt when asked
  for (uint32_t i = 0; i < node_count_; ++i) {
    if (dirty_flag_[i] != 0) continue;
    for (uint32_t dim : built_) {
      if (trees_[dim][leaves_ + i] != FreeUnits(nodes[i], dim)) return i;
    }
    for (uint32_t r : ordered_) {
      if (order_keys_[r][i] != KeyOf(nodes[i], i, ResourceId(static_cast<ResourceId::Rep>(r)))) {
        return i;
      }
    }
  }
  return std::nullopt;
}

}  // namespace migsim
