#pragma once
// Sections of the HTML report (html_report.cc), each shown only where it has something to
// say: faults, autoscaling, energy, and Kueue's queues and the namespaces over time.

#include <string>
#include <utility>
#include <vector>

#include "sim/report/run_report.h"
#include "sim/report/svg_chart.h"

namespace migsim {

inline constexpr int kReportChartWidth = 660;
inline constexpr int kReportChartHeight = 320;

// A step series of (time, value) as chart points in `unit`, held to the end of the run.
std::vector<svg::Point> TimePoints(const std::vector<std::pair<SimTime, double>>& series,
                                   double end_s, const svg::TimeUnit& unit);

// With faults that hit: each pool's availability over time per variant and the faults and
// repairs listed; "" when no variant had a fault. (html_sections.cc)
std::string FaultSection(const RunReport& report, const svg::TimeUnit& unit);
// With node groups: each group's nodes billed over time and the cost table.
std::string AutoscalingSection(const RunReport& report, const svg::TimeUnit& unit);
// Every run: where the energy went, what it cost and emitted (README "Energy").
std::string EnergySection(const RunReport& report);

// With Kueue: per ClusterQueue, the pods waiting for admission, the workloads admitted and
// the GPU quota they hold over time; with several namespaces, per namespace the pods
// pending (and waiting for admission) and the GPUs its pods hold. (html_queues.cc)
std::string QueueSections(const RunReport& report, const svg::TimeUnit& unit);

}  // namespace migsim
