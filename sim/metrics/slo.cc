#include "sim/metrics/slo.h"

#include <cstdio>

namespace migsim {
namespace {

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void Add(std::string* out, const std::string& miss) {
  if (!out->empty()) *out += "; ";
  *out += miss;
}

}  // namespace

std::string SloMisses(const PlanSlo& slo, const RunMetrics& m) {
  std::string out;
  if (slo.p95_queueing_latency_s && m.queueing.p95_s > *slo.p95_queueing_latency_s) {
    Add(&out, "p95 queueing latency " + Number(m.queueing.p95_s) + " s > " +
                  Number(*slo.p95_queueing_latency_s) + " s");
  }
  if (slo.max_pending && m.pods.pending > *slo.max_pending) {
    Add(&out, std::to_string(m.pods.pending) + (m.pods.pending == 1 ? " pod" : " pods") +
                  " pending > " + std::to_string(*slo.max_pending));
  }
  if (slo.makespan_s) {
    if (!m.makespan_s) {
      Add(&out, "no pod completed (no makespan)");
    } else if (*m.makespan_s > *slo.makespan_s) {
      Add(&out, "makespan " + Number(*m.makespan_s) + " s > " + Number(*slo.makespan_s) + " s");
    }
  }
  const int64_t counted = m.pods.submitted - m.pods.deleted;
  if (slo.min_completed_fraction && counted > 0) {
    const double fraction = static_cast<double>(m.pods.completed) / static_cast<double>(counted);
    if (fraction < *slo.min_completed_fraction) {
      Add(&out, "completed " + std::to_string(m.pods.completed) + " of " +
                    std::to_string(counted) + " pods (" + Number(fraction) + " < " +
                    Number(*slo.min_completed_fraction) + ")");
    }
  }
  return out;
}

}  // namespace migsim
