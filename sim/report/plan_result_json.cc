#include "sim/report/plan_result_json.h"

#include "sim/metrics/autoscaling_metrics.h"
#include "sim/report/document_json.h"
#include "sim/report/plan_report.h"

namespace migsim {
namespace {

OrderedJson ObjectivesJson(const PlanSlo& slo) {
  return {{"p95_queueing_latency_s", JsonMicroOrNull(slo.p95_queueing_latency_s)},
          {"max_pending", JsonOrNull(slo.max_pending)},
          {"makespan_s", JsonMicroOrNull(slo.makespan_s)},
          {"min_completed_fraction", JsonMicroOrNull(slo.min_completed_fraction)},
          {"max_wait_s", JsonMicroOrNull(slo.max_wait_s)},
          {"max_unserved", JsonOrNull(slo.max_unserved)},
          {"max_pending_peak", JsonOrNull(slo.max_pending_peak)}};
}

OrderedJson PoolsJson(const PlanEvaluation& e) {
  OrderedJson pools = OrderedJson::array();
  for (const PoolCost& p : e.pools) {
    pools.push_back(
        {{"pool", p.pool},
         {"nodes", p.nodes},
         {"node_type", p.node_type},
         {"varied", p.varied},
         {"autoscaled", p.autoscaled},
         {"cost_usd_per_h", JsonMicro(p.cost_per_hour)},
         {"peak_nodes", p.autoscaled ? OrderedJson(p.peak_nodes) : OrderedJson(nullptr)}});
  }
  return pools;
}

// The chosen evaluation's figures, in the table's order.
OrderedJson FiguresJson(const PlanEvaluation& e) {
  const RunMetrics& m = e.metrics;
  return {{"cost_usd_per_h", JsonMicro(e.cost_per_hour)},
          {"cost_usd_per_month", JsonMicro(e.cost_per_hour * kHoursPerMonth)},
          {"p95_queueing_latency_s", JsonMicro(m.queueing.p95_s)},
          {"longest_wait_s", JsonMicro(m.unserved.longest_wait_s)},
          {"pods_never_bound", m.unserved.never_bound},
          {"makespan_s", JsonMicroOrNull(m.makespan_s)},
          {"gpu_allocation_ratio", JsonMicro(m.gpu_allocation_ratio)},
          {"gpu_compute_utilization", JsonMicro(m.gpu_compute_utilization)},
          {"energy_kwh", JsonMicro(e.energy_kwh)},
          {"energy_usd", JsonMicro(e.energy_cost)}};
}

// One row of the table (and of plan.csv): the chosen evaluation's figures, or nulls when no
// size met the objectives (plan.csv's empty cells).
OrderedJson ConfigurationJson(const ConfigurationAnswer& c) {
  const PlanAnswer& a = c.answer;
  OrderedJson row = {{"configuration", c.configuration->name},
                     {"meets", a.nodes.has_value()},
                     {"nodes", JsonOrNull(a.nodes)},
                     {"node_type", c.configuration->node_type}};
  // Without an answer, the same keys (of an empty evaluation's figures) hold null.
  const OrderedJson figures = FiguresJson(a.nodes ? a.chosen() : PlanEvaluation{});
  for (const auto& [key, value] : figures.items())
    row[key] = a.nodes ? value : OrderedJson(nullptr);
  row["evaluations"] = a.evidence.size();
  row["note"] = a.nodes ? a.warning : a.chosen().why_not;
  row["pools"] = a.nodes ? PoolsJson(a.chosen()) : OrderedJson::array();
  return row;
}

OrderedJson IntervalJson(const SeedInterval& i) {
  if (i.n == 0) return nullptr;
  return {{"mean", JsonMicro(i.mean)}, {"half_width", JsonMicro(i.half_width)}, {"n", i.n}};
}

OrderedJson SeedIntervalsJson(const PlanResult& result, const std::vector<size_t>& ranked) {
  if (result.plan->seeds.size() <= 1) return nullptr;  // the table shows no seeds table
  OrderedJson out = OrderedJson::array();
  for (const PlanSeedSpread& s : PlanSeedSpreads(result, ranked)) {
    const ConfigurationAnswer& c = result.configurations[s.configuration];
    out.push_back({{"configuration", c.configuration->name},
                   {"nodes", *c.answer.nodes},
                   {"node_type", c.configuration->node_type},
                   {"seeds", s.seeds},
                   {"p95_queueing_latency_s", IntervalJson(s.p95_queueing_latency_s)},
                   {"longest_wait_s", IntervalJson(s.longest_wait_s)},
                   {"makespan_s", IntervalJson(s.makespan_s)},
                   {"gpu_allocation_ratio", IntervalJson(s.gpu_allocation_ratio)},
                   {"gpu_compute_utilization", IntervalJson(s.gpu_compute_utilization)}});
  }
  return out;
}

// The first ranked configuration when it met the objectives (FormatPlanRecommendation).
OrderedJson RecommendationJson(const PlanResult& result, const std::vector<size_t>& ranked) {
  const ConfigurationAnswer& best = result.configurations[ranked.front()];
  if (!best.answer.nodes) return nullptr;
  const PlanEvaluation& e = best.answer.chosen();
  return {{"configuration", best.configuration->name},
          {"nodes", *best.answer.nodes},
          {"pools", PoolsJson(e)},
          {"cost_usd_per_h", JsonMicro(e.cost_per_hour)},
          {"cost_usd_per_month", JsonMicro(e.cost_per_hour * kHoursPerMonth)},
          {"energy_kwh", JsonMicro(e.energy_kwh)},
          {"energy_usd", JsonMicro(e.energy_cost)},
          {"co2_kg", JsonMicro(e.co2_kg)}};
}

}  // namespace

std::string FormatPlanJson(const PlanResult& result) {
  const PlanFile& plan = *result.plan;
  const std::vector<size_t> ranked = RankConfigurations(result);
  OrderedJson rows = OrderedJson::array();
  for (size_t i : ranked) rows.push_back(ConfigurationJson(result.configurations[i]));
  return JsonDocument({{"plan", plan.name},
                       {"pool", plan.pool},
                       {"max_nodes", plan.max_nodes},
                       {"seeds", plan.seeds},
                       {"rank_by", plan.rank_by == PlanRankBy::kEnergy ? "energy" : "cost"},
                       {"objectives", ObjectivesJson(plan.slo)},
                       {"configurations", std::move(rows)},
                       {"seed_intervals", SeedIntervalsJson(result, ranked)},
                       {"unserved_notes", JsonStrings(UnservedNotes(result))},
                       {"recommendation", RecommendationJson(result, ranked)}});
}

}  // namespace migsim
