// PriorityClasses and PodDisruptionBudgets.

#include <algorithm>
#include <charconv>

#include "sim/io/k8s/workload_objects.h"

namespace migsim::k8s {
namespace {

// An IntOrString: 3 or "30%".
BudgetAmount ReadAmount(const ManifestNode& node, ManifestLog* log) {
  std::string text = node.String(log);
  BudgetAmount amount;
  amount.percent = !text.empty() && text.back() == '%';
  if (amount.percent) text.pop_back();
  int32_t value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0 ||
      (amount.percent && value > 100)) {
    if (log->ok())
      node.Fail(log, "expected an integer >= 0 or a percentage, got '" + node.String(log) + "'");
    return amount;
  }
  amount.value = value;
  return amount;
}

}  // namespace

PriorityClass ReadPriorityClassObject(const ManifestNode& doc, const std::string& name,
                                      ManifestLog* log) {
  PriorityClass out;
  out.name = name;
  const ManifestNode value = doc["value"];
  if (!value.present()) doc.Fail(log, "missing required field 'value'");
  out.value = static_cast<int32_t>(value.Int(log, 0, -2147483648LL, kMaxUserPriority));
  out.global_default = doc["globalDefault"].Bool(log, false);
  if (doc["preemptionPolicy"].Choice(log, "preemptionPolicy", {"PreemptLowerPriority", "Never"})) {
    out.preemption = PreemptionPolicy::kNever;
  }
  return out;
}

BudgetObject ReadBudgetObject(const ManifestNode& doc, ManifestLog* log) {
  const ManifestNode spec = doc["spec"];
  BudgetObject out;
  if (!spec.ExpectMap(log)) return out;
  const ManifestNode selector = spec["selector"];
  if (const ManifestNode e = selector["matchExpressions"]; e.present()) {
    e.Fail(log, "matchExpressions is not modelled in budgets; use matchLabels");
  }
  out.match_labels = selector["matchLabels"].StringMap(log);
  const ManifestNode min = spec["minAvailable"], max = spec["maxUnavailable"];
  if (min.present() == max.present() && log->ok()) {
    spec.Fail(log, "exactly one of minAvailable and maxUnavailable is required");
  }
  if (min.present()) out.min_available = ReadAmount(min, log);
  if (max.present()) out.max_unavailable = ReadAmount(max, log);
  return out;
}

}  // namespace migsim::k8s
