#pragma once
// A cluster as a policy sees it, without an engine: NodeInfos with one GPU resource, and
// pods asking for it. For tests of policies/.

#include <optional>
#include <vector>

#include "sim/policy/policy.h"
#include "tests/support/tiny_world.h"

namespace migsim::test {

struct PolicyWorld {
  ResourceTable resources;
  ResourceId gpu = resources.Intern("nvidia.com/gpu");
  std::vector<NodeInfo> nodes;

  // Adds a node with `gpus` nvidia.com/gpu of which `used` are requested; returns it.
  NodeInfo& AddNode(int32_t gpus, int32_t used, Labels labels = {});
  // Where `policy` places a pod asking for `gpus` GPUs with `selector`.
  std::optional<uint32_t> Place(Policy& policy, int32_t gpus, Labels selector = {}) const;
  // Where `policy` places a CPU-only pod.
  std::optional<uint32_t> PlaceCpu(Policy& policy, int64_t cpu_milli, int64_t memory_mib) const;
};

}  // namespace migsim::test
