#include "sim/report/sweep_table.h"

#include <algorithm>
#include <cstdio>

#include "sim/core/text.h"
#include "sim/report/sweep_seed_groups.h"

namespace migsim {
namespace {

// Longer axis values (whole objects, say) are cut: the CSV has them in full.
constexpr size_t kMaxValueWidth = 32;

std::string Shortened(const std::string& value) {
  if (value.size() <= kMaxValueWidth) return value;
  return value.substr(0, kMaxValueWidth - 3) + "...";
}

std::vector<std::string> Tokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  for (size_t start = 1; start <= pointer.size();) {
    const size_t slash = std::min(pointer.find('/', start), pointer.size());
    tokens.push_back(pointer.substr(start, slash - start));
    start = slash + 1;
  }
  return tokens;
}

// The last `k` tokens of a pointer, "/"-joined, or "" when it has fewer.
std::string Suffix(const std::vector<std::string>& tokens, size_t k) {
  if (k > tokens.size()) return "";
  std::string out;
  for (size_t i = tokens.size() - k; i < tokens.size(); ++i)
    out += (out.empty() ? "" : "/") + tokens[i];
  return out;
}

// Pointers shortened for a column title to their last two tokens, or more when that is
// ambiguous ("/cluster/nodes/p4d/count" -> "p4d/count", "/seed" -> "seed"). The CSV
// keeps the whole pointers.
std::vector<std::string> Titles(const std::vector<std::string>& pointers) {
  std::vector<std::vector<std::string>> tokens;
  for (const std::string& pointer : pointers) tokens.push_back(Tokens(pointer));
  std::vector<std::string> titles;
  for (size_t c = 0; c < pointers.size(); ++c) {
    size_t k = std::min<size_t>(2, tokens[c].size());
    auto clashes = [&](size_t length) {
      for (size_t d = 0; d < pointers.size(); ++d) {
        if (d != c && Suffix(tokens[d], length) == Suffix(tokens[c], length)) return true;
      }
      return false;
    };
    while (k < tokens[c].size() && clashes(k)) ++k;
    const std::string title = Suffix(tokens[c], k);
    titles.push_back(title.empty() || clashes(k) ? pointers[c] : title);
  }
  return titles;
}

struct Column {
  std::string title;
  bool left_aligned = false;
  std::vector<std::string> cells;
};

// Preemptions, faults and goodput, shown when some run had a preemption or a fault.
bool AnyDisruption(const SweepResults& results) {
  return std::any_of(results.rows.begin(), results.rows.end(),
                     [](const SweepRow& r) { return r.preemptions > 0 || r.faults > 0; });
}

// Pods that never bound and the longest wait, shown when some run left a pod unbound:
// demand the p95 (bound pods only) does not see.
bool AnyNeverBound(const SweepResults& results) {
  return std::any_of(results.rows.begin(), results.rows.end(),
                     [](const SweepRow& r) { return r.never_bound > 0; });
}

std::vector<Column> BuildColumns(const SweepResults& results) {
  const bool disruptions = AnyDisruption(results);
  const bool never_bound = AnyNeverBound(results);
  std::vector<Column> columns = {{"point", false, {}}};
  for (std::string& title : Titles(results.columns)) columns.push_back({title, true, {}});
  for (const char* title : {"variant", "makespan (s)", "p95 queueing (s)", "GPU allocation",
                            "GPU utilization", "completed", "failed", "pending", "cost ($/h)"}) {
    columns.push_back({title, std::string_view(title) == "variant", {}});
  }
  if (disruptions) {
    for (const char* title : {"preempted", "faults", "lost GPU-h", "goodput"}) {
      columns.push_back({title, false, {}});
    }
  }
  if (never_bound) {
    for (const char* title : {"never bound", "longest wait (s)"}) {
      columns.push_back({title, false, {}});
    }
  }
  for (const char* title : {"energy (kWh)", "energy ($)", "CO2 (kg)"}) {
    columns.push_back({title, false, {}});
  }
  for (const SweepRow& r : results.rows) {
    std::vector<std::string> cells = {std::to_string(r.point)};
    for (const std::string& value : r.values) cells.push_back(Shortened(value));
    for (std::string cell :
         {r.variant, r.makespan_s ? FormatFixed(*r.makespan_s, 1) : "-", FormatFixed(r.p95_s, 1),
          FormatFixed(r.gpu_allocation_ratio, 3), FormatFixed(r.gpu_compute_utilization, 3),
          std::to_string(r.completed), std::to_string(r.failed), std::to_string(r.pending),
          FormatFixed(r.cost_per_hour, 2)}) {
      cells.push_back(std::move(cell));
    }
    if (disruptions) {
      cells.push_back(std::to_string(r.preemptions));
      cells.push_back(std::to_string(r.faults));
      cells.push_back(FormatFixed(r.gpu_hours_lost_to_preemption + r.gpu_hours_lost_to_faults, 2));
      cells.push_back(r.goodput ? FormatFixed(*r.goodput, 3) : "-");
    }
    if (never_bound) {
      cells.push_back(std::to_string(r.never_bound));
      cells.push_back(FormatFixed(r.longest_wait_s, 1));
    }
    cells.push_back(FormatFixed(r.energy_kwh, 3));
    cells.push_back(FormatFixed(r.energy_cost, 2));
    cells.push_back(FormatFixed(r.co2_kg, 2));
    for (size_t c = 0; c < columns.size(); ++c) columns[c].cells.push_back(std::move(cells[c]));
  }
  return columns;
}

// The columns side by side, text left-aligned and numbers right-aligned.
std::string Layout(const std::vector<Column>& columns) {
  std::vector<size_t> widths;
  for (const Column& column : columns) {
    size_t width = column.title.size();
    for (const std::string& cell : column.cells) width = std::max(width, TerminalColumns(cell));
    widths.push_back(width);
  }
  auto line = [&](auto text_of) {
    std::string out;
    for (size_t c = 0; c < columns.size(); ++c) {
      const std::string text = text_of(c);
      const std::string pad(widths[c] - TerminalColumns(text), ' ');
      if (c > 0) out += "  ";
      out += columns[c].left_aligned ? text + pad : pad + text;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line([&](size_t c) { return columns[c].title; });
  const size_t rows = columns.empty() ? 0 : columns[0].cells.size();
  for (size_t r = 0; r < rows; ++r) out += line([&](size_t c) { return columns[c].cells[r]; });
  return out;
}

// The metrics the interval table shows, as (CSV column, decimals): the run table's headline
// figures, the disruption ones when a run had any, JCT when a job completed.
std::vector<std::pair<std::string_view, int>> IntervalMetrics(const SweepResults& results) {
  std::vector<std::pair<std::string_view, int>> metrics = {
      {"makespan_s", 1}, {"p95_s", 1}, {"gpu_allocation_ratio", 3}, {"completed", 1}};
  if (AnyDisruption(results)) {
    metrics.insert(metrics.end(), {{"faults", 2}, {"gpu_hours_lost_to_faults", 2}, {"goodput", 4}});
  }
  const bool jobs = std::any_of(results.rows.begin(), results.rows.end(),
                                [](const SweepRow& r) { return r.jct_mean_s.has_value(); });
  if (jobs) metrics.push_back({"jct_mean_s", 1});
  metrics.push_back({"energy_kwh", 3});
  return metrics;
}

// Mean ±95 % interval over the seeds of each other-axis value and variant.
std::string FormatIntervalTable(const SweepResults& results) {
  const size_t seed = *SeedColumn(results);
  const std::vector<SweepSeedGroup> groups = GroupBySeed(results);
  const std::vector<std::string> titles = Titles(results.columns);
  std::vector<Column> columns;
  for (size_t c = 0; c < titles.size(); ++c) {
    if (c != seed) columns.push_back({titles[c], true, {}});
  }
  columns.push_back({"variant", true, {}});
  columns.push_back({"seeds", false, {}});
  const auto metrics = IntervalMetrics(results);
  for (const auto& [name, decimals] : metrics) {
    columns.push_back({std::string(FindSweepMetric(name)->title), false, {}});
  }
  for (const SweepSeedGroup& g : groups) {
    std::vector<std::string> cells;
    for (size_t c = 0; c < g.values.size(); ++c) {
      if (c != seed) cells.push_back(Shortened(g.values[c]));
    }
    cells.push_back(g.variant);
    cells.push_back(std::to_string(g.rows.size()));
    for (const auto& [name, decimals] : metrics) {
      const SeedInterval i = GroupInterval(g, *FindSweepMetric(name));
      cells.push_back(i.n == 0 ? "-" : FormatSeedInterval(i, decimals));
    }
    for (size_t c = 0; c < columns.size(); ++c) columns[c].cells.push_back(std::move(cells[c]));
  }
  return "\nmean \u00b1 95 % confidence interval over the seeds (Student's t, n - 1 degrees "
         "of freedom):\n" +
         Layout(columns);
}

}  // namespace

std::vector<std::string> SweepColumnTitles(const std::vector<std::string>& pointers) {
  return Titles(pointers);
}

std::string FormatSweepTable(const SweepResults& results) {
  std::string out = Layout(BuildColumns(results));
  const bool unfinished = std::any_of(results.rows.begin(), results.rows.end(),
                                      [](const auto& r) { return r.running + r.pending > 0; });
  if (unfinished) {
    out += "(pods running or pending at the end of a run are not in its makespan)\n";
  }
  if (HasSeedIntervals(results)) {
    out += FormatIntervalTable(results);
  }
  return out;
}

}  // namespace migsim
