// The `migsim` Python module: load a scenario, run it (under its own policy, a built-in
// one or one written in Python), get the metrics as plain dicts and the pods as a
// columnar table that pandas.DataFrame takes as it is. See sim/python/README.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "policies/registry.h"
#include "sim/io/scenario_json.h"
#include "sim/python/python_policy.h"
#include "sim/python/python_view.h"
#include "sim/python/results.h"
#include "sim/study/run.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

// A path given as a str or an os.PathLike (pathlib.Path), as Python's open() takes it.
ScenarioFile Load(const py::object& path) {
  if (!py::isinstance<py::str>(path) && !py::hasattr(path, "__fspath__")) {
    throw py::type_error("a scenario path must be a str or an os.PathLike");
  }
  const auto text = py::module_::import("os").attr("fspath")(path).cast<std::string>();
  Result<ScenarioFile> loaded = LoadScenarioFile(text);
  if (!loaded.ok()) throw py::value_error(loaded.status().ToString());
  return std::move(loaded).value();
}

// `scenario` as a loaded file: the Scenario object itself (kept alive by the caller's
// reference), or read from a path into `storage`.
const ScenarioFile& File(const py::object& scenario, std::optional<ScenarioFile>& storage) {
  if (py::isinstance<ScenarioFile>(scenario)) return scenario.cast<const ScenarioFile&>();
  return storage.emplace(Load(scenario));
}

// A built-in policy by name, with its default parameters.
std::unique_ptr<Policy> BuiltIn(const std::string& name) {
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
  return MakePolicy(name);
}

// Runs one variant under `policy`: None (the scenario's), a built-in's name, or a Python
// object. Built-in policies run without the GIL, so other Python threads go on meanwhile.
VariantResult RunOne(const std::string& name, const Scenario& scenario, const py::object& policy) {
  const RunOptions options{.collect_pods = true};
  if (policy.is_none()) {
    py::gil_scoped_release release;
    return RunVariant(name, scenario, options);
  }
  if (py::isinstance<py::str>(policy)) {
    std::unique_ptr<Policy> built_in = BuiltIn(policy.cast<std::string>());
    py::gil_scoped_release release;
    return RunVariant(name, scenario, *built_in, options);
  }
  PythonPolicy wrapped(policy);
  VariantResult result = RunVariant(name, scenario, wrapped, options);
  if (std::optional<py::error_already_set> e = wrapped.TakeError()) throw *e;
  return result;
}

// One dict for a named variant, else a list of them, one per variant in file order.
py::object Run(const py::object& scenario, const std::optional<std::string>& variant,
               const py::object& policy, std::optional<uint64_t> seed) {
  std::optional<ScenarioFile> storage;
  const ScenarioFile& file = File(scenario, storage);
  py::list results;
  for (const auto& [name, s] : file.variants) {
    if (variant && *variant != name) continue;
    std::optional<Scenario> reseeded;
    if (seed) reseeded.emplace(s).seed = *seed;
    const Scenario& run = reseeded ? *reseeded : s;
    results.append(ResultDict(RunOne(name, run, policy), run.seed));
  }
  if (!variant) return results;
  if (results.empty()) throw py::value_error("no variant '" + *variant + "' in " + file.path);
  return results[0];
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
  m.def("policies", &PolicyNames, "The built-in policies' names (for run's `policy`).");
  m.def("run", &Run, py::arg("scenario"), py::arg("variant") = py::none(),
        py::arg("policy") = py::none(), py::arg("seed") = py::none(),
        "Runs a scenario (a path or a loaded Scenario) under its own policy, a built-in one "
        "(its name) or `policy`, a Python object; `seed` replaces the scenario's. Returns "
        "a dict for the named `variant`, else a list of dicts, one per variant.");
}

}  // namespace migsim::python
