#include "sim/report/openb_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "sim/core/text.h"
#include "sim/report/fill_results.h"
#include "sim/report/seed_interval.h"

namespace migsim {
namespace {

// printf into `out`; the tables are fixed-width columns, which printf states best.
[[gnu::format(printf, 2, 3)]] void Appendf(std::string* out, const char* format, ...) {
  va_list args;
  va_start(args, format);
  char buf[512];
  const int n = std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out->append(buf, static_cast<size_t>(n));
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  va_start(args, format);
  std::vsnprintf(big.data(), big.size(), format, args);
  va_end(args);
  out->append(big.data(), static_cast<size_t>(n));
}

std::vector<std::string> Traces(const std::vector<FillRun>& runs) {
  std::vector<std::string> traces;
  for (const FillRun& r : runs) {
    if (std::find(traces.begin(), traces.end(), r.workload) == traces.end())
      traces.push_back(r.workload);
  }
  return traces;
}

// Calls fn(trace, policy, runs of that pair) for each pair, in trace then policy order.
template <typename Fn>
void ForEachGroup(const std::vector<FillRun>& runs, const std::vector<std::string>& policies,
                  Fn fn) {
  for (const std::string& trace : Traces(runs)) {
    for (const std::string& policy : policies) {
      std::vector<const FillRun*> group;
      for (const FillRun& r : runs) {
        if (r.workload == trace && r.config.policy == policy) group.push_back(&r);
      }
      fn(trace, policy, group);
    }
  }
}

// The final-state columns of one run: cpu %, mem %, GPUs, mGPU %, frag %, then q1..xr.
std::vector<double> FinalStateValues(const FillRun& r) {
  const FillFinalState& f = r.result.final_state;
  const double idle = f.idle.idle() > 0 ? f.idle.idle() : 1;
  return {100.0 * static_cast<double>(f.cpu_milli_used) / static_cast<double>(f.cpu_milli_total),
          100.0 * static_cast<double>(f.memory_mib_used) / static_cast<double>(f.memory_mib_total),
          static_cast<double>(f.gpus_allocated),
          100.0 * static_cast<double>(f.milli_gpu_used) /
              (1000.0 * static_cast<double>(r.result.total_gpus)),
          100 * f.idle.fragment() / idle,
          100 * f.idle.q1 / idle,
          100 * f.idle.q2 / idle,
          100 * f.idle.q3 / idle,
          100 * f.idle.q4 / idle,
          100 * f.idle.xl / idle,
          100 * f.idle.xr / idle};
}

}  // namespace

MeanSd ComputeMeanSd(const std::vector<double>& v) {
  MeanSd m;
  for (double x : v) std::isnan(x) ? ++m.missing : ++m.n;
  if (m.n == 0) return m;
  for (double x : v) m.mean += std::isnan(x) ? 0 : x / static_cast<double>(m.n);
  double var = 0;
  for (double x : v) var += std::isnan(x) ? 0 : (x - m.mean) * (x - m.mean);
  m.sd = m.n > 1 ? std::sqrt(var / static_cast<double>(m.n - 1)) : 0;
  return m;
}

double HalfWidth95(const MeanSd& m) {
  return m.n == 0 ? 0 : StudentT975(m.n - 1) * m.sd / std::sqrt(static_cast<double>(m.n));
}

std::string FormatMeanInterval(const MeanSd& m) {
  if (m.n == 0) return "n/a";
  std::string out;
  Appendf(&out, "%.2f \u00b1%.2f", m.mean, HalfWidth95(m));
  if (m.missing == 0) return out;
  return out + " (" + std::to_string(m.n) + "/" + std::to_string(m.n + m.missing) + ")";
}

// `cell` right-aligned in `width` terminal columns: printf's widths count bytes, and "±"
// takes two bytes for one column.
std::string RightAligned(const std::string& cell, size_t width) {
  const size_t columns = TerminalColumns(cell);
  return std::string(width > columns ? width - columns : 0, ' ') + cell;
}

namespace {

std::string FormatMeanOf(const MeanSd& m) {
  if (m.n == 0) return "n/a";
  std::string out;
  Appendf(&out, "%.2f", m.mean);
  return out;
}

}  // namespace

std::string FormatMean(const std::vector<double>& v) { return FormatMeanOf(ComputeMeanSd(v)); }

std::vector<FillSummaryRow> FillSummaryRows(const std::vector<FillRun>& runs,
                                            const std::vector<std::string>& policies) {
  std::vector<FillSummaryRow> rows;
  ForEachGroup(runs, policies,
               [&](const std::string& trace, const std::string& policy,
                   const std::vector<const FillRun*>& group) {
                 std::vector<double> a100, a130, failed;
                 for (const FillRun* r : group) {
                   const FillCurves c = BinFill(r->result);
                   a100.push_back(c.alloc[100]);
                   a130.push_back(c.alloc[130]);
                   failed.push_back(static_cast<double>(r->result.pods_failed));
                 }
                 rows.push_back({policy, trace, a100.size(), ComputeMeanSd(a100),
                                 ComputeMeanSd(a130), ComputeMeanSd(failed)});
               });
  return rows;
}

std::vector<FinalStateRow> FinalStateRows(const std::vector<FillRun>& runs,
                                          const std::vector<std::string>& policies) {
  std::vector<FinalStateRow> rows;
  ForEachGroup(runs, policies,
               [&](const std::string& trace, const std::string& policy,
                   const std::vector<const FillRun*>& group) {
                 std::vector<std::vector<double>> cols(kFinalStateColumns.size());
                 for (const FillRun* r : group) {
                   const std::vector<double> values = FinalStateValues(*r);
                   for (size_t i = 0; i < cols.size(); ++i) cols[i].push_back(values[i]);
                 }
                 FinalStateRow row{policy, trace, {}};
                 for (size_t i = 0; i < cols.size(); ++i) row.means[i] = ComputeMeanSd(cols[i]).mean;
                 rows.push_back(std::move(row));
               });
  return rows;
}

std::vector<MigSummaryRow> MigSummaryRows(const std::vector<MigFillRun>& runs) {
  std::vector<MigSummaryRow> rows;
  for (size_t i = 0; i < runs.size();) {
    size_t j = i;
    std::vector<double> placed100, placed130, slices130, frag100;
    while (j < runs.size() && runs[j].variant == runs[i].variant &&
           runs[j].workload == runs[i].workload) {
      const MigCurves c = BinMigFill(runs[j].result);
      placed100.push_back(c.placed[100]), placed130.push_back(c.placed[130]);
      slices130.push_back(c.slices[130]), frag100.push_back(c.frag[100]);
      ++j;
    }
    rows.push_back({runs[i].variant, runs[i].workload, ComputeMeanSd(placed100),
                    ComputeMeanSd(placed130), ComputeMeanSd(slices130), ComputeMeanSd(frag100)});
    i = j;
  }
  return rows;
}

size_t MigSummaryNodes(const std::vector<MigFillRun>& runs) {
  return runs.empty() ? size_t{0} : static_cast<size_t>(runs[0].result.gpus / 8);
}

std::string FormatFillSummary(const std::vector<FillRun>& runs,
                              const std::vector<std::string>& policies) {
  std::string out;
  Appendf(&out, "%-16s %-26s %6s %22s %22s %16s\n", "policy", "trace", "seeds", "alloc % at 100 %",
          "alloc % at 130 %", "failed pods");
  for (const FillSummaryRow& row : FillSummaryRows(runs, policies)) {
    Appendf(&out, "%-16s %-26s %6zu %s %s %s\n", row.policy.c_str(), row.trace.c_str(), row.seeds,
            RightAligned(FormatMeanInterval(row.alloc_100), 22).c_str(),
            RightAligned(FormatMeanInterval(row.alloc_130), 22).c_str(),
            RightAligned(FormatMeanInterval(row.failed_pods), 16).c_str());
  }
  return out +
         "(mean \u00b1 95 % confidence interval over the seeds: Student's t, n - 1 degrees "
         "of freedom)\n";
}

std::string FormatFinalStateSummary(const std::vector<FillRun>& runs,
                                    const std::vector<std::string>& policies) {
  std::string out =
      "\nEnd of run (mean over seeds; q1..xr split the idle milli-GPU, openb-protocol.md "
      "\u00a75.2)\n";
  Appendf(&out, "%-16s %-26s %7s %7s %7s %9s %7s %6s %6s %6s %6s %6s %6s\n", "policy", "trace",
          "cpu %", "mem %", "GPUs", "mGPU %", "frag %", "q1", "q2", "q3", "q4", "xl", "xr");
  for (const FinalStateRow& row : FinalStateRows(runs, policies)) {
    const auto& mean = row.means;
    Appendf(&out, "%-16s %-26s %7.2f %7.2f %7.1f %9.2f %7.2f", row.policy.c_str(),
            row.trace.c_str(), mean[0], mean[1], mean[2], mean[3], mean[4]);
    for (size_t i = 5; i < mean.size(); ++i) Appendf(&out, " %6.2f", mean[i]);
    out += "\n";
  }
  return out;
}

std::string FormatMigSummary(const std::vector<MigFillRun>& runs) {
  std::string out;
  Appendf(&out, "\nMIG edition: %zu p4d.24xlarge nodes (A100-40GB); GPU requests as MIG profiles\n",
          MigSummaryNodes(runs));
  Appendf(&out, "%-26s %-24s %16s %16s %16s %16s\n", "variant", "trace", "placed % @100",
          "placed % @130", "slices % @130", "MIG frag % @100");
  for (const MigSummaryRow& row : MigSummaryRows(runs)) {
    Appendf(&out, "%-26s %-24s %16s %16s %16s %16s\n", row.variant.c_str(), row.trace.c_str(),
            FormatMeanOf(row.placed_100).c_str(), FormatMeanOf(row.placed_130).c_str(),
            FormatMeanOf(row.slices_130).c_str(), FormatMeanOf(row.frag_100).c_str());
  }
  return out;
}

}  // namespace migsim
