#include "sim/report/openb_report.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/core/text.h"
#include "sim/report/csv_table.h"
#include "sim/report/seed_interval.h"
#include "sim/report/study_page.h"
#include "sim/report/svg_chart.h"
#include "sim/report/svg_interval_chart.h"

namespace migsim {
namespace {

constexpr int kChartWidth = 660, kChartHeight = 360;
constexpr int kMaxPercent = 130;

// The runs of one trace and policy (or MIG variant), in the order of their first rows.
struct RunGroup {
  std::string trace, policy;
  std::vector<size_t> rows;
};

std::vector<RunGroup> GroupRuns(const CsvTable& t, const std::string& policy_column) {
  std::vector<RunGroup> groups;
  const size_t w = t.Column("workload"), p = t.Column(policy_column);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const RunGroup& g) {
      return g.trace == t.rows[r][w] && g.policy == t.rows[r][p];
    });
    if (it == groups.end()) {
      groups.push_back({t.rows[r][w], t.rows[r][p], {}});
      it = groups.end() - 1;
    }
    it->rows.push_back(r);
  }
  return groups;
}

std::vector<std::string> Traces(const std::vector<RunGroup>& groups) {
  std::vector<std::string> traces;
  for (const RunGroup& g : groups) {
    if (std::find(traces.begin(), traces.end(), g.trace) == traces.end()) traces.push_back(g.trace);
  }
  return traces;
}

std::vector<std::string> CurveColumns() {
  std::vector<std::string> columns = {"workload", "tune", "seed"};
  for (int x = 0; x <= kMaxPercent; ++x) columns.push_back(std::to_string(x));
  return columns;
}

// A binned curve file read: its table, and per trace a chart of the policies' means over the
// seeds at each bin, their min-max range as the band (an empty cell is a bin without
// events). The range, not the interval: with few seeds on a small trace an interval of
// percentages reaches past 0 and 100, the range never leaves the values.
Result<std::string> CurveCharts(const CsvText& file, const std::string& policy_column,
                                const std::string& what, const std::string& y_label) {
  std::vector<std::string> required = CurveColumns();
  required.push_back(policy_column);
  Result<CsvTable> table = ReadCsvTable(file.text, file.path, required);
  if (!table.ok()) return table.status();
  const CsvTable& t = table.value();
  const std::vector<RunGroup> groups = GroupRuns(t, policy_column);
  std::string out;
  for (const std::string& trace : Traces(groups)) {
    svg::IntervalChart chart(trace + ": " + what, "arrived GPU demand (% of capacity)", y_label);
    for (const RunGroup& g : groups) {
      if (g.trace != trace) continue;
      std::vector<svg::IntervalPoint> points;
      for (int x = 0; x <= kMaxPercent; ++x) {
        std::vector<double> values;
        for (size_t r : g.rows) {
          Result<double> v = CsvNumber(t, r, std::to_string(x), file.path, /*empty_ok=*/true);
          if (!v.ok()) return v.status();
          if (!std::isnan(v.value())) values.push_back(v.value());
        }
        const SeedInterval i = ComputeSeedInterval(values);
        if (i.n > 0) points.push_back({static_cast<double>(x), i.mean, i.min, i.max});
      }
      chart.AddSeries(g.policy + " (" + std::to_string(g.rows.size()) + " seeds)",
                      std::move(points));
    }
    out += chart.Render(kChartWidth, kChartHeight) + "\n";
  }
  return out;
}

// A cell "mean ±half-width" of `column` over the rows.
Result<std::string> IntervalCell(const CsvTable& t, const std::vector<size_t>& rows,
                                 const std::string& column, const std::string& path) {
  std::vector<double> values;
  for (size_t r : rows) {
    Result<double> v = CsvNumber(t, r, column, path);
    if (!v.ok()) return v.status();
    values.push_back(v.value());
  }
  return FormatSeedInterval(ComputeSeedInterval(values), 2);
}

const std::vector<std::string> kFinalColumns = {"milli_cpu_pct", "memory_pct", "gpus_allocated_pct",
                                                "milli_gpu_pct", "frag_pct_of_idle"};

// The end-of-run table, and the failed pods per run (seeds without a failed row: 0).
Result<std::string> Tables(const OpenbReportInputs& in) {
  std::vector<std::string> required = {"workload", "sc_policy", "seed"};
  required.insert(required.end(), kFinalColumns.begin(), kFinalColumns.end());
  Result<CsvTable> final_state = ReadCsvTable(in.final_state.text, in.final_state.path, required);
  if (!final_state.ok()) return final_state.status();
  Result<CsvTable> failed =
      ReadCsvTable(in.failed.text, in.failed.path, {"workload", "sc_policy", "seed", "num_pod"});
  if (!failed.ok()) return failed.status();
  const CsvTable& f = final_state.value();
  const CsvTable& p = failed.value();
  std::vector<std::vector<std::string>> rows;
  for (const RunGroup& g : GroupRuns(f, "sc_policy")) {
    std::vector<std::string> row = {g.trace, g.policy, std::to_string(g.rows.size())};
    for (const std::string& column : kFinalColumns) {
      Result<std::string> cell = IntervalCell(f, g.rows, column, in.final_state.path);
      if (!cell.ok()) return cell.status();
      row.push_back(cell.value());
    }
    std::map<std::string, double> pods;  // by seed
    for (size_t r : g.rows) pods[f.rows[r][f.Column("seed")]] = 0;
    for (size_t r = 0; r < p.rows.size(); ++r) {
      if (p.rows[r][p.Column("workload")] != g.trace ||
          p.rows[r][p.Column("sc_policy")] != g.policy) {
        continue;
      }
      Result<double> n = CsvNumber(p, r, "num_pod", in.failed.path);
      if (!n.ok()) return n.status();
      pods[p.rows[r][p.Column("seed")]] += n.value();
    }
    std::vector<double> per_seed;
    for (const auto& [seed, n] : pods) per_seed.push_back(n);
    row.push_back(FormatSeedInterval(ComputeSeedInterval(per_seed), 2));
    rows.push_back(std::move(row));
  }
  return "<h2>End of run and failed pods</h2>\n<p class=\"note\">mean \u00b1 half-width of the "
         "95 % confidence interval over the seeds (Student's t, n - 1 degrees of freedom); "
         "frag % of the idle milli-GPU; failed pods summed over each run's failed shapes</p>\n" +
         HtmlTable({"trace", "policy", "seeds", "CPU %", "memory %", "GPUs allocated %",
                    "milli-GPU %", "frag % of idle", "failed pods"},
                   rows);
}

}  // namespace

Result<std::string> OpenbReportHtml(const OpenbReportInputs& in) {
  Result<std::string> alloc =
      CurveCharts(in.alloc, "sc_policy", "GPU allocation against arrived demand",
                  "allocated GPUs (% of capacity)");
  if (!alloc.ok()) return alloc.status();
  Result<std::string> frag = CurveCharts(in.frag, "sc_policy", "GPU fragmentation",
                                         "fragmented milli-GPU (% of capacity)");
  if (!frag.ok()) return frag.status();
  Result<std::string> tables = Tables(in);
  if (!tables.ok()) return tables.status();
  std::string out = StudyPageStart(
      "migsim openb",
      "drawn from alloc_discrete.csv, frag_discrete.csv, final_state.csv and failed_pods.csv: "
      "lines are means over the seeds, bands their range (min to max); the tables give the 95 % "
      "confidence interval; the ATC'23 fill protocol (openb-protocol.md)");
  out += "<h2>Allocation against arrived demand</h2>\n<div class=\"charts\">\n" + alloc.value() +
         "</div>\n<h2>Fragmentation</h2>\n<div class=\"charts\">\n" + frag.value() + "</div>\n" +
         tables.value();
  if (in.mig_placed) {
    Result<std::string> mig = CurveCharts(*in.mig_placed, "variant", "MIG edition, placed",
                                          "placed milli-GPU (% of MIG capacity)");
    if (!mig.ok()) return mig.status();
    out += "<h2>MIG edition</h2>\n<div class=\"charts\">\n" + mig.value() + "</div>\n";
  }
  return out + StudyPageEnd();
}

Result<std::string> OpenbReportFromFiles(
    const std::vector<std::pair<std::string, std::string>>& files, const std::string& dir) {
  auto find = [&](const std::string& name) -> std::optional<CsvText> {
    for (const auto& [file, text] : files) {
      if (file == name) return CsvText{dir.empty() ? name : dir + "/" + name, text};
    }
    return std::nullopt;
  };
  OpenbReportInputs in;
  const std::pair<const char*, CsvText*> required[] = {{"alloc_discrete.csv", &in.alloc},
                                                       {"frag_discrete.csv", &in.frag},
                                                       {"final_state.csv", &in.final_state},
                                                       {"failed_pods.csv", &in.failed}};
  for (const auto& [name, slot] : required) {
    std::optional<CsvText> file = find(name);
    if (!file) {
      return Status::InvalidArgument("missing: an openb study's report needs it",
                                     {dir.empty() ? name : dir + "/" + name, ""});
    }
    *slot = std::move(*file);
  }
  in.mig_placed = find("mig_placed_discrete.csv");
  return OpenbReportHtml(in);
}

}  // namespace migsim
