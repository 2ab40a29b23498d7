// The HTML report's faults, autoscaling and energy sections (html_sections.h).

#include "sim/report/html_sections.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/text.h"

namespace migsim {

std::vector<svg::Point> TimePoints(const std::vector<std::pair<SimTime, double>>& series,
                                   double end_s, const svg::TimeUnit& unit) {
  std::vector<svg::Point> points;
  for (const auto& [at, value] : series) points.push_back({at.seconds() / unit.seconds, value});
  if (!points.empty() && end_s / unit.seconds > points.back().x) {
    points.push_back({end_s / unit.seconds, points.back().y});
  }
  return points;
}

namespace {

bool HadFaults(const VariantResult& v) {
  return v.faults && (v.faults->faults > 0 || !v.faults->events.empty());
}

std::string FaultRows(const VariantResult& v) {
  std::string rows;
  for (const FaultEventRecord& e : v.faults->events) {
    rows += "<tr><td>" + svg::Escape(v.name) + "</td><td>" +
            svg::Escape(std::to_string(e.at.seconds())) + "</td><td>" +
            (e.repaired ? "repaired " : "") + svg::Escape(e.kind) + "</td><td>" +
            svg::Escape(e.node) + (e.gpu >= 0 ? "/gpu" + std::to_string(e.gpu) : "") +
            "</td></tr>\n";
  }
  return rows;
}

}  // namespace

// Each pool's availability (README "The table": of its provisioned GPUs) over time per
// variant — its steps are the faults and repairs — and the faults themselves, listed.
std::string FaultSection(const RunReport& report, const svg::TimeUnit& unit) {
  if (std::none_of(report.variants.begin(), report.variants.end(), HadFaults)) return "";
  svg::LineChart chart("GPU availability over time (faults)", unit.axis_label,
                       "healthy, schedulable GPUs / provisioned GPUs");
  chart.SetYRange(0, 1);
  std::string events;
  for (const VariantResult& v : report.variants) {
    if (!v.faults) continue;
    for (const PoolAvailability& a : v.faults->availability) {
      chart.AddSeries(v.name + " " + a.pool, TimePoints(a.series, v.metrics.end_s, unit),
                      /*step=*/true);
    }
    events += FaultRows(v);
  }
  std::string out = "<h2>Faults</h2>\n<div class=\"charts\">\n" +
                    chart.Render(kReportChartWidth, kReportChartHeight) + "\n</div>\n";
  if (events.empty()) return out;
  return out + "<table><tr><th>variant</th><th>time (s)</th><th>fault</th><th>node</th></tr>\n" +
         events + "</table>\n";
}

// Each group's nodes billed over time per variant, and the cost table.
std::string AutoscalingSection(const RunReport& report, const svg::TimeUnit& unit) {
  if (std::none_of(report.variants.begin(), report.variants.end(), [](const VariantResult& v) {
        return v.autoscaling.has_value() && !v.autoscaling->groups.empty();
      })) {
    return "";
  }
  svg::LineChart chart("Nodes over time (autoscaling)", unit.axis_label, "nodes billed");
  std::string rows;
  for (const VariantResult& v : report.variants) {
    if (!v.autoscaling) continue;
    for (const NodeGroupMetrics& g : v.autoscaling->groups) {
      std::vector<std::pair<SimTime, double>> billed;
      for (const auto& [at, count] : g.billed_nodes) {
        billed.emplace_back(at, static_cast<double>(count));
      }
      chart.AddSeries(v.name + " " + g.pool, TimePoints(billed, v.metrics.end_s, unit),
                      /*step=*/true);
    }
    rows += "<tr><td>" + svg::Escape(v.name) + "</td><td>" +
            svg::Escape(FormatFixed(v.autoscaling->node_hours, 2)) + "</td><td>" +
            svg::Escape(FormatFixed(v.autoscaling->cost, 2)) + "</td></tr>\n";
  }
  return "<h2>Autoscaling</h2>\n<div class=\"charts\">\n" +
         chart.Render(kReportChartWidth, kReportChartHeight) +
         "\n</div>\n<table><tr><th>variant</th><th>node-hours</th><th>cost ($)</th></tr>\n" + rows +
         "</table>\n";
}

std::string EnergySection(const RunReport& report) {
  std::string rows;
  for (const VariantResult& v : report.variants) {
    const EnergyMetrics& e = v.energy;
    rows += "<tr><td>" + svg::Escape(v.name) + "</td>";
    for (const std::string& cell :
         {FormatFixed(e.kwh, 3), FormatFixed(e.gpu_kwh, 3), FormatFixed(e.allocated_idle_kwh, 3),
          FormatFixed(e.node_kwh, 3), FormatFixed(e.mean_watts, 1), FormatFixed(e.cost, 2),
          FormatFixed(e.co2_kg, 2)}) {
      rows += "<td>" + svg::Escape(cell) + "</td>";
    }
    rows += "</tr>\n";
  }
  return "<h2>Energy</h2>\n<p class=\"note\">GPU power from each model's idle and maximum "
         "power by how busy its GPUs were; allocated-idle is the extra a GPU draws while a pod "
         "holds it without computing; nodes is the overhead of the nodes that were up.</p>\n"
         "<table><tr><th>variant</th><th>energy (kWh)</th><th>GPU (kWh)</th>"
         "<th>allocated-idle (kWh)</th><th>nodes (kWh)</th><th>mean power (W)</th>"
         "<th>cost ($)</th><th>CO2 (kg)</th></tr>\n" +
         rows + "</table>\n";
}

}  // namespace migsim
