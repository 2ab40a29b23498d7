#include "tests/support/scripted_policy.h"

namespace migsim::test {

std::optional<Placement> ScriptedPolicy::Place(const ClusterView& view, const PodView& pod) {
  const size_t call = calls_.size();
  calls_.push_back({view.now(), pod.id});
  if (call < script_.size()) return script_[call];
  if (then_ != nullptr) return then_->Place(view, pod);
  return std::nullopt;
}

}  // namespace migsim::test
