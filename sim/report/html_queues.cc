// The HTML report's Kueue and namespace sections (html_sections.h): who waits and who holds
// the GPUs over time, from the run's QueueTimelines (sim/metrics/queue_timelines.h).

#include <algorithm>
#include <string>
#include <vector>

#include "sim/report/html_sections.h"

namespace migsim {
namespace {

using Pick = const StepPoints& (*)(const QueueTimeline&);
using Groups = const std::vector<QueueTimeline>& (*)(const QueueTimelines&);

bool Flat(const StepPoints& series) {
  return std::all_of(series.begin(), series.end(), [](const auto& p) { return p.second == 0; });
}

// One chart of a quantity for every (variant, queue or namespace) where it ever moved.
std::string GroupChart(const RunReport& report, Groups groups, Pick pick, std::string title,
                       std::string y_label, const svg::TimeUnit& unit) {
  svg::LineChart chart(std::move(title), unit.axis_label, std::move(y_label));
  for (const VariantResult& v : report.variants) {
    if (!v.queues) continue;
    for (const QueueTimeline& t : groups(*v.queues)) {
      if (Flat(pick(t))) continue;
      chart.AddSeries(v.name + " " + t.name, TimePoints(pick(t), v.metrics.end_s, unit),
                      /*step=*/true);
    }
  }
  return chart.Render(kReportChartWidth, kReportChartHeight) + "\n";
}

const StepPoints& Waiting(const QueueTimeline& t) { return t.waiting; }
const StepPoints& Admitted(const QueueTimeline& t) { return t.admitted; }
const StepPoints& Usage(const QueueTimeline& t) { return t.usage; }
const StepPoints& Pending(const QueueTimeline& t) { return t.pending; }
const std::vector<QueueTimeline>& Queues(const QueueTimelines& q) { return q.cluster_queues; }
const std::vector<QueueTimeline>& Namespaces(const QueueTimelines& q) { return q.namespaces; }

}  // namespace

std::string QueueSections(const RunReport& report, const svg::TimeUnit& unit) {
  const bool kueue = std::any_of(report.variants.begin(), report.variants.end(), [](const auto& v) {
    return v.queues && !v.queues->cluster_queues.empty();
  });
  const bool tenants =
      std::any_of(report.variants.begin(), report.variants.end(),
                  [](const auto& v) { return v.queues && v.queues->namespaces.size() > 1; });
  std::string out;
  if (kueue) {
    out +=
        "<h2>Kueue ClusterQueues over time</h2>\n<p class=\"note\">Pods of the workloads "
        "queued and not admitted (their Jobs are suspended: the scheduler's pending pods "
        "do not hold them), workloads admitted, and the nvidia.com/gpu quota the admitted "
        "workloads hold.</p>\n<div class=\"charts\">\n";
    out += GroupChart(report, Queues, Waiting, "Pods waiting for admission per ClusterQueue",
                      "pods", unit);
    out += GroupChart(report, Queues, Admitted, "Workloads admitted per ClusterQueue", "workloads",
                      unit);
    out += GroupChart(report, Queues, Usage, "GPU quota in use per ClusterQueue", "GPUs", unit);
    out += "</div>\n";
  }
  if (tenants) {
    out +=
        "<h2>Namespaces over time</h2>\n<p class=\"note\">Per namespace (tenant): its pods "
        "pending in the scheduler" +
        std::string(kueue ? ", its pods waiting for Kueue's admission" : "") +
        ", and the GPUs its bound pods hold (a MIG device or a shared GPU counts its "
        "share). Namespaces where nothing happened are left out.</p>\n<div class=\"charts\">\n";
    out += GroupChart(report, Namespaces, Pending, "Pods pending per namespace", "pods", unit);
    if (kueue) {
      out += GroupChart(report, Namespaces, Waiting, "Pods waiting for admission per namespace",
                        "pods", unit);
    }
    out += GroupChart(report, Namespaces, Usage, "GPUs held per namespace", "GPUs", unit);
    out += "</div>\n";
  }
  return out;
}

}  // namespace migsim
