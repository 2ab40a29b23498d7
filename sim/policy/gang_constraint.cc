#include "sim/policy/gang_constraint.h"

#include <algorithm>

namespace migsim {

const std::string* FindLabel(const Labels& labels, const std::string& key) {
  const auto it =
      std::lower_bound(labels.begin(), labels.end(), key,
                       [](const auto& label, const std::string& k) { return label.first < k; });
  return it != labels.end() && it->first == key ? &it->second : nullptr;
}

bool GangConstraint::Allows(NodeId node, const Labels& labels) const {
  if (one_per_node && std::binary_search(taken.begin(), taken.end(), node)) return false;
  if (topology_key.empty()) return true;
  const std::string* value = FindLabel(labels, topology_key);
  return value != nullptr && *value == topology_value;
}

void GangConstraint::Take(NodeId node) {
  const auto it = std::lower_bound(taken.begin(), taken.end(), node);
  if (it == taken.end() || *it != node) taken.insert(it, node);
}

}  // namespace migsim
