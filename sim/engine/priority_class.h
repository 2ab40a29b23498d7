#pragma once
// PriorityClass (scheduling.k8s.io/v1): a named priority a pod template refers to by
// priorityClassName (docs/scheduling.md §2).

#include <cstdint>
#include <string>
#include <string_view>

namespace migsim {

enum class PreemptionPolicy : uint8_t {
  kPreemptLowerPriority,  // Kubernetes' default: may evict pods of lower priority
  kNever,                 // queued ahead of lower priorities, but never evicts anyone
};

struct PriorityClass {
  std::string name{};
  int32_t value = 0;
  bool global_default = false;  // pods without a class get this one (at most one per scenario)
  PreemptionPolicy preemption = PreemptionPolicy::kPreemptLowerPriority;
};

// User-defined classes may take values up to this; higher ones are the system's.
inline constexpr int32_t kMaxUserPriority = 1'000'000'000;
// The two classes every cluster has, with Kubernetes' values.
inline constexpr std::string_view kSystemClusterCritical = "system-cluster-critical";
inline constexpr int32_t kSystemClusterCriticalValue = 2'000'000'000;
inline constexpr std::string_view kSystemNodeCritical = "system-node-critical";
inline constexpr int32_t kSystemNodeCriticalValue = 2'000'001'000;

std::string_view PreemptionPolicyName(PreemptionPolicy policy);

}  // namespace migsim
