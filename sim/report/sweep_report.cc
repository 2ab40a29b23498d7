#include "sim/report/sweep_report.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "sim/core/text.h"
#include "sim/report/csv_table.h"
#include "sim/report/study_page.h"
#include "sim/report/svg_chart.h"
#include "sim/report/svg_interval_chart.h"
#include "sim/report/sweep_csv.h"
#include "sim/report/sweep_seed_groups.h"
#include "sim/report/sweep_table.h"

namespace migsim {
namespace {

constexpr int kChartWidth = 660, kChartHeight = 320;

// A JSON string value shown without its quotes; other values as written.
std::string Display(const std::string& value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    return value.substr(1, value.size() - 2);
  }
  return value.empty() ? "(unset)" : value;
}

// The metrics worth a chart: present in some run and not the same in all.
std::vector<const SweepMetric*> VaryingMetrics(const SweepResults& results) {
  std::vector<const SweepMetric*> out;
  for (const SweepMetric& m : SweepMetrics()) {
    std::optional<double> first;
    bool varies = false;
    for (const SweepRow& row : results.rows) {
      const std::optional<double> v = m.Value(row);
      if (!v) continue;
      if (!first) first = v;
      varies = varies || *v != *first;
    }
    if (varies) out.push_back(&m);
  }
  return out;
}

// The columns the sweep varies, the seed axis aside.
std::vector<size_t> Axes(const SweepResults& results) {
  const std::optional<size_t> seed = SeedColumn(results);
  std::vector<size_t> axes;
  for (size_t c = 0; c < results.columns.size(); ++c) {
    if (c == seed) continue;
    const bool varies = std::any_of(results.rows.begin(), results.rows.end(), [&](const auto& r) {
      return r.values[c] != results.rows.front().values[c];
    });
    if (varies) axes.push_back(c);
  }
  return axes;
}

svg::IntervalPoint PointOf(double x, const SeedInterval& i) {
  return {x, i.mean, i.low(), i.high()};
}

// A chart per metric of `axis`: one line per value of the other axes and variant.
std::string AxisSection(const SweepResults& results, const std::vector<SweepSeedGroup>& groups,
                        size_t axis, const std::vector<std::string>& titles,
                        const std::vector<const SweepMetric*>& metrics) {
  std::vector<std::string> xs;  // the axis values, in the order of their first rows
  for (const SweepSeedGroup& g : groups) {
    if (std::find(xs.begin(), xs.end(), g.values[axis]) == xs.end()) xs.push_back(g.values[axis]);
  }
  const bool numeric = std::all_of(xs.begin(), xs.end(),
                                   [](const auto& x) { return ParseCsvNumber(x).has_value(); });
  if (numeric) {
    std::sort(xs.begin(), xs.end(),
              [](const auto& a, const auto& b) { return *ParseCsvNumber(a) < *ParseCsvNumber(b); });
  }
  auto x_of = [&](const std::string& v) {
    return numeric ? *ParseCsvNumber(v)
                   : static_cast<double>(std::find(xs.begin(), xs.end(), v) - xs.begin());
  };
  // Series: the other axes' values and the variant, in the order of their first groups.
  std::vector<std::string> names;
  std::map<std::string, std::vector<const SweepSeedGroup*>> members;
  for (const SweepSeedGroup& g : groups) {
    std::string name = g.variant;
    for (size_t c : Axes(results)) {
      if (c != axis) name += ", " + titles[c] + "=" + Display(g.values[c]);
    }
    if (!members.count(name)) names.push_back(name);
    members[name].push_back(&g);
  }
  std::string out = "<h2>Against " + svg::Escape(titles[axis]) + "</h2>\n<div class=\"charts\">\n";
  for (const SweepMetric* m : metrics) {
    svg::IntervalChart chart(std::string(m->title) + " by " + titles[axis], titles[axis],
                             std::string(m->title));
    if (!numeric) {
      std::vector<std::string> labels;
      for (const std::string& x : xs) labels.push_back(Display(x));
      chart.SetCategories(labels);
    }
    for (const std::string& name : names) {
      std::vector<svg::IntervalPoint> points;
      for (const SweepSeedGroup* g : members[name]) {
        const SeedInterval i = GroupInterval(*g, *m);
        if (i.n > 0) points.push_back(PointOf(x_of(g->values[axis]), i));
      }
      std::sort(points.begin(), points.end(),
                [](const auto& a, const auto& b) { return a.x < b.x; });
      chart.AddSeries(name, std::move(points));
    }
    out += chart.Render(kChartWidth, kChartHeight) + "\n";
  }
  return out + "</div>\n";
}

// Without an axis besides the seed: each metric by variant.
std::string VariantSection(const std::vector<SweepSeedGroup>& groups,
                           const std::vector<const SweepMetric*>& metrics) {
  std::string out = "<h2>By variant</h2>\n<div class=\"charts\">\n";
  std::vector<std::string> labels;
  for (const SweepSeedGroup& g : groups) labels.push_back(g.variant);
  for (const SweepMetric* m : metrics) {
    svg::IntervalChart chart(std::string(m->title) + " by variant", "variant",
                             std::string(m->title));
    chart.SetCategories(labels);
    std::vector<svg::IntervalPoint> points;
    for (size_t k = 0; k < groups.size(); ++k) {
      const SeedInterval i = GroupInterval(groups[k], *m);
      if (i.n > 0) points.push_back(PointOf(static_cast<double>(k), i));
    }
    chart.AddSeries("mean over the seeds", std::move(points));
    out += chart.Render(kChartWidth, kChartHeight) + "\n";
  }
  return out + "</div>\n";
}

std::string Cell(const std::optional<double>& v) { return v ? FormatFixed(*v, 3) : "-"; }

std::string Tables(const SweepResults& results, const std::vector<SweepSeedGroup>& groups,
                   const std::vector<std::string>& titles,
                   const std::vector<const SweepMetric*>& metrics) {
  const std::optional<size_t> seed = SeedColumn(results);
  std::string out;
  std::vector<std::string> header;
  if (seed && results.rows.size() > groups.size()) {
    for (size_t c = 0; c < titles.size(); ++c) {
      if (c != seed) header.push_back(titles[c]);
    }
    header.insert(header.end(), {"variant", "seeds"});
    for (const SweepMetric* m : metrics) header.push_back(std::string(m->title));
    std::vector<std::vector<std::string>> rows;
    for (const SweepSeedGroup& g : groups) {
      std::vector<std::string> row;
      for (size_t c = 0; c < g.values.size(); ++c) {
        if (c != seed) row.push_back(Display(g.values[c]));
      }
      row.insert(row.end(), {g.variant, std::to_string(g.rows.size())});
      for (const SweepMetric* m : metrics) {
        const SeedInterval i = GroupInterval(g, *m);
        row.push_back(i.n == 0 ? "-" : FormatSeedInterval(i, 3));
      }
      rows.push_back(std::move(row));
    }
    out +=
        "<h2>Means over the seeds</h2>\n<p class=\"note\">mean \u00b1 half-width of the 95 % "
        "confidence interval (Student's t, n - 1 degrees of freedom)</p>\n" +
        HtmlTable(header, rows);
  }
  header = {"point"};
  header.insert(header.end(), titles.begin(), titles.end());
  header.push_back("variant");
  for (const SweepMetric* m : metrics) header.push_back(std::string(m->title));
  std::vector<std::vector<std::string>> rows;
  for (const SweepRow& r : results.rows) {
    std::vector<std::string> row = {std::to_string(r.point)};
    for (const std::string& v : r.values) row.push_back(Display(v));
    row.push_back(r.variant);
    for (const SweepMetric* m : metrics) row.push_back(Cell(m->Value(r)));
    rows.push_back(std::move(row));
  }
  return out + "<h2>Runs</h2>\n" + HtmlTable(header, rows);
}

}  // namespace

Result<std::string> SweepReportHtml(std::string_view csv, const std::string& path) {
  Result<SweepCsv> parsed = ParseSweepCsv(csv, path);
  if (!parsed.ok()) return parsed.status();
  const SweepResults& results = parsed.value().results;
  const std::vector<SweepSeedGroup> groups = GroupBySeed(results);
  const std::vector<std::string> titles = SweepColumnTitles(results.columns);
  const std::vector<const SweepMetric*> metrics = VaryingMetrics(results);
  const bool seeds = SeedColumn(results) && results.rows.size() > groups.size();
  std::string note = "drawn from sweep.csv: " + std::to_string(results.rows.size()) + " runs";
  if (seeds) {
    size_t lo = results.rows.size(), hi = 0;
    for (const SweepSeedGroup& g : groups)
      lo = std::min(lo, g.rows.size()), hi = std::max(hi, g.rows.size());
    note += ", " +
            (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
            " seeds each: lines are means over the seeds, bands their 95 % confidence interval "
            "(Student's t, n - 1 degrees of freedom)";
  }
  note += "; metrics that are the same in every run are not drawn";
  std::string out = StudyPageStart("migsim sweep", note);
  const std::vector<size_t> axes = Axes(results);
  if (axes.empty()) out += VariantSection(groups, metrics);
  for (size_t axis : axes) out += AxisSection(results, groups, axis, titles, metrics);
  return out + Tables(results, groups, titles, metrics) + StudyPageEnd();
}

}  // namespace migsim
