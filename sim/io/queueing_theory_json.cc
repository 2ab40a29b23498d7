// `queueing_theory`: the exact formula a scenario's run is compared with. The loader
// derives the formula's inputs from the scenario and refuses a scenario that is not the
// model the formula assumes, naming what differs.

#include <algorithm>

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

struct ModelName {
  std::string_view name;
  QueueingModel model;
};
constexpr ModelName kModels[] = {{"erlang-c", QueueingModel::kErlangC},
                                 {"cobham", QueueingModel::kCobham},
                                 {"pollaczek-khinchine", QueueingModel::kPollaczekKhinchine},
                                 {"mg1-sjf", QueueingModel::kMg1Sjf}};

std::optional<QueueingModel> ReadModel(LoadContext* ctx, ObjectReader& r) {
  const std::string name = r.NonEmptyString("model");
  std::vector<std::string> names;
  for (const ModelName& m : kModels) {
    if (m.name == name) return m.model;
    names.emplace_back(m.name);
  }
  if (ctx->ok()) ctx->Fail(r.Field("model").pointer(), UnknownNameMessage("model", name, names));
  return std::nullopt;
}

const TraceSpec* FindArrivals(const Scenario& s, const std::string& name) {
  for (const WorkloadSpec& w : s.workloads) {
    const auto* trace = std::get_if<TraceSpec>(&w);
    if (trace != nullptr && trace->name == name && trace->arrivals) return trace;
  }
  return nullptr;
}

// Whole GPUs, no MIG and no sharing on every node: their count, or "" and an error.
std::string ServersProblem(const ClusterSpec& cluster, int* servers) {
  *servers = 0;
  for (const NodeSpec& node : cluster.nodes) {
    for (const GpuMigSetting& gpu : node.gpus) {
      if (gpu.mig_enabled)
        return "node " + node.name +
               " has MIG enabled: the model's servers "
               "are whole GPUs";
    }
    if (node.plugin.sharing != SharingMode::kNone) {
      return "node " + node.name + " shares its GPUs: the model's servers are whole GPUs";
    }
    *servers += node.type->gpu_count;
  }
  return *servers > 0 ? "" : "the cluster has no GPU";
}

// One whole GPU, no selector, a drawn run time: what the model's jobs are.
std::string ClassProblem(const Scenario& s, const ArrivalsModel::Class& c) {
  const PodTemplate& t = s.templates[c.tmpl.value()];
  const ResourceId gpu = s.resources.Find("nvidia.com/gpu");
  const bool one_gpu = t.requests.extended.size() == 1 && t.requests.extended[0].resource == gpu &&
                       t.requests.extended[0].count == 1;
  const std::string which = c.name.empty() ? "the pods" : "class '" + c.name + "'";
  if (!one_gpu) return which + " must request exactly nvidia.com/gpu: 1";
  if (!t.node_selector.empty()) return which + " must have no node_selector";
  if (!c.run) return which + " must have a run_time, not a job class";
  return "";
}

// The model's assumptions about run times and the queue order, or "".
std::string DisciplineProblem(const Scenario& s, QueueingModel model, const ArrivalsModel& a,
                              int servers) {
  const bool exponential = std::all_of(a.classes.begin(), a.classes.end(), [&](const auto& c) {
    return c.run->exponential() && c.run->Mean() == a.classes.front().run->Mean();
  });
  if (model != QueueingModel::kPollaczekKhinchine && !exponential) {
    return "the model needs exponential run times of one mean for every class";
  }
  if ((model == QueueingModel::kPollaczekKhinchine || model == QueueingModel::kMg1Sjf) &&
      servers != 1) {
    return "M/G/1 needs exactly one GPU in the cluster (it has " + std::to_string(servers) + ")";
  }
  if (model == QueueingModel::kMg1Sjf) {
    return s.queue_order == "sjf" ? "" : "mg1-sjf needs scheduler.queue_order 'sjf'";
  }
  if (model == QueueingModel::kCobham) {
    if (s.queue_order != "priority") return "cobham needs scheduler.queue_order 'priority'";
    for (const auto& c : a.classes) {
      if (s.templates[c.tmpl.value()].preempts) {
        return "cobham is non-preemptive: class '" + c.name +
               "' needs a priority class with preemptionPolicy Never";
      }
    }
    return "";
  }
  return s.queue_order == "sjf" ? "a FIFO model needs scheduler.queue_order 'fifo' or 'priority'"
                                : "";
}

// Rates by class, highest priority first (Cobham), or the total (the other models).
void FillRates(const Scenario& s, double rate, const ArrivalsModel& a, QueueingTheorySpec* spec) {
  spec->mean_s = spec->second_moment_s2 = 0;
  for (const auto& c : a.classes) {
    spec->mean_s += c.fraction * c.run->Mean();
    spec->second_moment_s2 += c.fraction * c.run->SecondMoment();
  }
  if (spec->model != QueueingModel::kCobham) {
    spec->classes = {"all"};
    spec->lambdas = {rate};
    return;
  }
  std::vector<const ArrivalsModel::Class*> order;
  for (const auto& c : a.classes) order.push_back(&c);
  auto priority = [&](const ArrivalsModel::Class* c) {
    return s.templates[c->tmpl.value()].priority;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto* x, const auto* y) { return priority(x) > priority(y); });
  for (const auto* c : order) {
    const int32_t klass = s.templates[c->tmpl.value()].priority_class;
    spec->classes.push_back(klass >= 0 ? s.priority_classes[klass].name : "(none)");
    spec->lambdas.push_back(rate * c->fraction);
  }
}

std::string CobhamClassesProblem(const Scenario& s, const ArrivalsModel& a) {
  std::vector<int32_t> seen;
  for (const auto& c : a.classes) {
    const PodTemplate& t = s.templates[c.tmpl.value()];
    if (t.priority_class < 0) return "class '" + c.name + "' needs a priorityClassName";
    if (std::find(seen.begin(), seen.end(), t.priority) != seen.end()) {
      return "two classes have priority " + std::to_string(t.priority) +
             ": give each class its own priority";
    }
    seen.push_back(t.priority);
  }
  return "";
}

}  // namespace

void LoadQueueingTheory(LoadContext* ctx, const JsonRef& ref, Scenario* scenario) {
  ObjectReader r(ctx, ref, {"model", "arrivals"});
  if (!r.valid()) return;
  QueueingTheorySpec spec;
  const std::optional<QueueingModel> model = ReadModel(ctx, r);
  spec.workload = r.NonEmptyString("arrivals");
  if (!model || !ctx->ok()) return;
  spec.model = *model;
  const TraceSpec* trace = FindArrivals(*scenario, spec.workload);
  if (trace == nullptr) {
    ctx->Fail(r.Field("arrivals").pointer(),
              "no workload '" + spec.workload + "' of kind Arrivals");
    return;
  }
  const ArrivalsModel& a = *trace->arrivals;
  std::string problem;
  if (scenario->workloads.size() != 1) problem = "the Arrivals workload must be the only one";
  if (problem.empty() && !a.rate_per_s) problem = "the model needs a constant rate_per_s";
  for (const auto& c : a.classes) {
    if (problem.empty()) problem = ClassProblem(*scenario, c);
  }
  if (problem.empty()) problem = ServersProblem(scenario->cluster, &spec.servers);
  if (problem.empty()) problem = DisciplineProblem(*scenario, spec.model, a, spec.servers);
  if (problem.empty() && spec.model == QueueingModel::kCobham) {
    problem = CobhamClassesProblem(*scenario, a);
  }
  if (problem.empty()) {
    FillRates(*scenario, *a.rate_per_s, a, &spec);
    if (*a.rate_per_s * spec.mean_s >= spec.servers) {
      problem = "the offered load is at or above the cluster's GPUs (rho >= 1): no steady state";
    }
  }
  if (!problem.empty()) {
    ctx->Fail(ref.pointer(), "not the model's scenario: " + problem);
    return;
  }
  scenario->queueing_theory = std::move(spec);
}

}  // namespace migsim::io
