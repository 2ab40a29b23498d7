#include "sim/policy/taint.h"

#include <algorithm>

namespace migsim {

bool Tolerates(const Toleration& toleration, const Taint& taint) {
  if (toleration.effect && *toleration.effect != taint.effect) return false;
  if (!toleration.key.empty() && toleration.key != taint.key) return false;
  return toleration.op == TolerationOperator::kExists || toleration.value == taint.value;
}

bool ToleratesTaints(const Tolerations& tolerations, const Taints& taints) {
  return std::all_of(taints.begin(), taints.end(), [&](const Taint& taint) {
    if (taint.effect == TaintEffect::kPreferNoSchedule) return true;
    return std::any_of(tolerations.begin(), tolerations.end(),
                       [&](const Toleration& t) { return Tolerates(t, taint); });
  });
}

std::string TolerationProblem(const Toleration& t) {
  if (t.key.empty() && t.op != TolerationOperator::kExists) {
    return "operator must be Exists when key is empty (a toleration of every taint)";
  }
  if (t.op == TolerationOperator::kExists && !t.value.empty()) {
    return "value must be empty when operator is Exists";
  }
  return "";
}

std::optional<TaintEffect> ParseTaintEffect(std::string_view name) {
  if (name == "NoSchedule") return TaintEffect::kNoSchedule;
  if (name == "PreferNoSchedule") return TaintEffect::kPreferNoSchedule;
  if (name == "NoExecute") return TaintEffect::kNoExecute;
  return std::nullopt;
}

std::string_view TaintEffectName(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
  }
  return "NoSchedule";
}

}  // namespace migsim
