// The notes under the summary table (summary_rows.h), for the terminal and the report.

#include <algorithm>
#include <string>

#include "sim/core/text.h"
#include "sim/report/energy_table_rows.h"
#include "sim/report/job_table_rows.h"
#include "sim/report/summary_rows.h"

namespace migsim {
namespace {

// "gangs never scheduled: DistributedJob/x (base), ..." or "".
std::string FormatNeverScheduledNote(const RunReport& report) {
  std::string names;
  for (const VariantResult& v : report.variants) {
    if (!v.gangs) continue;
    for (const std::string& owner : v.gangs->never_scheduled_owners) {
      names += (names.empty() ? "" : ", ") + owner + " (" + v.name + ")";
    }
  }
  return names.empty() ? "" : "gangs never scheduled: " + names + "\n";
}

// "queueing theory: M/M/c FIFO, Erlang C (c = 8, rho = 0.800), mean queueing latency"
// then a line per variant and class: simulated, exact, relative error.
std::string FormatTheoryNote(const RunReport& report) {
  std::string out;
  for (const VariantResult& v : report.variants) {
    for (const TheoryComparison& t : v.theory) {
      if (out.empty()) {
        out = "queueing theory: " + t.model + " (c = " + std::to_string(t.servers) +
              ", rho = " + FormatFixed(t.utilisation, 3) + "), mean queueing latency:\n";
      }
      const double error = 100 * t.relative_error();
      out += "  " + v.name + (t.klass == "all" ? "" : ", " + t.klass) + ": simulated " +
             FormatFixed(t.simulated_s, 1) + " s, exact " + FormatFixed(t.exact_s, 1) + " s (" +
             (error >= 0 ? "+" : "") + FormatFixed(error, 2) + " %)\n";
    }
  }
  return out;
}

// "(percentiles of queueing latency, JCT: from a sketch, within 0.5 %, ...)" when a
// variant's percentiles in the table came from the sketch (LatencySummary), or "".
std::string FormatSketchNote(const RunReport& report) {
  double error = 0;
  std::string what;
  const auto note = [&](const LatencyStats& s, const std::string& name) {
    if (s.relative_error <= 0) return;
    error = std::max(error, s.relative_error);
    if (what.find(name) == std::string::npos) what += (what.empty() ? "" : ", ") + name;
  };
  for (const VariantResult& v : report.variants) {
    note(v.metrics.queueing, "queueing latency");
    note(v.metrics.jobs.completion, "JCT");
    note(v.metrics.jobs.slowdown, "job slowdown");
  }
  if (what.empty()) return "";
  return "(percentiles of " + what + ": from a sketch, within " + FormatShortest(100 * error) +
         " %, past the values --exact-limit keeps exact, 1048576 by default)\n";
}

}  // namespace

std::string SummaryNotes(const RunReport& report) {
  std::string out;
  bool unfinished = AnyJobs(report.variants) &&
                    std::any_of(report.variants.begin(), report.variants.end(), [](const auto& v) {
                      return v.metrics.pods.running + v.metrics.pods.pending > 0;
                    });
  if (unfinished) {
    out += "(pods running or pending at the end of the run are not in the makespan)\n";
  }
  return out + FormatSketchNote(report) + FormatNeverScheduledNote(report) +
         FormatTheoryNote(report) + EnergyNote(report.variants);
}

}  // namespace migsim
