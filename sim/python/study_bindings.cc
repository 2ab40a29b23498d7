// migsim.sweep, migsim.plan and migsim.run_table (study_bindings.h).
#include "sim/python/study_bindings.h"

#include <pybind11/stl.h>

#include <functional>
#include <optional>
#include <string>

#include "sim/io/plan_json.h"
#include "sim/io/sweep_json.h"
#include "sim/python/python_policy.h"
#include "sim/python/study_stop.h"
#include "sim/python/table.h"
#include "sim/report/plan_report.h"
#include "sim/report/sweep_csv.h"
#include "sim/study/plan/plan_run.h"
#include "sim/study/sweep/sweep_run.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

// A path given as a str or an os.PathLike, as os.fspath takes it (TypeError otherwise).
std::string FsPath(const py::object& path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

// Python's warnings module, as migsim.run warns.
void Warn(const std::string& message) {
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) != 0) throw py::error_already_set();
}

// A study started from a policy's callback would be a second engine inside the first one's
// scheduling cycle (as for migsim.run).
void NotInCallback(const char* what) {
  if (InPolicyCallback()) {
    throw std::runtime_error(std::string("migsim.") + what +
                             " called from inside a policy callback: a policy cannot start "
                             "a study; run it before or after this one");
  }
}

// `jobs` as the CLI's --jobs: None or 0 for every core.
int Jobs(std::optional<int> jobs) {
  if (jobs && *jobs < 0) throw py::value_error("jobs: must be >= 0 (0: every core)");
  return jobs.value_or(0);
}

py::dict Sweep(const py::object& path, std::optional<int> jobs,
               const std::optional<std::string>& shard_text) {
  NotInCallback("sweep");
  const int workers = Jobs(jobs);
  std::optional<Shard> shard;
  if (shard_text) {
    Result<Shard> parsed = ParseShard(*shard_text, "shard");
    if (!parsed.ok()) throw py::value_error(parsed.status().ToString());
    shard = parsed.value();
  }
  const std::string file = FsPath(path);
  std::optional<Result<SweepFile>> sweep;
  {
    py::gil_scoped_release release;  // every point's scenario is read and checked
    sweep.emplace(LoadSweepFile(file));
  }
  if (!sweep->ok()) throw py::value_error(sweep->status().ToString());
  if (const std::string nothing = SeedAxisChangesNothing(sweep->value()); !nothing.empty()) {
    Warn("migsim: " + nothing);
  }
  StudyStop stop;
  const SweepRunOptions run{.threads = static_cast<int>(WorkerCount(workers)),
                            .shard = shard,
                            .on_run_done = nullptr,
                            .should_stop = std::ref(stop)};
  std::optional<SweepResults> results;
  {
    py::gil_scoped_release release;
    results.emplace(RunSweep(sweep->value(), run));
  }
  stop.RaiseIfSignalled();
  if (!results->overrun.empty()) {  // as the CLI: the sweep asked for it, bad input
    throw py::value_error(Status::InvalidArgument(results->overrun, {file, ""}).ToString());
  }
  for (const std::string& rejection : results->rejections) Warn("migsim: warning: " + rejection);
  return TableFromCsv(FormatSweepCsv(*results),
                      {.text = {"variant"}, .json = results->columns, .decimal = {}});
}

// plan.csv's first row, when its configuration met the objectives: the recommendation.
py::object Recommended(const py::dict& table) {
  const auto nodes = table["nodes"].cast<py::list>();
  if (nodes.empty() || nodes[0].is_none()) return py::none();
  py::dict row;
  for (const auto& [name, column] : table) {
    row[name] = column.cast<py::list>()[0].cast<py::object>();
  }
  return row;
}

py::dict Plan(const py::object& path, std::optional<int> jobs) {
  NotInCallback("plan");
  const int workers = Jobs(jobs);
  const std::string file = FsPath(path);
  std::optional<Result<PlanFile>> loaded;
  std::string nothing;
  {
    py::gil_scoped_release release;  // the scenario is read, and at the largest size
    loaded.emplace(LoadPlanFile(file));
    if (loaded->ok()) nothing = PlanSeedsChangeNothing(loaded->value());
  }
  if (!loaded->ok()) throw py::value_error(loaded->status().ToString());
  const PlanFile& plan = loaded->value();
  if (!nothing.empty()) Warn("migsim: " + nothing);
  StudyStop stop;
  const PlanRunOptions run{
      .jobs = workers, .on_evaluation = nullptr, .should_stop = std::ref(stop)};
  std::optional<PlanResult> result;
  {
    py::gil_scoped_release release;
    result.emplace(RunPlan(plan, run));
  }
  stop.RaiseIfSignalled();
  for (const std::string& note : UnservedNotes(*result)) Warn("migsim: warning: " + note);
  const std::vector<std::string> ratios = {"gpu_allocation_ratio", "gpu_compute_utilization"};
  py::dict out;
  const py::dict configurations = TableFromCsv(
      FormatPlanCsv(*result),
      {.text = {"configuration", "node_type", "note", "pools"}, .json = {}, .decimal = ratios});
  out["recommendation"] = Recommended(configurations);
  out["recommendation_text"] = FormatPlanRecommendation(*result);
  out["configurations"] = configurations;
  out["evidence"] = TableFromCsv(
      FormatEvidenceCsv(*result),
      {.text = {"configuration", "why_not"},
       .json = {},
       .decimal = {"gpu_allocation_ratio", "gpu_compute_utilization", "pending_mean"}});
  out["table"] = FormatPlanTable(*result);
  return out;
}

// One result dict (migsim.run with a variant) or a list of them.
py::dict RunTable(const py::object& results) {
  if (py::isinstance<py::dict>(results)) {
    py::list one;
    one.append(results);
    return TableFromResults(one);
  }
  return TableFromResults(py::list(results));
}

}  // namespace

void BindStudies(py::module_& m) {
  m.def("sweep", &Sweep, py::arg("path"), py::arg("jobs") = py::none(),
        py::arg("shard") = py::none(),
        "Runs a sweep file as `migsim sweep FILE --out DIR` does (`jobs` worker threads, "
        "None or 0 for every core; `shard` \"i/N\" for one shard) and returns sweep.csv as a "
        "table: a dict of equal-length column lists.");
  m.def("plan", &Plan, py::arg("path"), py::arg("jobs") = py::none(),
        "Runs a plan file as `migsim plan FILE --out DIR` does and returns a dict: "
        "'recommendation' (plan.csv's first row when it met the objectives, else None), "
        "'recommendation_text', 'configurations' (plan.csv) and 'evidence' (evidence.csv) as "
        "tables, and 'table', the text the CLI prints.");
  m.def("run_table", &RunTable, py::arg("results"),
        "The metrics of migsim.run's results (a dict or a list of them) as one table, one row "
        "per variant.");
}

}  // namespace migsim::python
