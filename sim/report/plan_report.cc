#include "sim/report/plan_report.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "sim/core/text.h"
#include "sim/metrics/autoscaling_metrics.h"
#include "sim/metrics/unserved_demand.h"
#include "sim/report/csv_field.h"
#include "sim/report/seed_interval.h"

namespace migsim {
namespace {

// Whole dollars with thousands separators: 3,732.
std::string Dollars(double v) {
  std::string digits = FormatFixed(v, 0);
  const size_t first = digits.front() == '-' ? 1 : 0;
  for (size_t i = digits.size(); i > first + 3; i -= 3) digits.insert(i - 3, ",");
  return digits;
}

std::string Short(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string Decimal(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string Join(const std::vector<std::string>& cells, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) out += (i ? separator : "") + cells[i];
  return out;
}

std::string DescribeSlo(const PlanSlo& slo) {
  std::vector<std::string> parts;
  if (slo.p95_queueing_latency_s) {
    parts.push_back("p95 queueing latency <= " + Short(*slo.p95_queueing_latency_s) + " s");
  }
  if (slo.max_pending) parts.push_back("pending pods <= " + std::to_string(*slo.max_pending));
  if (slo.makespan_s) parts.push_back("makespan <= " + Short(*slo.makespan_s) + " s");
  if (slo.min_completed_fraction) {
    parts.push_back("completed fraction >= " + Short(*slo.min_completed_fraction));
  }
  if (slo.max_wait_s) parts.push_back("longest wait <= " + Short(*slo.max_wait_s) + " s");
  if (slo.max_unserved) parts.push_back("pods never bound <= " + std::to_string(*slo.max_unserved));
  if (slo.max_pending_peak) {
    parts.push_back("pending peak <= " + std::to_string(*slo.max_pending_peak));
  }
  return Join(parts, ", ");
}

std::string Seeds(const std::vector<uint64_t>& seeds) {
  std::vector<std::string> parts;
  for (uint64_t s : seeds) parts.push_back(std::to_string(s));
  return Join(parts, ", ");
}

// The answer's energy (kWh) and its cost: rounded for the table, full for plan.csv (empty,
// or "-" in the table, when no size met the objectives).
std::vector<std::string> EnergyCells(const PlanAnswer& a, bool csv) {
  if (!a.nodes) return {csv ? "" : "-", csv ? "" : "-"};
  const PlanEvaluation& e = a.chosen();
  return {FormatFixed(e.energy_kwh, csv ? 6 : 2), FormatFixed(e.energy_cost, csv ? 6 : 2)};
}

// One configuration's row: rounded for the table, full precision for plan.csv (where a
// missing value is an empty field, and the table's "> max" an empty node count).
std::vector<std::string> Cells(const PlanResult& result, const ConfigurationAnswer& c, bool csv) {
  const PlanAnswer& a = c.answer;
  const std::string none = csv ? "" : "-";
  std::vector<std::string> cells = {
      c.configuration->name,
      a.nodes ? std::to_string(*a.nodes)
              : (csv ? "" : "> " + std::to_string(result.plan->max_nodes)),
      c.configuration->node_type};
  if (a.nodes) {
    const PlanEvaluation& e = a.chosen();
    const RunMetrics& m = e.metrics;
    const int seconds = csv ? 6 : 1;
    cells.insert(
        cells.end(),
        {FormatFixed(e.cost_per_hour, csv ? 4 : 2),
         FormatFixed(e.cost_per_hour * kHoursPerMonth, csv ? 2 : 0),
         FormatFixed(m.queueing.p95_s, seconds), FormatFixed(m.unserved.longest_wait_s, seconds),
         std::to_string(m.unserved.never_bound),
         m.makespan_s ? FormatFixed(*m.makespan_s, seconds) : none,
         csv ? Decimal(m.gpu_allocation_ratio) : FormatFixed(m.gpu_allocation_ratio, 3),
         csv ? Decimal(m.gpu_compute_utilization) : FormatFixed(m.gpu_compute_utilization, 3)});
  } else {
    cells.insert(cells.end(), 8, none);
  }
  cells.push_back(std::to_string(a.evidence.size()));
  if (!csv) {
    const std::vector<std::string> energy = EnergyCells(a, false);
    cells.insert(cells.end(), energy.begin(), energy.end());
  }
  return cells;
}

// Left-aligned text columns, right-aligned numbers.
std::string Layout(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], TerminalColumns(row[c]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string pad(widths[c] - TerminalColumns(row[c]), ' ');
      const bool left = c == 0 || c == 2;  // configuration, node type
      line += (c ? "  " : "") + (left ? row[c] + pad : pad + row[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::vector<std::string> UnservedNotes(const PlanResult& result) {
  std::vector<std::string> notes;
  const bool seeds = result.plan->seeds.size() > 1;
  for (const ConfigurationAnswer& c : result.configurations) {
    const PlanAnswer& a = c.answer;
    if (a.evidence.empty()) continue;
    const PlanEvaluation& e = a.chosen();
    const int nodes = a.nodes.value_or(result.plan->max_nodes);
    for (const SeedRun& run : e.runs) {
      std::string why = UnjudgedDemand(result.plan->slo, run.metrics);
      if (why.empty()) why = DescribeUnboundDeletions(run.metrics.unserved);
      if (why.empty()) continue;
      notes.push_back(c.configuration->name + " at " + std::to_string(nodes) +
                      (nodes == 1 ? " node" : " nodes") +
                      (seeds ? ", seed " + std::to_string(run.seed) : "") + ": " + why);
    }
  }
  return notes;
}

namespace {

std::string Notes(const PlanResult& result) {
  std::string out;
  for (const ConfigurationAnswer& c : result.configurations) {
    const PlanAnswer& a = c.answer;
    if (!a.nodes) {
      const int max = result.plan->max_nodes;
      out += c.configuration->name + ": " + std::to_string(max) +
             (max == 1 ? " node misses: " : " nodes miss: ") + a.chosen().why_not + "\n";
    }
    if (!a.warning.empty()) out += c.configuration->name + ": " + a.warning + "\n";
  }
  for (const std::string& note : UnservedNotes(result)) out += note + "\n";
  return out;
}

// "5 × p4d.24xlarge in `infer` (varied)", or for a node group "up to 16 × g4dn.xlarge in
// `a10g` (varied, autoscaled: billed $5.11/h, at most 14 at once)"; with more than one
// pool a fixed pool's cost is shown too, so the parts add up to the total.
std::string PoolText(const PoolCost& p, bool several) {
  std::string text = (p.autoscaled ? "up to " : "") + std::to_string(p.nodes) + " × " +
                     p.node_type + " in `" + p.pool + "` (" + (p.varied ? "varied" : "fixed");
  if (p.autoscaled) {
    text += ", autoscaled: billed $" + FormatFixed(p.cost_per_hour, 2) + "/h, at most " +
            std::to_string(p.peak_nodes) + " at once";
  } else if (several) {
    text += ", $" + FormatFixed(p.cost_per_hour, 2) + "/h";
  }
  return text + ")";
}

// The recommendation line is what a reader may take alone: when a run of the answer left
// demand the objectives cannot judge, the line itself says so (the notes above say why).
std::string UnjudgedCaveat(const PlanSlo& slo, const PlanEvaluation& chosen) {
  for (const SeedRun& run : chosen.runs) {
    if (!UnjudgedDemand(slo, run.metrics).empty()) {
      return ", NOT JUDGED: its runs left demand unserved that these objectives do not count "
             "(see above)";
    }
  }
  return "";
}

std::string Recommendation(const PlanResult& result, const std::vector<size_t>& ranked) {
  const ConfigurationAnswer& best = result.configurations[ranked.front()];
  if (!best.answer.nodes) {
    return "recommendation: none: no configuration meets the objectives with at most " +
           std::to_string(result.plan->max_nodes) + " nodes\n";
  }
  const PlanEvaluation& chosen = best.answer.chosen();
  std::vector<std::string> pools;
  for (const PoolCost& p : chosen.pools) pools.push_back(PoolText(p, chosen.pools.size() > 1));
  return "recommendation: " + best.configuration->name + " with " + Join(pools, " + ") + " at $" +
         FormatFixed(chosen.cost_per_hour, 2) + "/h ($" +
         Dollars(chosen.cost_per_hour * kHoursPerMonth) + " a month)" +
         UnjudgedCaveat(result.plan->slo, chosen) +
         "\nits energy: " + FormatFixed(chosen.energy_kwh, 2) + " kWh per run ($" +
         FormatFixed(chosen.energy_cost, 2) + ", " + FormatFixed(chosen.co2_kg, 2) + " kg CO2)\n";
}

// plan.csv's `pools`: pool:nodes:node_type:role:cost_per_hour:peak_nodes, ';' between
// pools; role is varied or fixed, with "-autoscaled" for a node group (then nodes is its
// max and peak_nodes the most billed at once; empty for a fixed pool).
std::string PoolsCsv(const PlanEvaluation& e) {
  std::vector<std::string> parts;
  for (const PoolCost& p : e.pools) {
    parts.push_back(p.pool + ":" + std::to_string(p.nodes) + ":" + p.node_type + ":" +
                    (p.varied ? "varied" : "fixed") + (p.autoscaled ? "-autoscaled" : "") + ":" +
                    FormatFixed(p.cost_per_hour, 4) + ":" +
                    (p.autoscaled ? std::to_string(p.peak_nodes) : ""));
  }
  return Join(parts, ";");
}

std::string MetricsCsv(const RunMetrics& m) {
  const UnservedDemand& d = m.unserved;
  return Join({m.makespan_s ? FormatFixed(*m.makespan_s, 6) : "", FormatFixed(m.queueing.p95_s, 6),
               FormatFixed(m.queueing.mean_s, 6), FormatFixed(m.queueing.max_s, 6),
               Decimal(m.gpu_allocation_ratio), Decimal(m.gpu_compute_utilization),
               std::to_string(m.pods.submitted), std::to_string(m.pods.completed),
               std::to_string(m.pods.failed), std::to_string(m.pods.running),
               std::to_string(m.pods.pending), std::to_string(m.pods.deleted),
               std::to_string(m.pods.restarts), std::to_string(d.deleted_unbound),
               std::to_string(d.never_bound), FormatFixed(d.longest_wait_s, 6),
               std::to_string(d.pending.peak), Decimal(d.pending.mean)},
              ",");
}

}  // namespace

// Equal costs are common (the same node type at the same count): the one that uses less
// energy, then the one that finishes the work sooner, is then the better buy. Ranked by
// energy (PlanFile::rank_by), the cost breaks ties.
std::vector<size_t> RankConfigurations(const PlanResult& result) {
  std::vector<size_t> order(result.configurations.size());
  std::iota(order.begin(), order.end(), 0);
  auto met = [&](size_t i) { return result.configurations[i].answer.nodes.has_value(); };
  auto cost = [&](size_t i) { return result.configurations[i].answer.chosen().cost_per_hour; };
  auto energy = [&](size_t i) { return result.configurations[i].answer.chosen().energy_kwh; };
  const bool by_energy = result.plan->rank_by == PlanRankBy::kEnergy;
  auto makespan = [&](size_t i) {
    return result.configurations[i].answer.chosen().metrics.makespan_s.value_or(
        std::numeric_limits<double>::infinity());
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (met(a) != met(b)) return met(a);
    if (!met(a)) return false;
    if (by_energy && energy(a) != energy(b)) return energy(a) < energy(b);
    if (cost(a) != cost(b)) return cost(a) < cost(b);
    if (!by_energy && energy(a) != energy(b)) return energy(a) < energy(b);
    return makespan(a) < makespan(b);
  });
  return order;
}

// Under the table of a plan run on several seeds: which seed its figures are (a plan judges
// each size by its worst seed, so the table shows that seed's run), then the spread over
// the seeds at each chosen size, as mean and 95 % interval.
std::vector<PlanSeedSpread> PlanSeedSpreads(const PlanResult& result,
                                            const std::vector<size_t>& ranked) {
  std::vector<PlanSeedSpread> spreads;
  for (size_t i : ranked) {
    const ConfigurationAnswer& c = result.configurations[i];
    if (!c.answer.nodes) continue;
    std::vector<double> p95, wait, makespan, allocation, utilization;
    for (const SeedRun& run : c.answer.chosen().runs) {
      const RunMetrics& m = run.metrics;
      p95.push_back(m.queueing.p95_s), wait.push_back(m.unserved.longest_wait_s);
      if (m.makespan_s) makespan.push_back(*m.makespan_s);
      allocation.push_back(m.gpu_allocation_ratio);
      utilization.push_back(m.gpu_compute_utilization);
    }
    spreads.push_back({i, p95.size(), ComputeSeedInterval(p95), ComputeSeedInterval(wait),
                       ComputeSeedInterval(makespan), ComputeSeedInterval(allocation),
                       ComputeSeedInterval(utilization)});
  }
  return spreads;
}

std::string SeedsTable(const PlanResult& result, const std::vector<size_t>& ranked) {
  std::vector<std::vector<std::string>> rows = {{"configuration", "nodes", "node type", "seeds",
                                                 "p95 latency (s)", "longest wait (s)",
                                                 "makespan (s)", "allocation", "utilization"}};
  const auto cell = [](const SeedInterval& i, int decimals) {
    return i.n == 0 ? std::string("-") : FormatSeedInterval(i, decimals);
  };
  for (const PlanSeedSpread& s : PlanSeedSpreads(result, ranked)) {
    const ConfigurationAnswer& c = result.configurations[s.configuration];
    rows.push_back({c.configuration->name, std::to_string(*c.answer.nodes),
                    c.configuration->node_type, std::to_string(s.seeds),
                    cell(s.p95_queueing_latency_s, 1), cell(s.longest_wait_s, 1),
                    cell(s.makespan_s, 1), cell(s.gpu_allocation_ratio, 3),
                    cell(s.gpu_compute_utilization, 3)});
  }
  if (rows.size() == 1) return "";
  return "(the table's latency, wait, never bound, makespan, allocation and utilization are "
         "the run of the seed that decided each size, the first that missed or else the "
         "longest p95; cost and energy are means over the seeds)\n\nover the seeds at each "
         "chosen size, mean \u00b1 95 % confidence interval (Student's t, n - 1 degrees of "
         "freedom):\n" +
         Layout(rows);
}

std::string FormatPlanTable(const PlanResult& result) {
  const PlanFile& plan = *result.plan;
  std::string out = "plan " + plan.name + ": the fewest '" + plan.pool + "' nodes (at most " +
                    std::to_string(plan.max_nodes) + ") meeting " + DescribeSlo(plan.slo) +
                    (plan.seeds.size() > 1 ? ", on seeds " : ", on seed ") + Seeds(plan.seeds) +
                    (plan.rank_by == PlanRankBy::kEnergy ? ", ranked by energy" : "") + "\n\n";
  std::vector<std::vector<std::string>> rows = {
      {"configuration", "nodes", "node type", "cost ($/h)", "cost ($/month)", "p95 latency (s)",
       "longest wait (s)", "never bound", "makespan (s)", "allocation", "utilization",
       "evaluations", "energy (kWh)", "energy ($)"}};
  const std::vector<size_t> ranked = RankConfigurations(result);
  for (size_t i : ranked) rows.push_back(Cells(result, result.configurations[i], false));
  out += Layout(rows);
  if (plan.seeds.size() > 1) out += SeedsTable(result, ranked);
  const std::string notes = Notes(result);
  if (!notes.empty()) out += "\n" + notes;
  return out + "\n" + Recommendation(result, ranked);
}

std::string FormatPlanCsv(const PlanResult& result) {
  std::string out =
      "configuration,nodes,node_type,cost_per_hour,cost_per_month,p95_queueing_latency_s,"
      "longest_wait_s,pods_never_bound,makespan_s,gpu_allocation_ratio,gpu_compute_utilization,"
      "evaluations,note,pools,energy_kwh,energy_cost\n";
  for (size_t i : RankConfigurations(result)) {
    const ConfigurationAnswer& c = result.configurations[i];
    std::vector<std::string> cells = Cells(result, c, true);
    cells.push_back(c.answer.nodes ? c.answer.warning : c.answer.chosen().why_not);
    cells.push_back(c.answer.nodes ? PoolsCsv(c.answer.chosen()) : "");
    for (std::string& cell : EnergyCells(c.answer, true)) cells.push_back(std::move(cell));
    for (std::string& cell : cells) cell = CsvField(cell);
    out += Join(cells, ",") + "\n";
  }
  return out;
}

std::string FormatEvidenceCsv(const PlanResult& result) {
  std::string out =
      "configuration,nodes,seed,meets,why_not,cost_per_hour,makespan_s,queueing_p95_s,"
      "queueing_mean_s,queueing_max_s,gpu_allocation_ratio,gpu_compute_utilization,"
      "pods_submitted,pods_completed,pods_failed,pods_running,pods_pending,pods_deleted,"
      "restarts,pods_deleted_unbound,pods_never_bound,longest_wait_s,pending_peak,"
      "pending_mean,energy_kwh,energy_cost,co2_kg\n";
  for (const ConfigurationAnswer& c : result.configurations) {
    for (const auto& [nodes, e] : c.answer.evidence) {
      const std::string head = CsvField(c.configuration->name) + "," + std::to_string(nodes) + ",";
      if (e.runs.empty()) {  // the scenario did not load at this size
        out += head + ",false," + CsvField(e.why_not) + "," + FormatFixed(e.cost_per_hour, 4) +
               std::string(21, ',') + "\n";
      }
      for (const SeedRun& run : e.runs) {
        out += head + std::to_string(run.seed) + "," + (run.meets ? "true" : "false") + "," +
               CsvField(run.why_not) + "," + FormatFixed(e.cost_per_hour, 4) + "," +
               MetricsCsv(run.metrics) + "," + FormatFixed(run.energy.kwh, 6) + "," +
               FormatFixed(run.energy.cost, 6) + "," + FormatFixed(run.energy.co2_kg, 6) + "\n";
      }
    }
  }
  return out;
}

std::string FormatPlanRecommendation(const PlanResult& result) {
  return Recommendation(result, RankConfigurations(result));
}

}  // namespace migsim
