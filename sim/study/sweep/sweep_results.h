#pragma once
// The results of a sweep: one row per run (point x variant). sim/report/sweep_csv.h
// writes and reads them as CSV, sim/report/sweep_table.h shows them; columns are
// documented in scenarios/README.md ("Sweep files").

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace migsim {

// Times in seconds and ratios are rounded to the microsecond (six decimals), the
// precision the CSV keeps, so a row read back from its CSV equals the row written.
struct SweepRow {
  size_t point = 0;
  std::vector<std::string> values;  // per column: JSON text, "" when the point leaves it
  std::string variant;
  std::optional<double> makespan_s;                   // nullopt when no pod completed
  double p50_s = 0, p95_s = 0, p99_s = 0, max_s = 0;  // queueing latency
  double gpu_allocation_ratio = 0, gpu_compute_utilization = 0;
  int64_t completed = 0, failed = 0, running = 0, pending = 0, deleted = 0;
  double cost_per_hour = 0;  // the cluster's nodes' price per hour, summed
  // Disruptions: pods preempted and the GPU-hours they lost, faults that hit and the
  // GPU-hours they cost, goodput (nullopt without faults or without allocated GPU time).
  int64_t preemptions = 0;
  double gpu_hours_lost_to_preemption = 0;
  int64_t faults = 0;
  double gpu_hours_lost_to_faults = 0;
  std::optional<double> goodput;
  // Demand left waiting (UnservedDemand, run_metrics.h): pods deleted before they bound,
  // pods never bound, the longest wait of any pod, the pending peak and time-weighted mean.
  int64_t deleted_unbound = 0, never_bound = 0;
  double longest_wait_s = 0;
  int64_t pending_peak = 0;
  double pending_mean = 0;
  // Energy (EnergyMetrics, energy_metrics.h): at the facility, the GPUs', of those the
  // allocated-idle part, the nodes' overhead; its cost (USD) and CO2 (kg).
  double energy_kwh = 0, gpu_kwh = 0, allocated_idle_kwh = 0, node_kwh = 0;
  double energy_cost = 0, co2_kg = 0;
  // The run table's other figures (README "The table"): mean queueing latency, pods
  // submitted, container restarts, mean run time; jobs, their completion time and slowdown
  // (nullopt when no job completed); GPU-hours and Jain's index over tenants (nullopt when
  // none was allocated); the policy's decisions and those the engine rejected; node-hours
  // and dollars of the run (nullopt without node autoscaling, AutoscalingMetrics).
  double queueing_mean_s = 0;
  int64_t submitted = 0, restarts = 0;
  double run_time_mean_s = 0;
  int64_t jobs_completed = 0, jobs_failed = 0, jobs_unfinished = 0;
  std::optional<double> jct_mean_s, jct_p50_s, jct_p95_s, jct_p99_s;
  std::optional<double> slowdown_mean, slowdown_p50, slowdown_p95, slowdown_p99;
  double gpu_hours = 0;
  std::optional<double> jain_index;
  int64_t policy_decisions = 0, rejected_decisions = 0;
  std::optional<double> node_hours, cost_usd;
};

struct SweepResults {
  std::vector<std::string> columns;  // the pointers the points set
  std::vector<SweepRow> rows;        // by point, then variant in the scenario's order
  // Why the first run (by row) that went past its budget stopped, with its point and
  // variant (OverrunMessage); empty when every run finished. A sweep with one is refused.
  std::string overrun{};
  // One line per run whose policy had decisions rejected by the engine, in row order:
  // "point N, variant V: policy 'P': R of D decisions were rejected (first: ...)". A
  // policy that keeps answering wrong must not pass for a result (the CLI warns).
  std::vector<std::string> rejections{};
};

// x rounded to the microsecond, the precision the CSV keeps; -0 becomes 0.
inline double RoundToMicro(double x) {
  const double rounded = std::round(x * 1e6) / 1e6;
  return rounded == 0 ? 0 : rounded;
}

}  // namespace migsim
