#include "sim/metrics/slo.h"

#include <cstdio>
#include <vector>

#include "sim/core/text.h"
#include "sim/metrics/unserved_demand.h"

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

std::string Pods(int64_t n) { return std::to_string(n) + (n == 1 ? " pod" : " pods"); }

std::string JoinWith(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

// The names of the objectives set, as the plan file spells them.
std::vector<std::string> Named(const PlanSlo& slo) {
  std::vector<std::string> names;
  if (slo.p95_queueing_latency_s) names.emplace_back("p95_queueing_latency_s");
  if (slo.max_pending) names.emplace_back("max_pending");
  if (slo.makespan_s) names.emplace_back("makespan_s");
  if (slo.min_completed_fraction) names.emplace_back("min_completed_fraction");
  if (slo.max_wait_s) names.emplace_back("max_wait_s");
  if (slo.max_unserved) names.emplace_back("max_unserved");
  if (slo.max_pending_peak) names.emplace_back("max_pending_peak");
  return names;
}

void AddServingMisses(std::string* out, const PlanSlo& slo, const RunMetrics& m) {
  const UnservedDemand& d = m.unserved;
  if (slo.max_wait_s && d.longest_wait_s > *slo.max_wait_s) {
    Add(out, "longest wait " + Number(d.longest_wait_s) + " s > " + Number(*slo.max_wait_s) + " s");
  }
  if (slo.max_unserved && d.never_bound > *slo.max_unserved) {
    Add(out, Pods(d.never_bound) + " never bound (" + std::to_string(d.deleted_unbound) +
                 " deleted unbound, " + std::to_string(m.pods.pending) + " pending at the end) > " +
                 std::to_string(*slo.max_unserved));
  }
  if (slo.max_pending_peak && d.pending.peak > *slo.max_pending_peak) {
    Add(out, "pending peak " + std::to_string(d.pending.peak) + " > " +
                 std::to_string(*slo.max_pending_peak));
  }
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
      Add(&out, "completed " + std::to_string(m.pods.completed) + " of " + std::to_string(counted) +
                    " pods (" + Number(fraction) + " < " + Number(*slo.min_completed_fraction) +
                    ")");
    }
  }
  AddServingMisses(&out, slo, m);
  return out;
}

std::string UnjudgedDemand(const PlanSlo& slo, const RunMetrics& m) {
  const UnservedDemand& d = m.unserved;
  const bool serving = slo.max_wait_s || slo.max_unserved || slo.max_pending_peak;
  if (serving) return "";
  const bool end_judged = slo.max_pending || slo.min_completed_fraction;
  std::vector<std::string> left;
  if (d.deleted_unbound > 0) {
    left.push_back(Pods(d.deleted_unbound) + (d.deleted_unbound == 1 ? " was" : " were") +
                   " deleted without ever binding (longest wait " +
                   HumanDuration(d.deleted_unbound_wait.max_s) + ")");
  }
  if (m.pods.pending > 0 && !end_judged) {
    left.push_back(Pods(m.pods.pending) + " still pending at the end (longest wait " +
                   HumanDuration(d.longest_wait_s) + ")");
  }
  if (left.empty()) return "";
  return JoinWith(left, "; ") + "; the objectives (" + JoinNames(Named(slo)) +
         ") count only pods that bound" + (end_judged ? " or pods pending at the end" : "") +
         ": add max_wait_s or max_unserved";
}

}  // namespace migsim
