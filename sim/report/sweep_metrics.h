#pragma once
// The metric columns of sweep.csv (README "Sweep files"), in their named groups and their
// order: how a row holds each, writes it and reads it back. The CSV, the table, the seed
// intervals and the sweep report all go through this one list.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "sim/study/sweep/sweep_results.h"

namespace migsim {

struct SweepMetric {
  // A decimal (six places in the CSV), an optional decimal (an empty cell when absent) or
  // a count.
  using Field =
      std::variant<double SweepRow::*, std::optional<double> SweepRow::*, int64_t SweepRow::*>;
  std::string_view group;  // "latency", "capacity", "pods", "cost", "disruption", ...
  std::string_view name;   // the CSV column
  std::string_view title;  // how a table or chart labels it, with its unit
  Field field;

  // The row's value; nullopt for an absent optional.
  std::optional<double> Value(const SweepRow& row) const;
  // The CSV cell.
  std::string Format(const SweepRow& row) const;
  // Sets the row's field from a CSV cell; false when the cell is not one this column holds.
  bool Read(const std::string& cell, SweepRow* row) const;
};

// Every metric column, in CSV order.
std::span<const SweepMetric> SweepMetrics();

// The metric named `name`, or nullptr.
const SweepMetric* FindSweepMetric(std::string_view name);

// The columns of the first group a CSV written before that group existed lacks ("run
// table": queueing_mean_s ... cost_usd), so that reading an older CSV can say why it is
// refused; their count is SweepMetrics().size() - LegacySweepMetricCount().
size_t LegacySweepMetricCount();

}  // namespace migsim
