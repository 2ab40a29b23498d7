#pragma once
// Node taints and pod tolerations (core/v1). kube-scheduler's TaintToleration filter keeps a
// pod off every node with a NoSchedule or NoExecute taint the pod does not tolerate; a
// PreferNoSchedule taint only lowers the node's score, which migsim's policies do not model.
// GPU node groups are usually tainted nvidia.com/gpu:NoSchedule so that only pods that
// tolerate it (and ask for GPUs) land there.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace migsim {

enum class TaintEffect : uint8_t { kNoSchedule, kPreferNoSchedule, kNoExecute };

struct Taint {
  std::string key;
  std::string value;  // may be empty
  TaintEffect effect = TaintEffect::kNoSchedule;
  bool operator==(const Taint&) const = default;
};

enum class TolerationOperator : uint8_t { kEqual, kExists };

// Kubernetes' validation holds: an empty key goes with kExists (it tolerates every taint of
// the effect), and kExists has an empty value.
struct Toleration {
  std::string key;  // empty: every key (operator Exists)
  TolerationOperator op = TolerationOperator::kEqual;
  std::string value;
  std::optional<TaintEffect> effect;  // none: every effect
  bool operator==(const Toleration&) const = default;
};

using Taints = std::vector<Taint>;
using Tolerations = std::vector<Toleration>;

// Kubernetes' ToleratesTaint: the effects match (or the toleration names none), the keys
// match (or the toleration's is empty), and the value is equal under Equal.
bool Tolerates(const Toleration& toleration, const Taint& taint);
// The TaintToleration filter: every NoSchedule and NoExecute taint is tolerated.
bool ToleratesTaints(const Tolerations& tolerations, const Taints& taints);

// What Kubernetes' validation rejects in `t` ("operator must be Exists when key is empty",
// ...), or "" when nothing.
std::string TolerationProblem(const Toleration& t);

// "NoSchedule", "PreferNoSchedule", "NoExecute"; nullopt for anything else.
std::optional<TaintEffect> ParseTaintEffect(std::string_view name);
std::string_view TaintEffectName(TaintEffect effect);

}  // namespace migsim
