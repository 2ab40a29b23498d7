#include "sim/report/sweep_seed_groups.h"

#include <algorithm>

namespace migsim {

std::optional<size_t> SeedColumn(const SweepResults& results) {
  const auto it = std::find(results.columns.begin(), results.columns.end(), "/seed");
  if (it == results.columns.end()) return std::nullopt;
  return static_cast<size_t>(it - results.columns.begin());
}

std::vector<SweepSeedGroup> GroupBySeed(const SweepResults& results) {
  const std::optional<size_t> seed = SeedColumn(results);
  std::vector<SweepSeedGroup> groups;
  for (const SweepRow& row : results.rows) {
    std::vector<std::string> values = row.values;
    if (seed && *seed < values.size()) values[*seed].clear();
    auto same = [&](const SweepSeedGroup& g) {
      return seed && g.values == values && g.variant == row.variant;
    };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end()) {
      groups.push_back({std::move(values), row.variant, {}});
      it = groups.end() - 1;
    }
    it->rows.push_back(&row);
  }
  return groups;
}

bool HasSeedIntervals(const SweepResults& results) {
  return SeedColumn(results) && results.rows.size() > GroupBySeed(results).size();
}

SeedInterval GroupInterval(const SweepSeedGroup& group, const SweepMetric& metric) {
  std::vector<double> values;
  for (const SweepRow* row : group.rows) {
    if (const std::optional<double> v = metric.Value(*row)) values.push_back(*v);
  }
  return ComputeSeedInterval(values);
}

}  // namespace migsim
