// The `migsim` Python module: load a scenario, run it (optionally under a policy written
// in Python), get the metrics as plain dicts and the pods as a columnar table that
// pandas.DataFrame takes as it is. See sim/python/README.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "sim/io/scenario_json.h"
#include "sim/python/python_policy.h"
#include "sim/python/python_view.h"
#include "sim/study/run.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

ScenarioFile Load(const std::string& path) {
  Result<ScenarioFile> loaded = LoadScenarioFile(path);
  if (!loaded.ok()) throw py::value_error(loaded.status().ToString());
  return std::move(loaded).value();
}

py::object Optional(const std::optional<double>& v) {
  return v ? py::object(py::float_(*v)) : py::object(py::none());
}
py::object Seconds(const std::optional<SimTime>& t) {
  return t ? py::object(py::float_(t->seconds())) : py::object(py::none());
}

// The metrics under the names of the JSON output (README "JSON").
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
  py::dict out;
  out["makespan_s"] = Optional(m.makespan_s);
  out["queueing_latency_s"] = latency;
  out["gpu_allocation_ratio"] = m.gpu_allocation_ratio;
  out["gpu_compute_utilization"] = m.gpu_compute_utilization;
  out["run_time_s"] = py::dict(py::arg("mean") = m.mean_run_s);
  out["throughput"] =
      py::dict(py::arg("per_s") = m.throughput_per_s,
               py::arg("per_pod_per_s") = m.pod_throughput_per_s, py::arg("unit") = m.work_unit);
  out["pods"] = pods;
  out["end_s"] = m.end_s;
  return out;
}

// One list per column, in pod order (the pods CSV's columns, times in seconds).
py::dict PodTable(const std::vector<PodRecord>& pods) {
  py::list name, owner, node, device, created, bound, started, ended, state, reason, restarts,
      throughput, slowdown;
  for (const PodRecord& p : pods) {
    name.append(p.name), owner.append(p.owner), node.append(p.node), device.append(p.device);
    created.append(p.created.seconds()), bound.append(Seconds(p.bound));
    started.append(Seconds(p.started)), ended.append(Seconds(p.ended));
    state.append(p.state), reason.append(p.reason), restarts.append(p.restarts);
    throughput.append(Optional(p.throughput_per_s)), slowdown.append(Optional(p.slowdown));
  }
  py::dict t;
  t["name"] = name, t["owner"] = owner, t["node"] = node, t["device"] = device;
  t["created_s"] = created, t["bound_s"] = bound, t["started_s"] = started;
  t["ended_s"] = ended, t["state"] = state, t["reason"] = reason, t["restarts"] = restarts;
  t["throughput_per_s"] = throughput, t["slowdown"] = slowdown;
  return t;
}

py::dict RunOne(const std::string& name, const Scenario& scenario, const py::object& policy) {
  VariantResult r;
  if (policy.is_none()) {
    r = RunVariant(name, scenario, {.collect_pods = true});
  } else {
    PythonPolicy wrapped(policy);
    r = RunVariant(name, scenario, wrapped, {.collect_pods = true});
    if (std::optional<py::error_already_set> e = wrapped.TakeError()) throw *e;
  }
  py::dict out;
  out["name"] = r.name, out["policy"] = r.policy, out["metrics"] = Metrics(r.metrics);
  out["rejected_decisions"] = r.rejected_decisions;
  out["pods"] = PodTable(r.pods);
  return out;
}

py::list Run(const py::object& scenario, const std::optional<std::string>& variant,
             const py::object& policy) {
  const ScenarioFile file = py::isinstance<py::str>(scenario) ? Load(scenario.cast<std::string>())
                                                              : scenario.cast<ScenarioFile>();
  py::list results;
  for (const auto& [name, s] : file.variants) {
    if (!variant || *variant == name) results.append(RunOne(name, s, policy));
  }
  if (variant && results.empty()) throw py::value_error("no variant '" + *variant + "'");
  return results;
}

}  // namespace

PYBIND11_MODULE(migsim, m) {
  m.doc() = "migsim: a discrete-event simulator of Kubernetes GPU clusters";
  py::class_<ScenarioFile>(m, "Scenario", "A loaded scenario file")
      .def_readonly("name", &ScenarioFile::name)
      .def_readonly("description", &ScenarioFile::description)
      .def_readonly("path", &ScenarioFile::path)
      .def_property_readonly("variants", [](const ScenarioFile& f) {
        py::list names;
        for (const auto& [name, s] : f.variants) names.append(name);
        return names;
      });
  BindViews(m);
  m.def("load", &Load, py::arg("path"),
        "Loads and validates a scenario file; ValueError names the file and JSON pointer.");
  m.def("run", &Run, py::arg("scenario"), py::arg("variant") = py::none(),
        py::arg("policy") = py::none(),
        "Runs every variant (or the one named) of a scenario (a path or a loaded Scenario), "
        "under its own policy or `policy`, a Python object; returns one dict per variant.");
}

}  // namespace migsim::python
