#include "sim/python/results.h"

#include <optional>
#include <vector>

namespace migsim::python {
namespace py = pybind11;
namespace {

py::object Optional(const std::optional<double>& v) {
  return v ? py::object(py::float_(*v)) : py::object(py::none());
}
py::object Seconds(const std::optional<SimTime>& t) {
  return t ? py::object(py::float_(t->seconds())) : py::object(py::none());
}

py::dict Stats(const LatencyStats& s) {
  py::dict d;
  d["mean"] = s.mean_s, d["p50"] = s.p50_s, d["p95"] = s.p95_s, d["p99"] = s.p99_s;
  d["max"] = s.max_s, d["count"] = s.count;
  return d;
}

py::dict Jobs(const JobStats& j) {
  py::dict d;
  d["completed"] = j.completed, d["failed"] = j.failed, d["unfinished"] = j.unfinished;
  d["completion_time_s"] = Stats(j.completion), d["slowdown"] = Stats(j.slowdown);
  return d;
}

// As in the JSON output: jobs, GPU-hours, tenants by namespace, Jain's index or None.
void AddJobsAndTenants(const RunMetrics& m, py::dict& out) {
  py::dict tenants;
  for (const TenantUsage& t : m.tenants) {
    py::dict d;
    d["pods"] = t.pods, d["gpu_hours"] = t.gpu_hours, d["gpu_share"] = t.gpu_share;
    d["jobs"] = Jobs(t.jobs);
    tenants[py::str(t.name)] = d;
  }
  out["jobs"] = Jobs(m.jobs);
  out["gpu_hours"] = m.gpu_hours;
  out["tenants"] = tenants;
  out["jain_fairness_index"] = Optional(m.jain_index);
}

py::dict WaitingGroups(const std::vector<WaitingGroup>& groups) {
  py::dict out;
  for (const WaitingGroup& g : groups) {
    py::dict d;
    d["pods"] = g.pods, d["deleted_unbound"] = g.deleted_unbound;
    d["never_bound"] = g.never_bound, d["longest_wait_s"] = g.longest_wait_s;
    d["pending_peak"] = g.pending.peak, d["pending_mean"] = g.pending.mean;
    out[py::str(g.name)] = d;
  }
  return out;
}

// As the JSON output's "unserved".
py::dict Unserved(const UnservedDemand& u) {
  py::dict d;
  d["deleted_unbound"] = u.deleted_unbound;
  d["deleted_unbound_wait_s"] = Stats(u.deleted_unbound_wait);
  d["never_bound"] = u.never_bound, d["longest_wait_s"] = u.longest_wait_s;
  d["pending_peak"] = u.pending.peak, d["pending_mean"] = u.pending.mean;
  d["workloads"] = WaitingGroups(u.workloads), d["namespaces"] = WaitingGroups(u.namespaces);
  return d;
}

py::dict Metrics(const RunMetrics& m) {
  py::dict latency;
  latency["mean"] = m.queueing.mean_s, latency["p50"] = m.queueing.p50_s;
  latency["p95"] = m.queueing.p95_s, latency["p99"] = m.queueing.p99_s;
  latency["max"] = m.queueing.max_s, latency["count"] = m.queueing.count;
  py::dict pods;
  pods["submitted"] = m.pods.submitted, pods["completed"] = m.pods.completed;
  pods["failed"] = m.pods.failed, pods["running"] = m.pods.running;
  pods["pending"] = m.pods.pending, pods["deleted"] = m.pods.deleted;
  pods["restarts"] = m.pods.restarts;
  // As in the JSON output: no unit is null.
  const py::object unit = m.work_unit.empty() ? py::object(py::none()) : py::str(m.work_unit);
  py::dict out;
  out["makespan_s"] = Optional(m.makespan_s);
  out["queueing_latency_s"] = latency;
  out["gpu_allocation_ratio"] = m.gpu_allocation_ratio;
  out["gpu_compute_utilization"] = m.gpu_compute_utilization;
  out["run_time_s"] = py::dict(py::arg("mean") = m.mean_run_s);
  out["throughput"] =
      py::dict(py::arg("per_s") = m.throughput_per_s,
               py::arg("per_pod_per_s") = m.pod_throughput_per_s, py::arg("unit") = unit);
  out["pods"] = pods;
  out["end_s"] = m.end_s;
  out["preemption"] = py::dict(py::arg("preemptions") = m.preemptions,
                               py::arg("gpu_hours_lost") = m.gpu_hours_lost_to_preemption);
  out["unserved"] = Unserved(m.unserved);
  AddJobsAndTenants(m, out);
  return out;
}

// One list per column, in pod order; times in seconds.
py::dict PodTable(const std::vector<PodRecord>& pods) {
  py::list name, owner, node, device, created, bound, started, ended, state, reason, restarts,
      throughput, slowdown, wait;
  for (const PodRecord& p : pods) {
    name.append(p.name), owner.append(p.owner), node.append(p.node), device.append(p.device);
    created.append(p.created.seconds()), bound.append(Seconds(p.bound));
    started.append(Seconds(p.started)), ended.append(Seconds(p.ended));
    state.append(p.state), reason.append(p.reason), restarts.append(p.restarts);
    throughput.append(Optional(p.throughput_per_s)), slowdown.append(Optional(p.slowdown));
    wait.append(p.wait.seconds());
  }
  py::dict t;
  t["name"] = name, t["owner"] = owner, t["node"] = node, t["device"] = device;
  t["created_s"] = created, t["bound_s"] = bound, t["started_s"] = started;
  t["ended_s"] = ended, t["state"] = state, t["reason"] = reason, t["restarts"] = restarts;
  t["throughput_per_s"] = throughput, t["slowdown"] = slowdown, t["wait_s"] = wait;
  return t;
}

// As the results JSON's "faults" (README "Output"), without the events.
py::dict Faults(const FaultMetrics& f) {
  py::dict killed, availability;
  for (const KillsByCause& k : f.killed) {
    killed[py::str(k.cause)] =
        py::dict(py::arg("pods") = k.pods, py::arg("workloads") = k.workloads);
  }
  for (const PoolAvailability& a : f.availability) {
    availability[py::str(a.pool)] =
        py::dict(py::arg("gpus") = a.gpus, py::arg("mean") = a.mean, py::arg("min") = a.min);
  }
  py::dict out;
  out["faults"] = f.faults;
  out["gpu_hours_lost"] = f.gpu_hours_lost;
  out["goodput"] = Optional(f.goodput);
  out["killed"] = killed;
  out["time_to_recover_s"] =
      py::dict(py::arg("mean") = f.time_to_recover.mean_s, py::arg("max") = f.time_to_recover.max_s,
               py::arg("count") = f.time_to_recover.count);
  out["unrecovered"] = f.unrecovered;
  out["availability"] = availability;
  return out;
}

// As the results JSON's "energy" (README "Energy (every run)").
py::dict Energy(const EnergyMetrics& e) {
  py::dict by_model;
  for (const ModelEnergy& m : e.models) by_model[py::str(m.model)] = m.kwh;
  py::dict out;
  out["kwh"] = e.kwh, out["gpu_kwh"] = e.gpu_kwh, out["allocated_idle_kwh"] = e.allocated_idle_kwh;
  out["node_kwh"] = e.node_kwh, out["mean_watts"] = e.mean_watts, out["cost"] = e.cost;
  out["co2_kg"] = e.co2_kg, out["pue"] = e.pue, out["price_per_kwh"] = e.price_per_kwh;
  out["grid_gco2_per_kwh"] = e.grid_gco2_per_kwh, out["gpu_kwh_by_model"] = by_model;
  return out;
}

}  // namespace

py::dict ResultDict(const VariantResult& r, uint64_t seed) {
  py::dict out;
  out["name"] = r.name, out["policy"] = r.policy, out["seed"] = seed;
  out["metrics"] = Metrics(r.metrics);
  if (r.faults) out["faults"] = Faults(*r.faults);
  out["energy"] = Energy(r.energy);
  out["policy_decisions"] = r.policy_decisions;
  out["rejected_decisions"] = r.rejected_decisions;
  out["first_rejection"] =
      r.first_rejection.empty() ? py::object(py::none()) : py::object(py::str(r.first_rejection));
  out["pods"] = PodTable(r.pods);
  return out;
}

}  // namespace migsim::python
