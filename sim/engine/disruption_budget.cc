#include "sim/engine/disruption_budget.h"

#include <algorithm>

namespace migsim {

bool PodDisruptionBudget::Selects(const PodTemplate& pod) const {
  if (pod.namespace_index != namespace_index) return false;
  return MatchesSelector(pod.labels, match_labels);
}

DisruptionBudgets::DisruptionBudgets(std::vector<PodDisruptionBudget> budgets,
                                     std::span<const PodTemplate> templates)
    : budgets_(std::move(budgets)), expected_(budgets_.size(), 0), healthy_(budgets_.size(), 0) {
  if (budgets_.empty()) return;
  by_template_.resize(templates.size());
  in_preemption_.resize(templates.size());
  for (size_t t = 0; t < templates.size(); ++t) {
    for (uint32_t b = 0; b < budgets_.size(); ++b) {
      if (!budgets_[b].Selects(templates[t])) continue;
      by_template_[t].push_back(b);
      if (!budgets_[b].match_labels.empty()) in_preemption_[t].push_back(b);
    }
  }
}

void DisruptionBudgets::Add(TemplateId tmpl, std::vector<int64_t>& counts, int delta) {
  for (uint32_t b : Of(tmpl)) counts[b] += delta;
}

// The disruption controller's rule: desired healthy is minAvailable, or the expected pods
// less maxUnavailable; what exceeds it may be disrupted.
std::vector<int32_t> DisruptionBudgets::Allowed() const {
  std::vector<int32_t> allowed(budgets_.size(), 0);
  for (size_t b = 0; b < budgets_.size(); ++b) {
    const PodDisruptionBudget& budget = budgets_[b];
    const int64_t desired = budget.min_available
                                ? budget.min_available->Scaled(expected_[b])
                                : expected_[b] - budget.max_unavailable->Scaled(expected_[b]);
    allowed[b] = static_cast<int32_t>(std::max<int64_t>(0, healthy_[b] - desired));
  }
  return allowed;
}

}  // namespace migsim
