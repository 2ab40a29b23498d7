#pragma once
// PodDisruptionBudgets (policy/v1): how many of the pods a label selector picks in a
// namespace may be disrupted at once. Preemption tries not to break them (it prefers
// victims and nodes that keep every budget) but may, as DefaultPreemption does.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/pod.h"

namespace migsim {

// minAvailable or maxUnavailable: a count, or a percentage of the selected pods that
// exist, rounded up (Kubernetes' GetScaledValueFromIntOrPercent with roundUp).
struct BudgetAmount {
  int32_t value = 0;
  bool percent = false;
  int32_t Scaled(int64_t expected) const {
    if (!percent) return value;
    return static_cast<int32_t>((expected * value + 99) / 100);
  }
};

struct PodDisruptionBudget {
  std::string name{};
  int32_t namespace_index = 0;  // into Scenario::namespaces
  Labels match_labels{};        // sorted by key; empty selects every pod of the namespace
  std::optional<BudgetAmount> min_available{};
  std::optional<BudgetAmount> max_unavailable{};  // exactly one of the two is set

  bool Selects(const PodTemplate& pod) const;
};

// The budgets' live counts, kept as pods come and go so that a preemption reads them in
// O(budgets). A pod is expected from its creation until it ends, and healthy while it
// runs and is not being terminated (Kubernetes: ready).
class DisruptionBudgets {
 public:
  DisruptionBudgets() = default;
  // `budgets` for pods of `templates` (by TemplateId).
  DisruptionBudgets(std::vector<PodDisruptionBudget> budgets,
                    std::span<const PodTemplate> templates);

  bool empty() const { return budgets_.empty(); }
  // The budgets that select pods of template `tmpl`.
  std::span<const uint32_t> Of(TemplateId tmpl) const {
    return by_template_.empty() ? std::span<const uint32_t>{} : by_template_[tmpl.value()];
  }
  // The budgets DefaultPreemption weighs for pods of `tmpl` (filterPodsWithPDBViolation):
  // those of Of but one with an empty selector, which there matches nothing.
  std::span<const uint32_t> OfInPreemption(TemplateId tmpl) const {
    return in_preemption_.empty() ? std::span<const uint32_t>{} : in_preemption_[tmpl.value()];
  }
  void AddExpected(TemplateId tmpl, int delta) { Add(tmpl, expected_, delta); }
  void AddHealthy(TemplateId tmpl, int delta) { Add(tmpl, healthy_, delta); }
  // status.disruptionsAllowed of each budget: healthy - desired healthy, at least 0.
  std::vector<int32_t> Allowed() const;

 private:
  void Add(TemplateId tmpl, std::vector<int64_t>& counts, int delta);

  std::vector<PodDisruptionBudget> budgets_;
  std::vector<std::vector<uint32_t>> by_template_;
  std::vector<std::vector<uint32_t>> in_preemption_;  // by_template_ less empty selectors
  std::vector<int64_t> expected_, healthy_;
};

}  // namespace migsim
