// The scheduler's capacity index: the nodes it offers are, in cluster order, exactly those
// a scan of the nodes' free units finds, however the nodes' books change between queries.

#include "sim/policy/node_capacity_index.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/policy/cluster_view.h"

namespace migsim {
namespace {

constexpr int kResources = 3;

std::vector<NodeInfo> Nodes(size_t count) {
  std::vector<NodeInfo> nodes(count);
  for (size_t i = 0; i < count; ++i) {
    nodes[i].id = NodeId(static_cast<NodeId::Rep>(i));
    nodes[i].cpu_milli_allocatable = 8000;
    nodes[i].memory_mib_allocatable = 65536;
    nodes[i].allocatable.assign(kResources, 4);
    nodes[i].requested.assign(kResources, 0);
  }
  return nodes;
}

PodRequests Request(int resource, int32_t count) {
  PodRequests req;
  req.cpu_milli = 500;
  req.memory_mib = 1024;
  if (resource >= 0) {
    req.extended.push_back({ResourceId(static_cast<ResourceId::Rep>(resource)), count});
  }
  return req;
}

// What the index promises: schedulable, and enough free units of each requested extended
// resource, or of CPU and memory for a pod without any.
bool HasFreeUnits(const NodeInfo& node, const PodRequests& req) {
  if (!node.schedulable) return false;
  if (req.extended.empty()) {
    return node.cpu_milli_allocatable - node.cpu_milli_requested >= req.cpu_milli &&
           node.memory_mib_allocatable - node.memory_mib_requested >= req.memory_mib;
  }
  for (const ResourceRequest& r : req.extended) {
    if (node.Free(r.resource) < r.count) return false;
  }
  return true;
}

std::vector<uint32_t> Offered(const CandidateNodes& candidates) {
  std::vector<uint32_t> out;
  for (uint32_t i = candidates.Next(0); i < candidates.node_count(); i = candidates.Next(i + 1)) {
    out.push_back(i);
  }
  return out;
}

std::vector<uint32_t> Scanned(const std::vector<NodeInfo>& nodes, const PodRequests& req) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (HasFreeUnits(nodes[i], req)) out.push_back(i);
  }
  return out;
}

// One random change of a node's books, reported to the index.
void ChangeOne(std::vector<NodeInfo>& nodes, NodeCapacityIndex& index, std::mt19937& rng) {
  const uint32_t i = std::uniform_int_distribution<uint32_t>(0, nodes.size() - 1)(rng);
  NodeInfo& node = nodes[i];
  switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0:
      node.schedulable = !node.schedulable;
      break;
    case 1:
      node.cpu_milli_requested = std::uniform_int_distribution<int64_t>(0, 8000)(rng);
      break;
    case 2:
      node.allocatable[std::uniform_int_distribution<int>(0, kResources - 1)(rng)] =
          std::uniform_int_distribution<int32_t>(0, 7)(rng);
      break;
    default:
      node.requested[std::uniform_int_distribution<int>(0, kResources - 1)(rng)] =
          std::uniform_int_distribution<int32_t>(0, 4)(rng);
  }
  index.Invalidate(i);
}

}  // namespace

TEST_CASE("the capacity index offers the nodes a scan of free units finds, under random updates",
          "[capacity_index]") {
  for (const size_t count : {size_t{32}, size_t{100}, size_t{1000}}) {
    std::mt19937 rng(static_cast<uint32_t>(count));
    std::vector<NodeInfo> nodes = Nodes(count);
    NodeCapacityIndex index;
    for (int step = 0; step < 400; ++step) {
      for (int k = std::uniform_int_distribution<int>(1, 20)(rng); k > 0; --k) {
        ChangeOne(nodes, index, rng);
      }
      const PodRequests req = Request(std::uniform_int_distribution<int>(-1, kResources - 1)(rng),
                                      std::uniform_int_distribution<int32_t>(1, 4)(rng));
      INFO("nodes " << count << ", step " << step);
      REQUIRE(Offered(index.CandidatesFor(nodes, req)) == Scanned(nodes, req));
      REQUIRE_FALSE(index.StaleNode(nodes).has_value());
    }
  }
}

TEST_CASE("the capacity index checks every requested resource at once", "[capacity_index]") {
  std::vector<NodeInfo> nodes = Nodes(64);
  NodeCapacityIndex index;
  PodRequests req = Request(0, 2);
  req.extended.push_back({ResourceId(1), 3});
  (void)index.CandidatesFor(nodes, req);
  // Node 5 has room for resource 0 only, node 6 for resource 1 only, node 40 for both.
  for (NodeInfo& node : nodes) {
    node.requested = {4, 4, 0};
    index.Invalidate(static_cast<uint32_t>(node.id.value()));
  }
  nodes[5].requested = {0, 4, 0};
  nodes[6].requested = {4, 0, 0};
  nodes[40].requested = {1, 1, 0};
  CHECK(Offered(index.CandidatesFor(nodes, req)) == std::vector<uint32_t>{40});
  CHECK(index.CandidatesFor(nodes, req).Next(41) == 64);
}

TEST_CASE("the capacity index finds an unreported change of a node's books", "[capacity_index]") {
  std::vector<NodeInfo> nodes = Nodes(40);
  NodeCapacityIndex index;
  (void)index.CandidatesFor(nodes, Request(0, 1));
  CHECK_FALSE(index.StaleNode(nodes).has_value());
  nodes[7].requested[0] = 4;  // not reported
  CHECK(index.StaleNode(nodes) == 7u);
  index.Invalidate(7);
  CHECK_FALSE(index.StaleNode(nodes).has_value());
  CHECK(Offered(index.CandidatesFor(nodes, Request(0, 1))).size() == 39);
}

TEST_CASE("the capacity index rebuilds itself when the node count changes", "[capacity_index]") {
  std::vector<NodeInfo> nodes = Nodes(40);
  NodeCapacityIndex index;
  CHECK(Offered(index.CandidatesFor(nodes, Request(1, 4))).size() == 40);
  nodes = Nodes(50);
  nodes[49].requested[1] = 1;
  CHECK(Offered(index.CandidatesFor(nodes, Request(1, 4))).size() == 49);
}

TEST_CASE("a small cluster gets every node as a candidate, with no index", "[capacity_index]") {
  std::vector<NodeInfo> nodes = Nodes(NodeCapacityIndex::kMinNodes - 1);
  for (NodeInfo& node : nodes) node.requested.assign(kResources, 4);  // all full
  NodeCapacityIndex index;
  CHECK(Offered(index.CandidatesFor(nodes, Request(0, 1))).size() == nodes.size());
}

TEST_CASE("a view without a capacity index offers every node", "[capacity_index]") {
  std::vector<NodeInfo> nodes = Nodes(40);
  for (NodeInfo& node : nodes) node.requested.assign(kResources, 4);
  ResourceTable resources;
  const ClusterView view(nodes, resources, SimTime::Zero());
  PodView pod;
  const PodRequests req = Request(0, 1);
  pod.requests = &req;
  CHECK(Offered(view.CandidatesFor(pod)).size() == 40);
  NodeCapacityIndex index;
  const ClusterView indexed(nodes, resources, SimTime::Zero(), &index);
  CHECK(Offered(indexed.CandidatesFor(pod)).empty());
}

}  // namespace migsim
