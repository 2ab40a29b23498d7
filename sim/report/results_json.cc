#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/report/document_json.h"
#include "sim/report/run_report.h"

namespace migsim {
namespace {

using Json = nlohmann::ordered_json;

// Rounded to the microsecond (the engine's resolution), so printed values are stable
// and free of binary-fraction noise.
constexpr auto& Micro = JsonMicro;

// Percentiles of more values than a run keeps are estimates (sim/metrics/latency_summary.h):
// "percentile_relative_error" says within what, and is absent when they are exact.
Json StatsJson(const LatencyStats& s) {
  Json j = {{"mean", Micro(s.mean_s)}, {"p50", Micro(s.p50_s)}, {"p95", Micro(s.p95_s)},
            {"p99", Micro(s.p99_s)},   {"max", Micro(s.max_s)}, {"count", s.count}};
  if (s.relative_error > 0) j["percentile_relative_error"] = s.relative_error;
  return j;
}

Json JobsJson(const JobStats& jobs) {
  return {{"completed", jobs.completed},
          {"failed", jobs.failed},
          {"unfinished", jobs.unfinished},
          {"completion_time_s", StatsJson(jobs.completion)},
          {"slowdown", StatsJson(jobs.slowdown)}};
}

// Jobs, GPU-hours, tenants by namespace and Jain's index (README "JSON").
void AddJobsAndTenants(const RunMetrics& m, Json& j) {
  j["jobs"] = JobsJson(m.jobs);
  j["gpu_hours"] = Micro(m.gpu_hours);
  Json tenants = Json::object();
  for (const TenantUsage& t : m.tenants) {
    tenants[t.name] = {{"pods", t.pods},
                       {"gpu_hours", Micro(t.gpu_hours)},
                       {"gpu_share", Micro(t.gpu_share)},
                       {"jobs", JobsJson(t.jobs)}};
  }
  j["tenants"] = std::move(tenants);
  j["jain_fairness_index"] = m.jain_index ? Json(Micro(*m.jain_index)) : Json(nullptr);
}

Json WaitingGroupsJson(const std::vector<WaitingGroup>& groups) {
  Json out = Json::object();
  for (const WaitingGroup& g : groups) {
    out[g.name] = {{"pods", g.pods},
                   {"deleted_unbound", g.deleted_unbound},
                   {"never_bound", g.never_bound},
                   {"longest_wait_s", Micro(g.longest_wait_s)},
                   {"pending_peak", g.pending.peak},
                   {"pending_mean", Micro(g.pending.mean)}};
  }
  return out;
}

// Demand left waiting (README "JSON").
Json UnservedJson(const UnservedDemand& d) {
  return {{"deleted_unbound", d.deleted_unbound},
          {"deleted_unbound_wait_s", StatsJson(d.deleted_unbound_wait)},
          {"never_bound", d.never_bound},
          {"longest_wait_s", Micro(d.longest_wait_s)},
          {"pending_peak", d.pending.peak},
          {"pending_mean", Micro(d.pending.mean)},
          {"workloads", WaitingGroupsJson(d.workloads)},
          {"namespaces", WaitingGroupsJson(d.namespaces)}};
}

Json MetricsJson(const RunMetrics& m) {
  Json j;
  j["makespan_s"] = m.makespan_s ? Json(Micro(*m.makespan_s)) : Json(nullptr);
  const LatencyStats& q = m.queueing;
  j["queueing_latency_s"] = StatsJson(q);
  j["gpu_allocation_ratio"] = Micro(m.gpu_allocation_ratio);
  j["gpu_compute_utilization"] = Micro(m.gpu_compute_utilization);
  j["run_time_s"] = {{"mean", Micro(m.mean_run_s)}};
  j["throughput"] = {{"per_s", Micro(m.throughput_per_s)},
                     {"per_pod_per_s", Micro(m.pod_throughput_per_s)},
                     {"unit", m.work_unit.empty() ? Json(nullptr) : Json(m.work_unit)}};
  j["pods"] = {{"submitted", m.pods.submitted}, {"completed", m.pods.completed},
               {"failed", m.pods.failed},       {"running", m.pods.running},
               {"pending", m.pods.pending},     {"deleted", m.pods.deleted},
               {"restarts", m.pods.restarts}};
  j["end_s"] = Micro(m.end_s);
  j["preemption"] = {{"preemptions", m.preemptions},
                     {"gpu_hours_lost", Micro(m.gpu_hours_lost_to_preemption)}};
  j["unserved"] = UnservedJson(m.unserved);
  if (!m.queueing_by_priority_class.empty()) {
    Json by_class = Json::object();
    for (const PriorityClassLatency& c : m.queueing_by_priority_class) {
      by_class[c.name] = {{"priority", c.priority},           {"pods", c.pods},
                          {"mean", Micro(c.queueing.mean_s)}, {"p50", Micro(c.queueing.p50_s)},
                          {"p95", Micro(c.queueing.p95_s)},   {"p99", Micro(c.queueing.p99_s)},
                          {"max", Micro(c.queueing.max_s)},   {"count", c.queueing.count}};
    }
    j["queueing_latency_by_priority_class_s"] = std::move(by_class);
  }
  if (!m.cluster_queues.empty()) {
    Json queues = Json::object();
    for (const ClusterQueueMetrics& cq : m.cluster_queues) {
      const LatencyStats& a = cq.admission;
      queues[cq.name] = {{"workloads", cq.workloads},
                         {"admitted", cq.admitted},
                         {"waiting", cq.waiting},
                         {"evictions", cq.evictions},
                         {"admission_latency_s",
                          {{"mean", Micro(a.mean_s)},
                           {"p50", Micro(a.p50_s)},
                           {"p95", Micro(a.p95_s)},
                           {"p99", Micro(a.p99_s)},
                           {"max", Micro(a.max_s)},
                           {"count", a.count}}},
                         {"borrowed_gpus",
                          {{"mean", Micro(cq.borrowed_gpus_mean)}, {"max", cq.borrowed_gpus_max}}}};
    }
    j["kueue_cluster_queues"] = std::move(queues);
  }
  AddJobsAndTenants(m, j);
  return j;
}

Json CountsJson(const std::vector<std::pair<std::string, int>>& counts) {
  Json j = Json::object();
  for (const auto& [name, count] : counts) j[name] = count;
  return j;
}

Json NodeJson(const NodeRecord& n) {
  Json labels = Json::object();
  for (const auto& [k, v] : n.labels) labels[k] = v;
  return Json{{"name", n.name},
              {"type", n.type},
              {"cpu_milli", n.cpu_milli},
              {"memory_mib", n.memory_mib},
              {"allocatable", CountsJson(n.allocatable)},
              {"allocated", CountsJson(n.allocated)},
              {"labels", labels}};
}

Json TheoryJson(const std::vector<TheoryComparison>& rows) {
  Json out = Json::array();
  for (const TheoryComparison& t : rows) {
    out.push_back({{"model", t.model},
                   {"class", t.klass},
                   {"servers", t.servers},
                   {"utilisation", Micro(t.utilisation)},
                   {"simulated_mean_wait_s", Micro(t.simulated_s)},
                   {"exact_mean_wait_s", Micro(t.exact_s)},
                   {"relative_error", Micro(t.relative_error())}});
  }
  return out;
}

Json GangsJson(const GangMetrics& g) {
  return Json{{"gangs", g.gangs},
              {"never_scheduled", g.never_scheduled},
              {"waiting", g.waiting},
              {"wait_s",
               {{"mean", Micro(g.wait.mean_s)},
                {"p50", Micro(g.wait.p50_s)},
                {"p95", Micro(g.wait.p95_s)},
                {"max", Micro(g.wait.max_s)},
                {"count", g.wait.count}}},
              {"reservation_timeouts", g.timeouts},
              {"never_scheduled_owners", g.never_scheduled_owners}};
}

Json FaultsJson(const FaultMetrics& f) {
  Json killed = Json::object();
  for (const KillsByCause& k : f.killed) {
    killed[k.cause] = {{"pods", k.pods}, {"workloads", k.workloads}};
  }
  Json availability = Json::object();
  for (const PoolAvailability& a : f.availability) {
    Json series = Json::array();
    for (const auto& [at, fraction] : a.series)
      series.push_back({Micro(at.seconds()), Micro(fraction)});
    availability[a.pool] = {{"gpus", a.gpus},
                            {"mean", Micro(a.mean)},
                            {"min", Micro(a.min)},
                            {"series", std::move(series)}};
  }
  Json events = Json::array();
  for (const FaultEventRecord& e : f.events) {
    events.push_back({{"at_s", Micro(e.at.seconds())},
                      {"kind", e.kind},
                      {"repaired", e.repaired},
                      {"node", e.node},
                      {"gpu", e.gpu >= 0 ? Json(e.gpu) : Json(nullptr)}});
  }
  return Json{{"faults", f.faults},
              {"gpu_hours_lost", Micro(f.gpu_hours_lost)},
              {"goodput", f.goodput ? Json(Micro(*f.goodput)) : Json(nullptr)},
              {"killed", std::move(killed)},
              {"time_to_recover_s",
               {{"mean", Micro(f.time_to_recover.mean_s)},
                {"p50", Micro(f.time_to_recover.p50_s)},
                {"p95", Micro(f.time_to_recover.p95_s)},
                {"max", Micro(f.time_to_recover.max_s)},
                {"count", f.time_to_recover.count}}},
              {"unrecovered", f.unrecovered},
              {"availability", std::move(availability)},
              {"events", std::move(events)}};
}

Json StepsJson(const std::vector<std::pair<SimTime, int64_t>>& steps) {
  Json out = Json::array();
  for (const auto& [at, count] : steps) out.push_back({Micro(at.seconds()), count});
  return out;
}

Json AutoscalingJson(const AutoscalingMetrics& a) {
  Json groups = Json::object();
  for (const NodeGroupMetrics& g : a.groups) {
    groups[g.pool] = {{"capacity_type", g.capacity_type},
                      {"price_per_hour", Micro(g.price_per_hour)},
                      {"min", g.min},
                      {"max", g.max},
                      {"peak_nodes", g.peak_nodes},
                      {"node_hours", Micro(g.node_hours)},
                      {"cost", Micro(g.cost)},
                      {"scale_ups", g.scale_ups},
                      {"nodes_launched", g.nodes_launched},
                      {"nodes_terminated", g.nodes_terminated},
                      {"provision_failures", g.provision_failures},
                      {"drains_aborted", g.drains_aborted},
                      {"spot_reclaims", g.spot_reclaims},
                      {"billed_nodes", StepsJson(g.billed_nodes)},
                      {"ready_nodes", StepsJson(g.ready_nodes)}};
  }
  return Json{{"node_hours", Micro(a.node_hours)},
              {"cost", Micro(a.cost)},
              {"cost_per_month", Micro(a.cost_per_month())},
              {"on_demand_cost", Micro(a.on_demand_cost)},
              {"spot_cost", Micro(a.spot_cost)},
              {"fixed_node_hours", Micro(a.fixed_node_hours)},
              {"fixed_cost", Micro(a.fixed_cost)},
              {"cost_per_completed_pod",
               a.cost_per_completed_pod ? Json(Micro(*a.cost_per_completed_pod)) : Json(nullptr)},
              {"requests", a.requests ? Json(Micro(*a.requests)) : Json(nullptr)},
              {"cost_per_1000_requests",
               a.cost_per_1000_requests ? Json(Micro(*a.cost_per_1000_requests)) : Json(nullptr)},
              {"node_groups", std::move(groups)}};
}

Json EnergyJson(const EnergyMetrics& e) {
  Json models = Json::object();
  for (const ModelEnergy& m : e.models) models[m.model] = Micro(m.kwh);
  return Json{{"kwh", Micro(e.kwh)},
              {"gpu_kwh", Micro(e.gpu_kwh)},
              {"allocated_idle_kwh", Micro(e.allocated_idle_kwh)},
              {"node_kwh", Micro(e.node_kwh)},
              {"mean_watts", Micro(e.mean_watts)},
              {"cost", Micro(e.cost)},
              {"co2_kg", Micro(e.co2_kg)},
              {"pue", e.pue},
              {"price_per_kwh", e.price_per_kwh},
              {"grid_gco2_per_kwh", e.grid_gco2_per_kwh},
              {"gpu_kwh_by_model", std::move(models)}};
}

Json MigJson(const MigMetrics& m) {
  return Json{{"fragmentation", Micro(m.fragmentation)},
              {"reconfiguration_windows", m.reconfiguration_windows},
              {"instances_created", m.instances_created},
              {"instances_destroyed", m.instances_destroyed},
              {"creation_s", Micro(m.creation_s)}};
}

}  // namespace

std::string FormatResultsJson(const RunReport& report) {
  Json root;
  root["scenario"] = report.file->name;
  root["description"] = report.file->description;
  root["file"] = report.file->path;
  Json variants = Json::array();
  const bool has_dra = HasDraPool(*report.file);
  for (size_t i = 0; i < report.variants.size(); ++i) {
    const VariantResult& v = report.variants[i];
    Json nodes = Json::array();
    for (const NodeRecord& n : v.nodes) nodes.push_back(NodeJson(n));
    Json seed = nullptr;
    for (const auto& [name, scenario] : report.file->variants) {
      if (name == v.name) seed = scenario.seed;
    }
    Json variant{{"name", v.name},
                 {"policy", v.policy},
                 {"seed", seed},
                 {"policy_decisions", v.policy_decisions},
                 {"rejected_decisions", v.rejected_decisions},
                 {"first_rejection",
                  v.first_rejection.empty() ? Json(nullptr) : Json(v.first_rejection)},
                 {"metrics", MetricsJson(v.metrics)},
                 {"nodes", std::move(nodes)}};
    if (!v.theory.empty()) variant["queueing_theory"] = TheoryJson(v.theory);
    if (v.gangs) variant["gangs"] = GangsJson(*v.gangs);
    if (v.faults) variant["faults"] = FaultsJson(*v.faults);
    if (v.autoscaling) variant["autoscaling"] = AutoscalingJson(*v.autoscaling);
    if (has_dra) variant["metrics"]["mig"] = MigJson(v.metrics.mig);
    variant["energy"] = EnergyJson(v.energy);
    variants.push_back(std::move(variant));
  }
  root["variants"] = std::move(variants);
  // A scenario path may hold bytes that are not UTF-8: written as U+FFFD, not a crash.
  return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace migsim
