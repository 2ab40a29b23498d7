#include "sim/report/sweep_metrics.h"

#include <charconv>
#include <cstdio>

#include "sim/report/csv_table.h"

namespace migsim {
namespace {

using R = SweepRow;

// Appended groups go last, so that the columns of older CSVs keep their places.
const SweepMetric kMetrics[] = {
    {"latency", "makespan_s", "makespan (s)", &R::makespan_s},
    {"latency", "p50_s", "p50 queueing (s)", &R::p50_s},
    {"latency", "p95_s", "p95 queueing (s)", &R::p95_s},
    {"latency", "p99_s", "p99 queueing (s)", &R::p99_s},
    {"latency", "max_s", "max queueing (s)", &R::max_s},
    {"capacity", "gpu_allocation_ratio", "GPU allocation", &R::gpu_allocation_ratio},
    {"capacity", "gpu_compute_utilization", "GPU utilization", &R::gpu_compute_utilization},
    {"pods", "completed", "pods completed", &R::completed},
    {"pods", "failed", "pods failed", &R::failed},
    {"pods", "running", "pods running", &R::running},
    {"pods", "pending", "pods pending", &R::pending},
    {"pods", "deleted", "pods deleted", &R::deleted},
    {"cost", "cost_per_hour", "cost ($/h)", &R::cost_per_hour},
    {"disruption", "preemptions", "preemptions", &R::preemptions},
    {"disruption", "gpu_hours_lost_to_preemption", "GPU-h lost to preemption",
     &R::gpu_hours_lost_to_preemption},
    {"disruption", "faults", "faults", &R::faults},
    {"disruption", "gpu_hours_lost_to_faults", "GPU-h lost to faults",
     &R::gpu_hours_lost_to_faults},
    {"disruption", "goodput", "goodput", &R::goodput},
    {"unserved", "deleted_unbound", "pods deleted unbound", &R::deleted_unbound},
    {"unserved", "never_bound", "pods never bound", &R::never_bound},
    {"unserved", "longest_wait_s", "longest wait (s)", &R::longest_wait_s},
    {"unserved", "pending_peak", "pods pending peak", &R::pending_peak},
    {"unserved", "pending_mean", "pods pending mean", &R::pending_mean},
    {"energy", "energy_kwh", "energy (kWh)", &R::energy_kwh},
    {"energy", "gpu_kwh", "GPU energy (kWh)", &R::gpu_kwh},
    {"energy", "allocated_idle_kwh", "allocated-idle energy (kWh)", &R::allocated_idle_kwh},
    {"energy", "node_kwh", "node energy (kWh)", &R::node_kwh},
    {"energy", "energy_cost", "energy ($)", &R::energy_cost},
    {"energy", "co2_kg", "CO2 (kg)", &R::co2_kg},
    {"run table", "queueing_mean_s", "mean queueing (s)", &R::queueing_mean_s},
    {"run table", "pods_submitted", "pods submitted", &R::submitted},
    {"run table", "restarts", "container restarts", &R::restarts},
    {"run table", "run_time_mean_s", "run time mean (s)", &R::run_time_mean_s},
    {"run table", "jobs_completed", "jobs completed", &R::jobs_completed},
    {"run table", "jobs_failed", "jobs failed", &R::jobs_failed},
    {"run table", "jobs_unfinished", "jobs unfinished", &R::jobs_unfinished},
    {"run table", "jct_mean_s", "JCT mean (s)", &R::jct_mean_s},
    {"run table", "jct_p50_s", "JCT p50 (s)", &R::jct_p50_s},
    {"run table", "jct_p95_s", "JCT p95 (s)", &R::jct_p95_s},
    {"run table", "jct_p99_s", "JCT p99 (s)", &R::jct_p99_s},
    {"run table", "slowdown_mean", "job slowdown mean", &R::slowdown_mean},
    {"run table", "slowdown_p50", "job slowdown p50", &R::slowdown_p50},
    {"run table", "slowdown_p95", "job slowdown p95", &R::slowdown_p95},
    {"run table", "slowdown_p99", "job slowdown p99", &R::slowdown_p99},
    {"run table", "gpu_hours", "GPU-hours", &R::gpu_hours},
    {"run table", "jain_index", "Jain's index", &R::jain_index},
    {"run table", "policy_decisions", "policy decisions", &R::policy_decisions},
    {"run table", "rejected_decisions", "decisions rejected", &R::rejected_decisions},
    {"run table", "node_hours", "node-hours", &R::node_hours},
    {"run table", "cost_usd", "cost ($)", &R::cost_usd},
};

std::string Fixed(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", RoundToMicro(v));
  return buf;
}

std::optional<int64_t> ToInt(const std::string& s) {
  int64_t v = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

template <class... Fs>
struct Overload : Fs... {
  using Fs::operator()...;
};
// Clang 14 (the sanitizer build) deduces no aggregate's template arguments without it.
template <class... Fs>
Overload(Fs...) -> Overload<Fs...>;

}  // namespace

std::optional<double> SweepMetric::Value(const SweepRow& row) const {
  return std::visit(
      Overload{[&](double R::*f) -> std::optional<double> { return row.*f; },
               [&](std::optional<double> R::*f) { return row.*f; },
               [&](int64_t R::*f) -> std::optional<double> { return static_cast<double>(row.*f); }},
      field);
}

std::string SweepMetric::Format(const SweepRow& row) const {
  return std::visit(
      Overload{[&](double R::*f) { return Fixed(row.*f); },
               [&](std::optional<double> R::*f) { return row.*f ? Fixed(*(row.*f)) : ""; },
               [&](int64_t R::*f) { return std::to_string(row.*f); }},
      field);
}

bool SweepMetric::Read(const std::string& cell, SweepRow* row) const {
  return std::visit(Overload{[&](double R::*f) {
                               const std::optional<double> v = ParseCsvNumber(cell);
                               if (v) row->*f = *v;
                               return v.has_value();
                             },
                             [&](std::optional<double> R::*f) {
                               row->*f = ParseCsvNumber(cell);
                               return cell.empty() || (row->*f).has_value();
                             },
                             [&](int64_t R::*f) {
                               const std::optional<int64_t> v = ToInt(cell);
                               if (v) row->*f = *v;
                               return v.has_value();
                             }},
                    field);
}

std::span<const SweepMetric> SweepMetrics() { return kMetrics; }

const SweepMetric* FindSweepMetric(std::string_view name) {
  for (const SweepMetric& m : kMetrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

size_t LegacySweepMetricCount() {
  size_t n = 0;
  while (kMetrics[n].group != "run table") ++n;
  return n;
}

}  // namespace migsim
