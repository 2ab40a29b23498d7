#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "sim/core/text.h"
#include "sim/report/energy_table_rows.h"
#include "sim/report/job_table_rows.h"
#include "sim/report/run_report.h"
#include "sim/report/summary_rows.h"

namespace migsim {
namespace {

using Row = SummaryRow;

// Appends mean and p95 queueing latency rows for every priority class any variant has,
// in the order the variants list them, with a cell for every variant.
void AddPriorityRows(const RunReport& report, std::vector<Row>& rows) {
  std::vector<std::string> names;
  for (const VariantResult& v : report.variants) {
    for (const PriorityClassLatency& c : v.metrics.queueing_by_priority_class) {
      if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
    }
  }
  for (const std::string& name : names) {
    Row mean{"queueing mean, " + name + " (s)", {}}, p95{"queueing p95, " + name + " (s)", {}};
    for (const VariantResult& v : report.variants) {
      const auto& classes = v.metrics.queueing_by_priority_class;
      auto it = std::find_if(classes.begin(), classes.end(),
                             [&](const PriorityClassLatency& c) { return c.name == name; });
      mean.cells.push_back(it == classes.end() ? "-" : FormatFixed(it->queueing.mean_s, 1));
      p95.cells.push_back(it == classes.end() ? "-" : FormatFixed(it->queueing.p95_s, 1));
    }
    rows.push_back(std::move(mean));
    rows.push_back(std::move(p95));
  }
}

// MIG rows, when a variant puts a pool under DRA (README "The table").
void AddMigRows(const RunReport& report, std::vector<Row>& rows) {
  if (!HasDraPool(*report.file)) return;
  Row fragmentation{"MIG fragmentation", {}}, windows{"MIG reconfiguration windows", {}};
  Row created{"MIG instances created (DRA)", {}}, creation{"MIG creation time (s)", {}};
  for (const VariantResult& v : report.variants) {
    fragmentation.cells.push_back(FormatFixed(v.metrics.mig.fragmentation, 3));
    windows.cells.push_back(std::to_string(v.metrics.mig.reconfiguration_windows));
    created.cells.push_back(std::to_string(v.metrics.mig.instances_created));
    creation.cells.push_back(FormatFixed(v.metrics.mig.creation_s, 0));
  }
  for (Row* row : {&fragmentation, &windows, &created, &creation}) rows.push_back(std::move(*row));
}

// Preemption rows, when some variant preempted.
void AddPreemptionRows(const RunReport& report, std::vector<Row>& rows) {
  if (std::none_of(report.variants.begin(), report.variants.end(),
                   [](const VariantResult& v) { return v.metrics.preemptions > 0; })) {
    return;
  }
  Row count{"pods preempted", {}}, lost{"GPU-hours lost to preemption", {}};
  for (const VariantResult& v : report.variants) {
    count.cells.push_back(std::to_string(v.metrics.preemptions));
    lost.cells.push_back(FormatFixed(v.metrics.gpu_hours_lost_to_preemption, 2));
  }
  rows.push_back(std::move(count));
  rows.push_back(std::move(lost));
}

// "policy decisions rejected": shown right under the policy when some variant's policy gave
// answers the engine refused, as "rejected of decisions".
void AddRejectionRow(const RunReport& report, std::vector<Row>& rows) {
  if (std::none_of(report.variants.begin(), report.variants.end(),
                   [](const VariantResult& v) { return v.rejected_decisions > 0; })) {
    return;
  }
  Row row{"policy decisions rejected", {}};
  for (const VariantResult& v : report.variants) {
    row.cells.push_back(std::to_string(v.rejected_decisions) + " of " +
                        std::to_string(v.policy_decisions));
  }
  rows.push_back(std::move(row));
}

// Appends rows per Kueue ClusterQueue any variant has (in the order the variants list
// them): workloads admitted, waiting at the end, evictions, admission latency mean and p95,
// borrowed GPUs mean and max; "-" for a variant without the queue.
void AddKueueRows(const RunReport& report, std::vector<Row>& rows) {
  std::vector<std::string> names;
  for (const VariantResult& v : report.variants) {
    for (const ClusterQueueMetrics& q : v.metrics.cluster_queues) {
      if (std::find(names.begin(), names.end(), q.name) == names.end()) names.push_back(q.name);
    }
  }
  using Cell = std::string (*)(const ClusterQueueMetrics&);
  const std::vector<std::pair<std::string, Cell>> columns = {
      {"admitted", [](const auto& q) { return std::to_string(q.admitted); }},
      {"waiting at end", [](const auto& q) { return std::to_string(q.waiting); }},
      {"evictions", [](const auto& q) { return std::to_string(q.evictions); }},
      {"admission mean (s)", [](const auto& q) { return FormatFixed(q.admission.mean_s, 1); }},
      {"admission p95 (s)", [](const auto& q) { return FormatFixed(q.admission.p95_s, 1); }},
      {"borrowed GPUs mean", [](const auto& q) { return FormatFixed(q.borrowed_gpus_mean, 2); }},
      {"borrowed GPUs max", [](const auto& q) { return std::to_string(q.borrowed_gpus_max); }}};
  for (const std::string& name : names) {
    for (const auto& [label, cell] : columns) {
      Row row{"kueue " + name + ": " + label, {}};
      for (const VariantResult& v : report.variants) {
        const auto& queues = v.metrics.cluster_queues;
        auto it = std::find_if(queues.begin(), queues.end(),
                               [&](const ClusterQueueMetrics& q) { return q.name == name; });
        row.cells.push_back(it == queues.end() ? "-" : cell(*it));
      }
      rows.push_back(std::move(row));
    }
  }
}

// Appends the gang rows (GangMetrics) when any variant declared a gang, "-" for the others.
void AddGangRows(const RunReport& report, std::vector<Row>& rows) {
  const bool any = std::any_of(report.variants.begin(), report.variants.end(),
                               [](const VariantResult& v) { return v.gangs.has_value(); });
  if (!any) return;
  std::vector<Row> gang_rows = {{"gangs", {}},
                                {"gangs never scheduled", {}},
                                {"gangs waiting at the end", {}},
                                {"gang wait mean (s)", {}},
                                {"gang wait max (s)", {}},
                                {"gang reservation timeouts", {}}};
  for (const VariantResult& v : report.variants) {
    std::vector<std::string> cells(gang_rows.size(), "-");
    if (const std::optional<GangMetrics>& g = v.gangs) {
      cells = {std::to_string(g->gangs),      std::to_string(g->never_scheduled),
               std::to_string(g->waiting),    FormatFixed(g->wait.mean_s, 1),
               FormatFixed(g->wait.max_s, 1), std::to_string(g->timeouts)};
    }
    for (size_t r = 0; r < cells.size(); ++r) gang_rows[r].cells.push_back(cells[r]);
  }
  rows.insert(rows.end(), gang_rows.begin(), gang_rows.end());
}

// Fault rows (FaultMetrics) when any variant has faults, "-" for the others: faults, pods
// killed per cause (every cause any variant saw), GPU-hours lost, goodput, time to recover
// and each pool's mean availability.
void AddFaultRows(const RunReport& report, std::vector<Row>& rows) {
  std::vector<std::string> causes, pools;
  for (const VariantResult& v : report.variants) {
    if (!v.faults) continue;
    for (const KillsByCause& k : v.faults->killed) {
      if (std::find(causes.begin(), causes.end(), k.cause) == causes.end())
        causes.push_back(k.cause);
    }
    for (const PoolAvailability& a : v.faults->availability) {
      if (std::find(pools.begin(), pools.end(), a.pool) == pools.end()) pools.push_back(a.pool);
    }
  }
  if (std::none_of(report.variants.begin(), report.variants.end(),
                   [](const VariantResult& v) { return v.faults.has_value(); })) {
    return;
  }
  std::vector<Row> out = {{"faults", {}},
                          {"GPU-hours lost to faults", {}},
                          {"goodput", {}},
                          {"time to recover mean (s)", {}},
                          {"time to recover max (s)", {}},
                          {"incidents not recovered", {}}};
  for (const std::string& c : causes) out.push_back({"pods killed " + c, {}});
  for (const std::string& p : pools) out.push_back({"availability " + p, {}});
  for (const VariantResult& v : report.variants) {
    std::vector<std::string> cells(out.size(), "-");
    if (const std::optional<FaultMetrics>& f = v.faults) {
      cells[0] = std::to_string(f->faults);
      cells[1] = FormatFixed(f->gpu_hours_lost, 2);
      cells[2] = f->goodput ? FormatFixed(*f->goodput, 4) : "-";
      cells[3] = FormatFixed(f->time_to_recover.mean_s, 1);
      cells[4] = FormatFixed(f->time_to_recover.max_s, 1);
      cells[5] = std::to_string(f->unrecovered);
      for (size_t i = 0; i < causes.size(); ++i) {
        auto k = std::find_if(f->killed.begin(), f->killed.end(),
                              [&](const KillsByCause& x) { return x.cause == causes[i]; });
        cells[6 + i] = k == f->killed.end() ? "0" : std::to_string(k->pods);
      }
      for (size_t i = 0; i < pools.size(); ++i) {
        auto a = std::find_if(f->availability.begin(), f->availability.end(),
                              [&](const PoolAvailability& x) { return x.pool == pools[i]; });
        if (a != f->availability.end()) cells[6 + causes.size() + i] = FormatFixed(a->mean, 4);
      }
    }
    for (size_t r = 0; r < cells.size(); ++r) out[r].cells.push_back(cells[r]);
  }
  rows.insert(rows.end(), out.begin(), out.end());
}

// Cost rows (AutoscalingMetrics) when the file autoscales a pool: node-hours and dollars
// of every variant, and per node group its peak nodes and scale-ups ("-" elsewhere).
void AddAutoscalingRows(const RunReport& report, std::vector<Row>& rows) {
  std::vector<std::string> groups;
  for (const VariantResult& v : report.variants) {
    if (!v.autoscaling) continue;
    for (const NodeGroupMetrics& g : v.autoscaling->groups) {
      if (std::find(groups.begin(), groups.end(), g.pool) == groups.end()) groups.push_back(g.pool);
    }
  }
  if (std::none_of(report.variants.begin(), report.variants.end(),
                   [](const VariantResult& v) { return v.autoscaling.has_value(); })) {
    return;
  }
  const bool requests =
      std::any_of(report.variants.begin(), report.variants.end(),
                  [](const VariantResult& v) { return v.autoscaling && v.autoscaling->requests; });
  // Job-centric: without a Job, no pod completes as work (Deployments are services).
  const bool jobs = AnyJobs(report.variants);
  std::vector<Row> out = {{"node-hours", {}}, {"cost ($)", {}}, {"cost per month ($)", {}}};
  if (jobs) out.push_back({"cost per completed pod ($)", {}});
  const size_t first_request = out.size();
  const size_t first_group = first_request + (requests ? 2 : 0);
  if (requests) {
    out.push_back({"requests arrived (load)", {}});
    out.push_back({"cost per 1,000 requests ($)", {}});
  }
  for (const std::string& g : groups) {
    out.push_back({"peak nodes " + g, {}});
    out.push_back({"scale-ups " + g, {}});
  }
  for (const VariantResult& v : report.variants) {
    std::vector<std::string> cells(out.size(), "-");
    if (const std::optional<AutoscalingMetrics>& a = v.autoscaling) {
      cells[0] = FormatFixed(a->node_hours, 2);
      cells[1] = FormatFixed(a->cost, 2);
      cells[2] = FormatFixed(a->cost_per_month(), 2);
      if (jobs && a->cost_per_completed_pod) cells[3] = FormatFixed(*a->cost_per_completed_pod, 4);
      if (requests && a->requests) cells[first_request] = FormatFixed(*a->requests, 0);
      if (requests && a->cost_per_1000_requests) {
        cells[first_request + 1] = FormatFixed(*a->cost_per_1000_requests, 4);
      }
      for (size_t i = 0; i < groups.size(); ++i) {
        auto g = std::find_if(a->groups.begin(), a->groups.end(),
                              [&](const NodeGroupMetrics& x) { return x.pool == groups[i]; });
        if (g == a->groups.end()) continue;
        cells[first_group + 2 * i] = std::to_string(g->peak_nodes);
        cells[first_group + 1 + 2 * i] = std::to_string(g->scale_ups);
      }
    }
    for (size_t r = 0; r < cells.size(); ++r) out[r].cells.push_back(cells[r]);
  }
  rows.insert(rows.end(), out.begin(), out.end());
}

// Job-centric rows (makespan, run time, throughput) are left out when no variant ran a
// job (job_completion.h: Deployments are services): they would describe no work.
std::vector<Row> BuildRows(const RunReport& report) {
  using Cell = std::function<std::string(const RunMetrics&)>;
  const bool jobs = AnyJobs(report.variants);
  std::vector<std::pair<std::string, Cell>> columns = {
      {"makespan (s)",
       [](const RunMetrics& m) { return m.makespan_s ? FormatFixed(*m.makespan_s, 1) : "-"; }},
      {"queueing latency mean (s)",
       [](const RunMetrics& m) { return FormatFixed(m.queueing.mean_s, 1); }},
      {"queueing latency p50 (s)",
       [](const RunMetrics& m) { return FormatFixed(m.queueing.p50_s, 1); }},
      {"queueing latency p95 (s)",
       [](const RunMetrics& m) { return FormatFixed(m.queueing.p95_s, 1); }},
      {"queueing latency p99 (s)",
       [](const RunMetrics& m) { return FormatFixed(m.queueing.p99_s, 1); }},
      {"queueing latency max (s)",
       [](const RunMetrics& m) { return FormatFixed(m.queueing.max_s, 1); }},
      {"longest wait (s)",
       [](const RunMetrics& m) { return FormatFixed(m.unserved.longest_wait_s, 1); }},
      {"pods pending peak",
       [](const RunMetrics& m) { return std::to_string(m.unserved.pending.peak); }},
      {"pods pending mean",
       [](const RunMetrics& m) { return FormatFixed(m.unserved.pending.mean, 2); }},
      {"GPU allocation ratio",
       [](const RunMetrics& m) { return FormatFixed(m.gpu_allocation_ratio, 3); }},
      {"GPU compute utilization",
       [](const RunMetrics& m) { return FormatFixed(m.gpu_compute_utilization, 3); }},
      {"run time mean (s)", [](const RunMetrics& m) { return FormatFixed(m.mean_run_s, 1); }},
      {"throughput (per s)",
       [](const RunMetrics& m) {
         return m.work_unit.empty() ? "-" : FormatFixed(m.throughput_per_s, 2) + " " + m.work_unit;
       }},
      {"throughput per pod (per s)",
       [](const RunMetrics& m) {
         return m.work_unit.empty() ? "-"
                                    : FormatFixed(m.pod_throughput_per_s, 2) + " " + m.work_unit;
       }},
      {"pods submitted", [](const RunMetrics& m) { return std::to_string(m.pods.submitted); }},
      {"pods completed", [](const RunMetrics& m) { return std::to_string(m.pods.completed); }},
      {"pods failed", [](const RunMetrics& m) { return std::to_string(m.pods.failed); }},
      {"pods running", [](const RunMetrics& m) { return std::to_string(m.pods.running); }},
      {"pods pending", [](const RunMetrics& m) { return std::to_string(m.pods.pending); }},
      {"pods deleted", [](const RunMetrics& m) { return std::to_string(m.pods.deleted); }},
      {"pods deleted unbound",
       [](const RunMetrics& m) { return std::to_string(m.unserved.deleted_unbound); }},
      {"container restarts", [](const RunMetrics& m) { return std::to_string(m.pods.restarts); }}};
  if (!jobs) {
    std::erase_if(columns, [](const auto& c) {
      return c.first == "makespan (s)" || c.first == "run time mean (s)" ||
             c.first.starts_with("throughput");
    });
  }
  std::vector<Row> rows = {{"policy", {}}};
  for (const VariantResult& v : report.variants) rows[0].cells.push_back(v.policy);
  AddRejectionRow(report, rows);
  for (const auto& [label, cell] : columns) {
    Row row{label, {}};
    for (const VariantResult& v : report.variants) row.cells.push_back(cell(v.metrics));
    rows.push_back(std::move(row));
  }
  AddPreemptionRows(report, rows);
  AddMigRows(report, rows);
  AddPriorityRows(report, rows);
  AddKueueRows(report, rows);
  AddGangRows(report, rows);
  AddFaultRows(report, rows);
  AddAutoscalingRows(report, rows);
  for (auto& [label, cells] : JobAndTenantRows(report.variants)) {
    rows.push_back({std::move(label), std::move(cells)});
  }
  for (auto& [label, cells] : EnergyRows(report.variants)) {
    rows.push_back({std::move(label), std::move(cells)});
  }
  return rows;
}

}  // namespace

std::string FormatSummaryTable(const RunReport& report) {
  std::vector<Row> rows = BuildRows(report);
  size_t label_width = 0;
  for (const Row& r : rows) label_width = std::max(label_width, r.label.size());
  std::vector<size_t> widths;
  for (size_t c = 0; c < report.variants.size(); ++c) {
    size_t w = report.variants[c].name.size();
    for (const Row& r : rows) w = std::max(w, r.cells[c].size());
    widths.push_back(w);
  }
  auto line = [&](const std::string& label, auto cell) {
    std::string out = label + std::string(label_width - label.size(), ' ');
    for (size_t c = 0; c < widths.size(); ++c) {
      std::string text = cell(c);
      out += "  " + std::string(widths[c] - text.size(), ' ') + text;
    }
    return out + "\n";
  };
  std::string out = report.file->name + "\n";
  out += line("", [&](size_t c) { return report.variants[c].name; });
  for (const Row& r : rows) out += line(r.label, [&](size_t c) { return r.cells[c]; });
  return out + SummaryNotes(report);
}

std::vector<SummaryRow> SummaryRows(const RunReport& report) { return BuildRows(report); }

}  // namespace migsim
