#include "sim/report/plan_study_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "sim/report/csv_table.h"
#include "sim/report/seed_interval.h"
#include "sim/report/study_page.h"
#include "sim/report/svg_chart.h"
#include "sim/report/svg_interval_chart.h"

namespace migsim {
namespace {

constexpr int kChartWidth = 660, kChartHeight = 320;

std::string Short(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// An evidence row's value of a metric; NaN when the row has none (no makespan).
using RowValue = std::function<Result<double>(const CsvTable&, size_t, const std::string&)>;

RowValue Column(const std::string& column) {
  return [column](const CsvTable& t, size_t r, const std::string& path) {
    return CsvNumber(t, r, column, path, /*empty_ok=*/true);
  };
}

// completed / (submitted - deleted), 1 when nothing is left to count (slo.h).
Result<double> CompletedFraction(const CsvTable& t, size_t r, const std::string& path) {
  double v[3];
  const char* columns[] = {"pods_completed", "pods_submitted", "pods_deleted"};
  for (size_t i = 0; i < 3; ++i) {
    Result<double> x = CsvNumber(t, r, columns[i], path);
    if (!x.ok()) return x.status();
    v[i] = x.value();
  }
  return v[1] - v[2] > 0 ? v[0] / (v[1] - v[2]) : 1.0;
}

struct Objective {
  const char* name;
  const char* title;
  RowValue value;
};

const std::vector<Objective>& Objectives() {
  static const std::vector<Objective> objectives = {
      {"p95_queueing_latency_s", "p95 queueing latency (s)", Column("queueing_p95_s")},
      {"max_pending", "pods pending at the end", Column("pods_pending")},
      {"makespan_s", "makespan (s)", Column("makespan_s")},
      {"min_completed_fraction", "completed fraction", CompletedFraction},
      {"max_wait_s", "longest wait (s)", Column("longest_wait_s")},
      {"max_unserved", "pods never bound", Column("pods_never_bound")},
      {"max_pending_peak", "pods pending peak", Column("pending_peak")}};
  return objectives;
}

struct Files {
  std::string plan_path, evidence_path, objectives_path;
  CsvTable plan, evidence, objectives;
};

// One chart: per configuration, `value` against nodes over the evidence's seeds.
Result<std::string> Chart(const Files& f, const std::string& title, const RowValue& value,
                          std::optional<double> threshold, const std::string& threshold_label) {
  svg::IntervalChart chart(title + " against nodes", "nodes", title);
  std::vector<std::string> configurations;
  std::map<std::string, std::map<double, std::vector<double>>> samples;
  const CsvTable& e = f.evidence;
  for (size_t r = 0; r < e.rows.size(); ++r) {
    if (e.rows[r][e.Column("seed")].empty()) continue;  // the scenario did not load
    const std::string& c = e.rows[r][e.Column("configuration")];
    if (std::find(configurations.begin(), configurations.end(), c) == configurations.end()) {
      configurations.push_back(c);
    }
    Result<double> nodes = CsvNumber(e, r, "nodes", f.evidence_path);
    if (!nodes.ok()) return nodes.status();
    Result<double> v = value(e, r, f.evidence_path);
    if (!v.ok()) return v.status();
    std::vector<double>& at = samples[c][nodes.value()];
    if (!std::isnan(v.value())) at.push_back(v.value());
  }
  for (const std::string& c : configurations) {
    std::vector<svg::IntervalPoint> points;
    for (const auto& [nodes, values] : samples[c]) {
      const SeedInterval i = ComputeSeedInterval(values);
      if (i.n > 0) points.push_back({nodes, i.mean, i.low(), i.high()});
    }
    chart.AddSeries(c, std::move(points));
  }
  if (threshold) chart.AddThreshold(threshold_label, *threshold);
  // The recommendation: plan.csv's first row, when it found a size.
  const CsvTable& p = f.plan;
  if (!p.rows.empty() && !p.rows[0][p.Column("nodes")].empty()) {
    Result<double> nodes = CsvNumber(p, 0, "nodes", f.plan_path);
    if (!nodes.ok()) return nodes.status();
    const auto& at = samples[p.rows[0][0]];
    if (auto it = at.find(nodes.value()); it != at.end() && !it->second.empty()) {
      chart.AddMark("recommended: " + p.rows[0][0], nodes.value(),
                    ComputeSeedInterval(it->second).mean);
    }
  }
  return chart.Render(kChartWidth, kChartHeight) + "\n";
}

Result<std::string> Render(const Files& f) {
  std::string charts;
  std::vector<std::vector<std::string>> objective_rows;
  const CsvTable& o = f.objectives;
  for (size_t r = 0; r < o.rows.size(); ++r) {
    const std::string& name = o.rows[r][o.Column("objective")];
    const auto it = std::find_if(Objectives().begin(), Objectives().end(),
                                 [&](const Objective& x) { return x.name == name; });
    if (it == Objectives().end()) {
      return Status::InvalidArgument("objective: unknown objective '" + name + "'",
                                     {f.objectives_path, "line " + std::to_string(o.lines[r])});
    }
    Result<double> threshold = CsvNumber(o, r, "threshold", f.objectives_path);
    if (!threshold.ok()) return threshold.status();
    const std::string label =
        name + " " + (name.starts_with("min") ? ">= " : "<= ") + Short(threshold.value());
    Result<std::string> chart = Chart(f, it->title, it->value, threshold.value(), label);
    if (!chart.ok()) return chart.status();
    charts += chart.value();
    objective_rows.push_back({name, Short(threshold.value())});
  }
  for (const auto& [title, column] :
       {std::pair{"cost ($/h)", "cost_per_hour"}, std::pair{"energy (kWh)", "energy_kwh"}}) {
    Result<std::string> chart = Chart(f, title, Column(column), std::nullopt, "");
    if (!chart.ok()) return chart.status();
    charts += chart.value();
  }
  const CsvTable& p = f.plan;
  std::string recommendation = "recommendation: none (no configuration met the objectives)";
  if (!p.rows.empty() && !p.rows[0][p.Column("nodes")].empty()) {
    recommendation = "recommendation: " + p.rows[0][0] + " with " + p.rows[0][p.Column("nodes")] +
                     " \u00d7 " + p.rows[0][p.Column("node_type")] + " at $" +
                     p.rows[0][p.Column("cost_per_hour")] + "/h";
  }
  std::string table = HtmlTable(p.header, p.rows);
  if (!p.rows.empty() && !p.rows[0][p.Column("nodes")].empty()) {
    const size_t first = table.find("</tr>\n<tr>") + 6;  // the first data row: the recommended
    table.insert(first + 3, " class=\"best\"");
  }
  return StudyPageStart("migsim plan",
                        "drawn from plan.csv, evidence.csv and objectives.csv: lines are means "
                        "over the plan's seeds at each node count evaluated, bands their 95 % "
                        "confidence interval (Student's t, n - 1 degrees of freedom); dashed "
                        "lines are the objectives, the ring the recommendation") +
         "<p><b>" + svg::Escape(recommendation) + "</b></p>\n<h2>Objectives</h2>\n" +
         HtmlTable({"objective", "threshold"}, objective_rows) +
         "<h2>Metrics against nodes</h2>\n<div class=\"charts\">\n" + charts + "</div>\n" +
         "<h2>Plan</h2>\n" + table + StudyPageEnd();
}

}  // namespace

std::string FormatObjectivesCsv(const PlanSlo& slo) {
  std::string out = "objective,threshold\n";
  auto add = [&](const char* name, auto value) {
    if (value) out += std::string(name) + "," + Short(static_cast<double>(*value)) + "\n";
  };
  add("p95_queueing_latency_s", slo.p95_queueing_latency_s);
  add("max_pending", slo.max_pending);
  add("makespan_s", slo.makespan_s);
  add("min_completed_fraction", slo.min_completed_fraction);
  add("max_wait_s", slo.max_wait_s);
  add("max_unserved", slo.max_unserved);
  add("max_pending_peak", slo.max_pending_peak);
  return out;
}

Result<std::string> PlanReportFromFiles(
    const std::vector<std::pair<std::string, std::string>>& files, const std::string& dir) {
  Files f;
  struct Wanted {
    const char* name;
    std::string* path;
    CsvTable* table;
    std::vector<std::string> required;
  };
  const Wanted wanted[] = {
      {"plan.csv", &f.plan_path, &f.plan, {"configuration", "nodes", "node_type", "cost_per_hour"}},
      {"evidence.csv",
       &f.evidence_path,
       &f.evidence,
       {"configuration", "nodes", "seed", "cost_per_hour", "energy_kwh"}},
      {"objectives.csv", &f.objectives_path, &f.objectives, {"objective", "threshold"}}};
  for (const auto& [name, path, table, required] : wanted) {
    *path = dir.empty() ? name : dir + "/" + name;
    const auto& file_name = name;  // a lambda may not capture a structured binding (clang 14)
    auto it = std::find_if(files.begin(), files.end(),
                           [&](const auto& x) { return x.first == file_name; });
    if (it == files.end()) {
      return Status::InvalidArgument("missing: a plan's report needs it", {*path, ""});
    }
    Result<CsvTable> read = ReadCsvTable(it->second, *path, required);
    if (!read.ok()) return read.status();
    *table = std::move(read).value();
  }
  return Render(f);
}

}  // namespace migsim
