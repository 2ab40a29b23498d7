#include "sim/python/openb_binding.h"

#include <pybind11/stl.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/io/policy_file.h"
#include "sim/python/python_policy.h"
#include "sim/python/table.h"
#include "sim/report/fill_results.h"
#include "sim/study/openb/openb_campaign.h"
#include "sim/study/openb/openb_data_dir.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

template <typename T>
T Checked(Result<T> r) {
  if (!r.ok()) throw py::value_error(r.status().ToString());
  return std::move(r).value();
}

// A str, or a list (any iterable) of str.
std::vector<std::string> Strings(const py::object& given, const char* what) {
  if (py::isinstance<py::str>(given)) return {given.cast<std::string>()};
  std::vector<std::string> out;
  for (const py::handle item : given) {
    if (!py::isinstance<py::str>(item))
      throw py::type_error(std::string(what) + " must be strings");
    out.push_back(item.cast<std::string>());
  }
  return out;
}

// "42-51" as `migsim openb --seeds` reads it, or ints (range(42, 52)), checked alike.
std::vector<uint64_t> Seeds(const py::object& given) {
  std::string text;
  if (py::isinstance<py::str>(given)) {
    text = given.cast<std::string>();
  } else {
    for (const py::handle item : given) {
      if (!py::isinstance<py::int_>(item) || item.cast<py::int_>() < py::int_(0)) {
        throw py::type_error("seeds must be a str such as '42-51' or non-negative ints");
      }
      text += (text.empty() ? "" : ",") + py::str(item).cast<std::string>();
    }
  }
  return Checked(ParseSeedList(text, "seeds"));
}

// A Python object's decisions for one run (the fill's pods are all in namespace "default"); its
// exception, once it raised, goes to `error` (the first one kept) when the run ends, to be raised
// after the campaign.
class PythonRun final : public Policy {
 public:
  PythonRun(py::object policy, std::shared_ptr<std::optional<py::error_already_set>> error)
      : policy_(std::move(policy), {"default"}), error_(std::move(error)) {}
  ~PythonRun() override {
    if (std::optional<py::error_already_set> e = policy_.TakeError(); e && !*error_) {
      *error_ = std::move(e);
    }
  }
  std::string_view name() const override { return policy_.name(); }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override {
    return policy_.Place(view, pod);
  }

 private:
  PythonPolicy policy_;
  std::shared_ptr<std::optional<py::error_already_set>> error_;
};

// policies[i]: a built-in's name, a dict as a scenario's "policy", or a Python object.
FillPolicy PolicyOf(const py::handle& given, size_t i,
                    const std::shared_ptr<std::optional<py::error_already_set>>& error) {
  const std::string where = "policies[" + std::to_string(i) + "]";
  if (py::isinstance<py::str>(given))
    return Checked(NamedFillPolicy(given.cast<std::string>(), where));
  if (py::isinstance<py::dict>(given)) {
    const std::string json = py::module_::import("json").attr("dumps")(given).cast<std::string>();
    const LoadedPolicy loaded = Checked(LoadPolicyText(json, where));
    return SpecFillPolicy(loaded.spec, loaded.seeds_itself);
  }
  py::object object = py::reinterpret_borrow<py::object>(given);
  FillPolicy policy{.label = std::string(PythonPolicy(object, {"default"}).name()),
                    .one_thread = true};
  policy.make = [object, error](uint64_t) { return std::make_unique<PythonRun>(object, error); };
  return policy;
}

// One row per run: what the summary tables are computed from.
py::dict RunsTable(const std::vector<FillRun>& runs) {
  py::list workload, policy, seed, submitted, failed, refused;
  for (const FillRun& r : runs) {
    workload.append(r.workload), policy.append(r.config.policy), seed.append(r.config.seed);
    submitted.append(r.result.pods_submitted), failed.append(r.result.pods_failed);
    refused.append(r.result.answers_refused);
  }
  py::dict out;
  out["workload"] = workload, out["sc_policy"] = policy, out["seed"] = seed;
  out["pods_submitted"] = submitted, out["pods_failed"] = failed;
  out["answers_refused"] = refused;
  return out;
}

// The data directory as the CLI finds it, with the module's directory's parent in the
// executable's place (build/python/migsim.so stands for build/migsim).
OpenbDataDir DataDir(const py::object& data) {
  const std::string given =
      data.is_none() ? "" : py::module_::import("os").attr("fspath")(data).cast<std::string>();
  const char* env = std::getenv("MIGSIM_OPENB_DIR");
  const std::filesystem::path module =
      py::module_::import("migsim").attr("__file__").cast<std::string>();
  return FindOpenbDataDir(given, env != nullptr ? env : "",
                          module.parent_path().parent_path().string());
}

py::dict Openb(const py::object& traces, const py::object& policies, const py::object& seeds,
               double tune, const py::object& data, const std::optional<std::string>& nodes,
               std::optional<int> jobs) {
  if (InPolicyCallback())
    throw std::runtime_error("migsim.openb called from inside a policy callback");
  if (!(tune > 0 && tune <= 10)) throw py::value_error("tune: must be in (0, 10]");
  if (jobs && *jobs < 0) throw py::value_error("jobs: must be >= 0 (0: every core)");
  const CampaignOptions options{.seeds = Seeds(seeds),
                                .tune = tune,
                                .threads = static_cast<int>(WorkerCount(jobs.value_or(0))),
                                .progress = {}};
  auto error = std::make_shared<std::optional<py::error_already_set>>();
  const bool one = py::isinstance<py::str>(policies) || py::isinstance<py::dict>(policies);
  const py::list given = one ? py::list(py::make_tuple(policies)) : py::list(policies);
  std::vector<FillPolicy> fill;
  std::vector<std::string> origins;
  bool python = false;  // some policy is a Python object
  for (const py::handle p : given) {
    fill.push_back(PolicyOf(p, fill.size(), error));
    origins.push_back("policies[" + std::to_string(origins.size()) + "]");
    python = python || (!py::isinstance<py::str>(p) && !py::isinstance<py::dict>(p));
  }
  if (fill.empty()) throw py::value_error("policies: give at least one");
  if (Status s = CheckUniqueLabels(fill, origins); !s.ok()) throw py::value_error(s.ToString());
  const OpenbDataDir dir = DataDir(data);
  const OpenbInputs inputs = Checked(LoadOpenbInputs(
      {dir.dir, nodes.value_or(""), Strings(traces, "traces"), dir.LookedMessage()}));
  if (Status s = CheckFillPolicies(inputs, fill); !s.ok()) throw py::value_error(s.ToString());
  std::vector<FillRun> runs;
  if (python) {
    runs = RunFillCampaign(inputs, fill, options);  // Python objects need the GIL held
  } else {
    py::gil_scoped_release release;
    runs = RunFillCampaign(inputs, fill, options);
  }
  if (*error) throw **error;
  py::dict out;
  out["alloc_discrete"] = TableFromCsv(FormatAllocCsv(runs), {});
  out["frag_discrete"] = TableFromCsv(FormatFragCsv(runs), {});
  out["frag_ratio_discrete"] = TableFromCsv(FormatFragRatioCsv(runs), {});
  out["failed_pods"] = TableFromCsv(FormatFailedCsv(runs), {});
  out["final_state"] = TableFromCsv(FormatFinalStateCsv(runs), {});
  out["runs"] = RunsTable(runs);
  return out;
}

}  // namespace

void BindOpenb(py::module_& m) {
  m.def("openb", &Openb, py::arg("traces") = std::vector<std::string>{"default"},
        py::arg("policies") = std::vector<std::string>{"fgd"}, py::arg("seeds") = "42-51",
        py::arg("tune") = 1.3, py::arg("data") = py::none(), py::arg("nodes") = py::none(),
        py::arg("jobs") = py::none(),
        "The ATC'23 fill experiment of `migsim openb` (traces x policies x seeds). A policy is "
        "a built-in's name, a dict in the form of a scenario's \"policy\" (a plugin library, "
        "params, a scored combination) or a Python object. Returns the CLI's CSVs as columnar "
        "tables (alloc_discrete, frag_discrete, frag_ratio_discrete, failed_pods, final_state) "
        "and runs (one row per run).");
}

}  // namespace migsim::python
