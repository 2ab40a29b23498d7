#include "sim/report/sweep_results_json.h"

#include <type_traits>

#include "sim/report/document_json.h"
#include "sim/report/sweep_metrics.h"
#include "sim/report/sweep_seed_groups.h"
#include "sim/report/sweep_table.h"

namespace migsim {
namespace {

// An axis value as the JSON the sweep file gave (the row keeps its text); null where the
// point leaves the pointer alone.
OrderedJson AxisValue(const std::string& text) {
  if (text.empty()) return nullptr;
  OrderedJson value = OrderedJson::parse(text, nullptr, false);
  return value.is_discarded() ? OrderedJson(text) : value;
}

// The values by pointer; `skip` (the seed column of a group) left out.
OrderedJson AxisValues(const std::vector<std::string>& columns,
                       const std::vector<std::string>& values,
                       std::optional<size_t> skip = std::nullopt) {
  OrderedJson out = OrderedJson::object();
  for (size_t c = 0; c < columns.size() && c < values.size(); ++c) {
    if (c != skip) out[columns[c]] = AxisValue(values[c]);
  }
  return out;
}

// A metric as sweep.csv holds it: a count as an integer, a decimal as a number, an absent
// optional as null.
OrderedJson MetricValue(const SweepMetric& metric, const SweepRow& row) {
  return std::visit(
      [&row](auto field) -> OrderedJson {
        const auto& value = row.*field;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::optional<double>>) {
          return JsonOrNull(value);
        } else {
          return value;
        }
      },
      metric.field);
}

OrderedJson RunJson(const SweepResults& results, const SweepRow& row) {
  OrderedJson metrics = OrderedJson::object();
  for (const SweepMetric& m : SweepMetrics()) metrics[std::string(m.name)] = MetricValue(m, row);
  return {{"point", row.point},
          {"values", AxisValues(results.columns, row.values)},
          {"variant", row.variant},
          {"metrics", std::move(metrics)}};
}

OrderedJson IntervalsJson(const SweepResults& results) {
  if (!HasSeedIntervals(results)) return nullptr;  // the table shows no interval table
  const std::optional<size_t> seed = SeedColumn(results);
  OrderedJson out = OrderedJson::array();
  for (const SweepSeedGroup& g : GroupBySeed(results)) {
    OrderedJson metrics = OrderedJson::object();
    for (const SweepMetric& m : SweepMetrics()) {
      const SeedInterval i = GroupInterval(g, m);
      metrics[std::string(m.name)] =
          i.n == 0 ? OrderedJson(nullptr)
                   : OrderedJson{{"mean", i.mean}, {"half_width", i.half_width}, {"n", i.n}};
    }
    out.push_back({{"values", AxisValues(results.columns, g.values, seed)},
                   {"variant", g.variant},
                   {"seeds", g.rows.size()},
                   {"metrics", std::move(metrics)}});
  }
  return out;
}

}  // namespace

std::string FormatSweepJson(const SweepResults& results) {
  OrderedJson runs = OrderedJson::array();
  for (const SweepRow& row : results.rows) runs.push_back(RunJson(results, row));
  return JsonDocument({{"columns", results.columns},
                       {"column_titles", SweepColumnTitles(results.columns)},
                       {"runs", std::move(runs)},
                       {"seed_intervals", IntervalsJson(results)}});
}

}  // namespace migsim
