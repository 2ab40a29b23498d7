#include "sim/study/sweep/sweep_run.h"

#include <algorithm>
#include <vector>

#include "sim/study/parallel_for.h"
#include "sim/study/random_draws.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

struct Run {
  const SweepPoint* point;
  size_t variant;  // index into point->scenario.variants
};

// The run table's job, tenant, decision and autoscaling figures (SweepRow, last group).
void AddRunTableFigures(const VariantResult& result, SweepRow* row) {
  const RunMetrics& m = result.metrics;
  row->queueing_mean_s = RoundToMicro(m.queueing.mean_s);
  row->submitted = m.pods.submitted;
  row->restarts = m.pods.restarts;
  row->run_time_mean_s = RoundToMicro(m.mean_run_s);
  row->jobs_completed = m.jobs.completed;
  row->jobs_failed = m.jobs.failed;
  row->jobs_unfinished = m.jobs.unfinished;
  auto stats = [](const LatencyStats& s, std::optional<double>* mean, std::optional<double>* p50,
                  std::optional<double>* p95, std::optional<double>* p99) {
    if (s.count == 0) return;
    *mean = RoundToMicro(s.mean_s), *p50 = RoundToMicro(s.p50_s);
    *p95 = RoundToMicro(s.p95_s), *p99 = RoundToMicro(s.p99_s);
  };
  stats(m.jobs.completion, &row->jct_mean_s, &row->jct_p50_s, &row->jct_p95_s, &row->jct_p99_s);
  stats(m.jobs.slowdown, &row->slowdown_mean, &row->slowdown_p50, &row->slowdown_p95,
        &row->slowdown_p99);
  row->gpu_hours = RoundToMicro(m.gpu_hours);
  if (m.jain_index) row->jain_index = RoundToMicro(*m.jain_index);
  row->policy_decisions = result.policy_decisions;
  row->rejected_decisions = result.rejected_decisions;
  if (result.autoscaling) {
    row->node_hours = RoundToMicro(result.autoscaling->node_hours);
    row->cost_usd = RoundToMicro(result.autoscaling->cost);
  }
}

SweepRow MakeRow(const SweepPoint& point, const std::string& variant, const Scenario& scenario,
                 const VariantResult& result) {
  const RunMetrics& m = result.metrics;
  const std::optional<FaultMetrics>& faults = result.faults;
  const EnergyMetrics& energy = result.energy;
  SweepRow row;
  row.point = point.index;
  row.values = point.values;
  row.variant = variant;
  if (m.makespan_s) row.makespan_s = RoundToMicro(*m.makespan_s);
  row.p50_s = RoundToMicro(m.queueing.p50_s);
  row.p95_s = RoundToMicro(m.queueing.p95_s);
  row.p99_s = RoundToMicro(m.queueing.p99_s);
  row.max_s = RoundToMicro(m.queueing.max_s);
  row.gpu_allocation_ratio = RoundToMicro(m.gpu_allocation_ratio);
  row.gpu_compute_utilization = RoundToMicro(m.gpu_compute_utilization);
  row.completed = m.pods.completed;
  row.failed = m.pods.failed;
  row.running = m.pods.running;
  row.pending = m.pods.pending;
  row.deleted = m.pods.deleted;
  row.cost_per_hour = RoundToMicro(ClusterCostPerHour(scenario.cluster));
  row.preemptions = m.preemptions;
  row.gpu_hours_lost_to_preemption = RoundToMicro(m.gpu_hours_lost_to_preemption);
  if (faults) {
    row.faults = faults->faults;
    row.gpu_hours_lost_to_faults = RoundToMicro(faults->gpu_hours_lost);
    if (faults->goodput) row.goodput = RoundToMicro(*faults->goodput);
  }
  row.deleted_unbound = m.unserved.deleted_unbound;
  row.never_bound = m.unserved.never_bound;
  row.longest_wait_s = RoundToMicro(m.unserved.longest_wait_s);
  row.pending_peak = m.unserved.pending.peak;
  row.pending_mean = RoundToMicro(m.unserved.pending.mean);
  row.energy_kwh = RoundToMicro(energy.kwh);
  row.gpu_kwh = RoundToMicro(energy.gpu_kwh);
  row.allocated_idle_kwh = RoundToMicro(energy.allocated_idle_kwh);
  row.node_kwh = RoundToMicro(energy.node_kwh);
  row.energy_cost = RoundToMicro(energy.cost);
  row.co2_kg = RoundToMicro(energy.co2_kg);
  AddRunTableFigures(result, &row);
  return row;
}

// What a run says beside its row: why it stopped past its budget, and its policy's rejected
// decisions; each empty when there is nothing to say.
struct RunNotes {
  std::string overrun;
  std::string rejection;
};

// The run's row, and its notes.
SweepRow Execute(const Run& run, const std::function<bool()>& should_stop, RunNotes* notes) {
  const auto& [name, scenario] = run.point->scenario.variants[run.variant];
  const VariantResult result = RunVariant(name, scenario, {.should_stop = should_stop});
  const std::string where = "point " + std::to_string(run.point->index) + ", variant " + name;
  if (result.overrun) notes->overrun = where + ": " + OverrunMessage(*result.overrun);
  if (result.rejected_decisions > 0) {
    notes->rejection = where + ": policy '" + result.policy + "': " + RejectionMessage(result);
  }
  return MakeRow(*run.point, name, scenario, result);
}

}  // namespace

SweepResults RunSweep(const SweepFile& sweep, const SweepRunOptions& options) {
  std::vector<Run> runs;
  for (const SweepPoint& point : sweep.points) {
    if (!InShard(point.index, options.shard)) continue;
    for (size_t v = 0; v < point.scenario.variants.size(); ++v) runs.push_back({&point, v});
  }
  // Each run writes its own row, found by its index: the output order does not depend on
  // which worker ran what.
  std::vector<SweepRow> rows(runs.size());
  std::vector<RunNotes> notes(runs.size());
  ParallelFor(
      runs.size(), static_cast<size_t>(std::max(options.threads, 1)),
      [&](size_t i) { rows[i] = Execute(runs[i], options.should_stop, &notes[i]); },
      options.on_run_done);
  SweepResults results{.columns = sweep.columns, .rows = std::move(rows)};
  const auto first = std::find_if(notes.begin(), notes.end(),
                                  [](const RunNotes& n) { return !n.overrun.empty(); });
  if (first != notes.end()) results.overrun = first->overrun;
  for (const RunNotes& n : notes) {
    if (!n.rejection.empty()) results.rejections.push_back(n.rejection);
  }
  return results;
}

std::string SeedAxisChangesNothing(const SweepFile& sweep) {
  if (std::find(sweep.columns.begin(), sweep.columns.end(), "/seed") == sweep.columns.end()) {
    return "";
  }
  std::string nothing;
  for (const SweepPoint& point : sweep.points) {
    nothing = SeedChangesNothing(point.scenario, "the sweep's /seed");
    if (nothing.empty()) return "";
  }
  return nothing;
}

}  // namespace migsim
