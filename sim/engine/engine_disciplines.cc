// Queue disciplines whose order depends on the cluster's state, not only on the pods:
// fair share across namespaces (DRF).

#include <algorithm>

#include "sim/engine/engine.h"

namespace migsim {

// Scheduling classes never mix namespaces (the namespace is part of their key), so a
// class's group is its namespace, and a namespace's place among the groups is re-read
// whenever one of its pods binds or is released: O(log namespaces) a decision.
void Engine::SetUpDisciplines() {
  if (!queue_order_->GroupsByNamespace()) return;
  int32_t namespaces = 1;
  for (const PodTemplate& t : templates_) namespaces = std::max(namespaces, t.namespace_index + 1);
  size_t classes = 0;
  for (SchedulingClassId c : template_class_) classes = std::max<size_t>(classes, c.value() + 1);
  std::vector<uint32_t> class_group(classes, 0);
  for (size_t i = 0; i < templates_.size(); ++i) {
    class_group[template_class_[i].value()] = static_cast<uint32_t>(templates_[i].namespace_index);
  }
  fair_share_ = true;
  dominant_shares_ = DominantShares(node_info_, resources_.size(), static_cast<size_t>(namespaces));
  queue_.set_groups(std::move(class_group), [this](uint32_t ns) {
    const auto index = static_cast<int32_t>(ns);
    return queue_order_->NamespaceKey(index, dominant_shares_.DominantShare(index));
  });
}

void Engine::BookTenant(const Pod& pod, int sign) {
  if (!fair_share_) return;
  const PodTemplate& t = templates_[pod.tmpl.value()];
  dominant_shares_.Add(t.namespace_index, t.requests, sign);
  queue_.Rekey(static_cast<uint32_t>(t.namespace_index));
}

}  // namespace migsim
