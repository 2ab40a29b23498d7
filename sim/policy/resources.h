#pragma once
// What pods ask for and what nodes offer, in the units the Kubernetes scheduler uses.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/ids.h"

namespace migsim {

// Interns extended-resource names ("nvidia.com/gpu", "nvidia.com/mig-1g.5gb") so that
// nodes can keep per-resource counts in flat vectors indexed by ResourceId.
class ResourceTable {
 public:
  // The id of `name`, interning it if new.
  ResourceId Intern(std::string_view name);
  // The id of `name`, or an invalid id when it was never interned.
  ResourceId Find(std::string_view name) const;
  const std::string& name(ResourceId id) const { return names_[id.value()]; }
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
};

struct ResourceRequest {
  ResourceId resource;
  int32_t count = 0;
  bool operator==(const ResourceRequest&) const = default;
};

struct PodRequests {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  std::vector<ResourceRequest> extended;  // sorted by resource id, counts > 0
  bool operator==(const PodRequests&) const = default;
};

// What a pod that requests no CPU, or no memory, counts as when nodes are scored (never
// when they are filtered): kube-scheduler's non-zero defaults, DefaultMilliCPURequest (100
// millicores) and DefaultMemoryRequest (200 MiB) of pkg/scheduler/util, which
// NodeResourcesFit's LeastAllocated and MostAllocated scores apply to the incoming pod and,
// through NodeInfo.NonZeroRequested, to the pods on the node. (Upstream defaults each
// container; migsim holds a pod's requests as one sum, so it defaults the pod.)
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequestMib = 200;
inline int64_t NonZeroCpuMilli(const PodRequests& r) {
  return r.cpu_milli != 0 ? r.cpu_milli : kDefaultMilliCpuRequest;
}
inline int64_t NonZeroMemoryMib(const PodRequests& r) {
  return r.memory_mib != 0 ? r.memory_mib : kDefaultMemoryRequestMib;
}

using Labels = std::vector<std::pair<std::string, std::string>>;  // sorted by key

// True when every (key, value) of `selector` is in `labels`. Both sorted by key.
bool MatchesSelector(const Labels& labels, const Labels& selector);

// A required node-affinity term of operator In: the node's label `key` must carry one of
// `values`. A pod's terms all apply (matchExpressions of one nodeSelectorTerm).
struct LabelIn {
  std::string key;
  std::vector<std::string> values;  // sorted, not empty
  bool operator==(const LabelIn&) const = default;
};
using NodeAffinity = std::vector<LabelIn>;  // sorted by key

// True when every term of `affinity` holds for `labels` (sorted by key).
bool MatchesAffinity(const Labels& labels, const NodeAffinity& affinity);

}  // namespace migsim
