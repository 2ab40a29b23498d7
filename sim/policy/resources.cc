#include "sim/policy/resources.h"

#include <algorithm>

namespace migsim {

ResourceId ResourceTable::Intern(std::string_view name) {
  ResourceId found = Find(name);
  if (found.valid()) return found;
  names_.emplace_back(name);
  return ResourceId(static_cast<ResourceId::Rep>(names_.size() - 1));
}

ResourceId ResourceTable::Find(std::string_view name) const {
  // A handful of names per run: a linear scan beats hashing and keeps ids dense.
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return ResourceId(static_cast<ResourceId::Rep>(i));
  }
  return ResourceId::Invalid();
}

bool MatchesSelector(const Labels& labels, const Labels& selector) {
  auto it = labels.begin();
  for (const auto& [key, value] : selector) {
    it = std::lower_bound(it, labels.end(), key,
                          [](const auto& label, const std::string& k) { return label.first < k; });
    if (it == labels.end() || it->first != key || it->second != value) return false;
  }
  return true;
}

bool MatchesAffinity(const Labels& labels, const NodeAffinity& affinity) {
  auto it = labels.begin();
  for (const LabelIn& term : affinity) {
    it = std::lower_bound(it, labels.end(), term.key,
                          [](const auto& label, const std::string& k) { return label.first < k; });
    if (it == labels.end() || it->first != term.key ||
        !std::binary_search(term.values.begin(), term.values.end(), it->second)) {
      return false;
    }
  }
  return true;
}

}  // namespace migsim
