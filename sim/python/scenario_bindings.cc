// migsim.validate and migsim.import_cluster (study_bindings.h).
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/io/input_file.h"
#include "sim/io/k8s/snapshot_import.h"
#include "sim/io/scenario_json.h"
#include "sim/io/telemetry/telemetry_folder.h"
#include "sim/python/study_bindings.h"
#include "sim/study/scenario_facts.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

std::string FsPath(const py::object& path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

// `value`, or ValueError with the status's located message (file and JSON pointer, or
// file, document and path), as the CLI prints it before exit 2.
template <typename T>
T ValueOr(Result<T> result) {
  if (!result.ok()) throw py::value_error(result.status().ToString());
  return std::move(result).value();
}

py::list Strings(const std::vector<std::string>& lines) {
  py::list out;
  for (const std::string& line : lines) out.append(line);
  return out;
}

py::dict VariantDict(const VariantFacts& f) {
  py::list nodes;
  for (const NodeGroupFacts& g : f.nodes) {
    nodes.append(py::dict(py::arg("count") = g.count, py::arg("type") = g.type,
                          py::arg("mig_config") = g.mig_config,
                          py::arg("advertised") = g.advertised));
  }
  py::dict d;
  d["name"] = f.name, d["policy"] = f.policy, d["seed"] = f.seed;
  d["horizon_s"] = f.horizon_s ? py::object(py::float_(*f.horizon_s)) : py::object(py::none());
  d["nodes"] = nodes, d["reconfigurations"] = Strings(f.reconfigurations);
  d["provisioner"] =
      f.provisioner.empty() ? py::object(py::none()) : py::object(py::str(f.provisioner));
  d["node_groups"] = Strings(f.node_groups), d["shared_claims"] = Strings(f.shared_claims);
  d["workloads"] = Strings(f.workloads), d["warnings"] = Strings(f.warnings);
  d["text"] = FormatVariantFacts(f);
  return d;
}

py::dict Validate(const py::object& path, const std::vector<py::object>& manifests) {
  ScenarioLoadOptions options;
  for (const py::object& m : manifests) options.extra_manifests.push_back(FsPath(m));
  const std::string file_path = FsPath(path);
  std::optional<Result<ScenarioFile>> loaded;
  std::vector<VariantFacts> variants;
  {
    py::gil_scoped_release release;
    loaded.emplace(LoadScenarioFile(file_path, options));
    if (loaded->ok()) {
      for (const auto& [name, s] : loaded->value().variants) {
        variants.push_back(DescribeVariant(name, s));
      }
    }
  }
  const ScenarioFile file = ValueOr(std::move(*loaded));
  py::list facts;
  for (const VariantFacts& v : variants) facts.append(VariantDict(v));
  py::dict out;
  out["path"] = file.path, out["name"] = file.name, out["description"] = file.description;
  out["warnings"] = Strings(file.warnings), out["variants"] = facts;
  return out;
}

struct ImportInputs {
  std::string nodes, pods;
  std::optional<std::string> jobs, telemetry;
  k8s::SnapshotOptions options;
};

// As `migsim import` does: reads the files, then imports; the telemetry's report line
// (when a folder was given) in `telemetry_notice`. Runs without the GIL.
Result<k8s::SnapshotScenario> Import(ImportInputs& in, std::string* telemetry_notice) {
  Result<std::string> nodes = ReadInputFile(in.nodes);
  if (!nodes.ok()) return nodes.status();
  Result<std::string> pods = ReadInputFile(in.pods);
  if (!pods.ok()) return pods.status();
  if (in.jobs) {
    Result<std::string> jobs = ReadInputFile(*in.jobs);
    if (!jobs.ok()) return jobs.status();
    in.options.jobs_text = std::move(jobs).value();
    in.options.jobs_label = *in.jobs;
  }
  std::optional<telemetry::PodObservations> observed;
  if (in.telemetry) {
    Result<telemetry::PodObservations> read =
        telemetry::ReadTelemetryFolder(*in.telemetry, "telemetry", telemetry_notice);
    if (!read.ok()) return read.status();
    observed = std::move(read).value();
    in.options.telemetry = &*observed;
  }
  return k8s::ImportSnapshot(nodes.value(), in.nodes, pods.value(), in.pods, in.options);
}

py::dict ImportCluster(const py::object& nodes, const py::object& pods, const py::object& jobs,
                       const py::object& telemetry, const std::string& name, double run_s,
                       double horizon_s) {
  // The CLI's --run-s and --horizon-s take the same range (CLI::Range(0.0, 1e9)).
  for (const auto& [what, v] : {std::pair{"run_s", run_s}, std::pair{"horizon_s", horizon_s}}) {
    if (!(v >= 0 && v <= 1e9)) throw py::value_error(std::string(what) + ": must be in [0, 1e9]");
  }
  ImportInputs in{
      .nodes = FsPath(nodes),
      .pods = FsPath(pods),
      .jobs = jobs.is_none() ? std::nullopt : std::optional(FsPath(jobs)),
      .telemetry = telemetry.is_none() ? std::nullopt : std::optional(FsPath(telemetry)),
      .options = {}};
  in.options.name = name;
  in.options.run_s = run_s;
  in.options.horizon_s = horizon_s;
  std::string telemetry_notice;
  std::optional<Result<k8s::SnapshotScenario>> imported;
  {
    py::gil_scoped_release release;
    imported.emplace(Import(in, &telemetry_notice));
  }
  const k8s::SnapshotScenario scenario = ValueOr(std::move(*imported));
  std::vector<std::string> notices;
  if (!telemetry_notice.empty()) notices.push_back(telemetry_notice);
  notices.insert(notices.end(), scenario.notices.begin(), scenario.notices.end());
  py::dict out;
  out["scenario"] = py::module_::import("json").attr("loads")(scenario.json);
  out["json"] = scenario.json;
  out["warnings"] = Strings(scenario.warnings);
  out["notices"] = Strings(notices);
  return out;
}

}  // namespace

void BindScenarioTools(py::module_& m) {
  m.def("validate", &Validate, py::arg("path"), py::arg("manifests") = std::vector<py::object>{},
        "Checks a scenario as `migsim validate` does, without running it: ValueError names "
        "the file and JSON pointer; else a dict of what it would simulate, per variant.");
  m.def("import_cluster", &ImportCluster, py::arg("nodes"), py::arg("pods"),
        py::arg("jobs") = py::none(), py::arg("telemetry") = py::none(),
        py::arg("name") = "snapshot", py::arg("run_s") = 3600.0, py::arg("horizon_s") = 86400.0,
        "Turns a cluster snapshot (kubectl get nodes / pods -A -o json, optionally jobs and a "
        "folder of Prometheus exports) into a scenario as `migsim import` does: a dict with "
        "'scenario' (the JSON as a dict), 'json' (its text), 'warnings' and 'notices'.");
}

}  // namespace migsim::python
