#include "tests/support/policy_world.h"

#include <algorithm>

namespace migsim::test {
namespace {

std::optional<uint32_t> Ask(Policy& policy, const PolicyWorld& w, const PodRequests& req,
                            const Labels& selector) {
  const PodView pod{PodId(0), &req, &selector};
  const ClusterView view(w.nodes, w.resources, SimTime::Zero());
  std::optional<Placement> placement = policy.Place(view, pod);
  if (!placement) return std::nullopt;
  return placement->node.value();
}

}  // namespace

NodeInfo& PolicyWorld::AddNode(int32_t gpus, int32_t used, Labels labels) {
  NodeInfo& node = nodes.emplace_back(
      SchedulerNode(static_cast<uint32_t>(nodes.size()), 8000, 32768, std::move(labels)));
  SetExtended(node, gpu, gpus, used);
  return node;
}

std::optional<uint32_t> PolicyWorld::Place(Policy& policy, int32_t gpus, Labels selector) const {
  PodRequests req;
  req.extended.push_back({gpu, gpus});
  std::sort(selector.begin(), selector.end());
  return Ask(policy, *this, req, selector);
}

std::optional<uint32_t> PolicyWorld::PlaceCpu(Policy& policy, int64_t cpu_milli,
                                              int64_t memory_mib) const {
  PodRequests req;
  req.cpu_milli = cpu_milli;
  req.memory_mib = memory_mib;
  return Ask(policy, *this, req, {});
}

}  // namespace migsim::test
