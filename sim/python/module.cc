// The `migsim` Python module: load a scenario, run it (under its own policy, a built-in
// one or one written in Python), get the metrics as plain dicts and the pods as a
// columnar table that pandas.DataFrame takes as it is. See sim/python/README.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "policies/queue/queue_orders.h"
#include "policies/registry.h"
#include "sim/core/check.h"
#include "sim/io/input_limits.h"
#include "sim/io/scenario_json.h"
#include "sim/python/interrupt.h"
#include "sim/python/openb_binding.h"
#include "sim/python/python_policy.h"
#include "sim/python/python_view.h"
#include "sim/python/results.h"
#include "sim/python/study_bindings.h"
#include "sim/study/random_draws.h"
#include "sim/study/run.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

ScenarioFile LoadPath(const std::string& path, std::optional<uint64_t> seed) {
  Result<ScenarioFile> loaded = LoadScenarioFile(path, {.seed = seed});
  if (!loaded.ok()) throw py::value_error(loaded.status().ToString());
  return std::move(loaded).value();
}

// A path given as a str or an os.PathLike (pathlib.Path), as Python's open() takes it.
std::string PathOf(const py::object& path) {
  if (!py::isinstance<py::str>(path) && !py::hasattr(path, "__fspath__")) {
    throw py::type_error("a scenario path must be a str or an os.PathLike");
  }
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

ScenarioFile Load(const py::object& path) { return LoadPath(PathOf(path), std::nullopt); }

// `scenario` as a loaded file: the Scenario object itself (kept alive by the caller's
// reference), or read from a path into `storage`. With a seed the file is read (again)
// with it, as `migsim run --seed` reads it: what the scenario draws while loading (an
// Arrivals workload's arrivals) must come from that seed too.
const ScenarioFile& File(const py::object& scenario, std::optional<uint64_t> seed,
                         std::optional<ScenarioFile>& storage) {
  if (py::isinstance<ScenarioFile>(scenario)) {
    const auto& loaded = scenario.cast<const ScenarioFile&>();
    return seed ? storage.emplace(LoadPath(loaded.path, seed)) : loaded;
  }
  return storage.emplace(LoadPath(PathOf(scenario), seed));
}

// Python's warnings module (shown on stderr once by default; an error under -W error).
void Warn(const std::string& message) {
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) != 0) throw py::error_already_set();
}

// A built-in policy by name, with its default parameters; one that draws at random draws
// from the run's seed, as in a scenario that does not give it one.
std::unique_ptr<Policy> BuiltIn(const std::string& name, uint64_t run_seed) {
  const PolicyInfo* info = FindPolicy(name);
  if (info == nullptr) {
    std::string known;
    for (const std::string& n : PolicyNames()) known += (known.empty() ? "" : ", ") + n;
    throw py::value_error("unknown policy '" + name + "' (known: " + known + ")");
  }
  for (const ParamSpec& p : info->params) {
    if (p.required) {
      throw py::value_error("policy '" + name + "' needs its parameter '" + p.name +
                            "': name it in a scenario file");
    }
  }
  PolicySpec spec = WithDefaults(PolicySpec{.name = name});
  SeedPolicyStream(&spec, run_seed);
  return MakePolicy(spec);
}

// A run past its budget (sim/engine/run_budget.h) stopped early: its results are partial,
// so it is the scenario's error (ValueError), as it is exit 2 for the CLI.
VariantResult Checked(VariantResult result) {
  if (result.overrun) {
    throw std::invalid_argument("variant " + result.name + ": " + OverrunMessage(*result.overrun));
  }
  return result;
}

// Runs one variant under `policy`: None (the scenario's), a built-in's name, or a Python
// object. Built-in policies run without the GIL, so other Python threads go on meanwhile.
// Ctrl-C (or another signal whose handler raises) stops the run between two event times
// and its exception comes out of here; so does a Python policy's, once it raised.
// With `queue_order` "policy" (or the scenario's scheduler.queue_order "policy") the run
// takes the queue order from `policy`, which must supply one (ValueError).
VariantResult RunOne(const std::string& name, const Scenario& scenario, const py::object& policy,
                     const std::optional<std::string>& queue_order) {
  RunOptions options{.collect_pods = true, .queue_order_from_policy = queue_order.has_value()};
  const std::string order_asked =
      queue_order ? "queue_order='policy'" : "scheduler.queue_order 'policy' of variant " + name;
  const bool order_of_policy = queue_order || scenario.queue_order == kPolicyQueueOrder;
  if (policy.is_none() || py::isinstance<py::str>(policy)) {
    std::unique_ptr<Policy> built_in = policy.is_none()
                                           ? MakeScenarioPolicy(scenario)
                                           : BuiltIn(policy.cast<std::string>(), scenario.seed);
    if (order_of_policy) RequireQueueOrder(*built_in, order_asked);
    Interrupt interrupt(nullptr, /*gil_released=*/true);
    options.should_stop = std::ref(interrupt);
    std::optional<VariantResult> result;
    {
      py::gil_scoped_release release;
      result.emplace(RunVariant(name, scenario, *built_in, options));
    }
    interrupt.RaiseIfSignalled();
    return Checked(std::move(*result));
  }
  PythonPolicy wrapped(policy, scenario.namespaces);
  if (order_of_policy) RequireQueueOrder(wrapped, order_asked);
  Interrupt interrupt(&wrapped, /*gil_released=*/false);
  options.should_stop = std::ref(interrupt);
  VariantResult result = RunVariant(name, scenario, wrapped, options);
  if (std::optional<py::error_already_set> e = wrapped.TakeError()) throw *e;
  interrupt.RaiseIfSignalled();
  return Checked(std::move(result));
}

// One dict for a named variant, else a list of them, one per variant in file order. A seed
// that changes nothing (the scenario draws nothing at random, and the policy is not a
// Python object, which may) is said once, as a warning.
py::object Run(const py::object& scenario, const std::optional<std::string>& variant,
               const py::object& policy, std::optional<uint64_t> seed,
               const std::optional<std::string>& queue_order) {
  if (queue_order && *queue_order != kPolicyQueueOrder) {
    throw py::value_error(
        "queue_order takes only 'policy' (the policy's own order); name "
        "another order in the scenario's scheduler.queue_order");
  }
  // The engine that called the policy is mid-run: a run started from there would be a
  // second engine on the same thread, inside the first one's scheduling cycle.
  if (InPolicyCallback()) {
    throw std::runtime_error(
        "migsim.run called from inside a policy callback (place, filter, score or less): a "
        "policy cannot start a run; run the other scenario before or after this one");
  }
  std::optional<ScenarioFile> storage;
  const ScenarioFile& file = File(scenario, seed, storage);
  if (seed && (policy.is_none() || py::isinstance<py::str>(policy))) {
    const std::vector<std::string> names =
        variant ? std::vector<std::string>{*variant} : std::vector<std::string>{};
    const std::string nothing = SeedChangesNothing(file, "seed " + std::to_string(*seed), names);
    if (!nothing.empty()) Warn("migsim: " + nothing);
  }
  py::list results;
  for (const auto& [name, s] : file.variants) {
    if (variant && *variant != name) continue;
    results.append(ResultDict(RunOne(name, s, policy, queue_order), s.seed));
  }
  if (!variant) return results;
  if (results.empty()) throw py::value_error("no variant '" + *variant + "' in " + file.path);
  return results[0];
}

// Raises one of the limits of README "Limits" for this process, as `--limit NAME=N` does for
// a command; ValueError names the limits on a bad name or value.
void SetLimit(const std::string& name, int64_t value) {
  if (Status s = io::SetInputLimit(name + "=" + std::to_string(value)); !s.ok()) {
    throw std::invalid_argument(s.message());
  }
}

}  // namespace

PYBIND11_MODULE(migsim, m) {
  m.doc() = "migsim: a discrete-event simulator of Kubernetes GPU clusters";
  m.attr("__version__") = MIGSIM_VERSION;  // CMake's project VERSION
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
  BindOpenb(m);
  // A broken invariant of migsim (sim/core/check.h) raises, instead of ending the
  // interpreter; memory exhausted is pybind11's MemoryError.
  py::register_exception<InternalError>(m, "InternalError", PyExc_RuntimeError);
  m.def("load", &Load, py::arg("path"),
        "Loads and validates a scenario file; ValueError names the file and JSON pointer.");
  m.def("set_limit", &SetLimit, py::arg("name"), py::arg("value"),
        "Sets one of the limits on what a scenario may create (README \"Limits\"), as the "
        "CLI's --limit NAME=N does, for the rest of the process. A run that goes past its "
        "budget raises ValueError rather than returning partial results.");
  m.def("policies", &PolicyNames, "The built-in policies' names (for run's `policy`).");
  m.def("run", &Run, py::arg("scenario"), py::arg("variant") = py::none(),
        py::arg("policy") = py::none(), py::arg("seed") = py::none(),
        py::arg("queue_order") = py::none(),
        "Runs a scenario (a path or a loaded Scenario) under its own policy, a built-in one "
        "(its name) or `policy`, a Python object; `seed` replaces the seed of the scenario and "
        "of every variant before it is read, as `migsim run --seed` does; queue_order='policy' "
        "takes the queue order from the policy (a Python object's less(a, b)) whatever the "
        "scenario's scheduler.queue_order says. Returns "
        "a dict for the named `variant`, else a list of dicts, one per variant.");
  BindStudies(m);
  BindScenarioTools(m);
}

}  // namespace migsim::python
