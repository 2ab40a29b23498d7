#include "sim/study/run.h"

#include <algorithm>
#include <cstdio>

#include "policies/queue/queue_orders.h"
#include "policies/registry.h"
#include "sim/controllers/kueue/kueue_controller.h"
#include "sim/controllers/make_controllers.h"
#include "sim/core/check.h"
#include "sim/engine/engine.h"
#include "sim/io/input_limits.h"
#include "sim/metrics/job_completion.h"
#include "sim/metrics/kueue_metrics.h"
#include "sim/metrics/priority_latency.h"
#include "sim/metrics/tenant_share.h"
#include "sim/metrics/unserved_demand.h"
#include "sim/study/pod_summaries.h"
#include "workloads/controller_factory.h"
#include "workloads/job_rule.h"

namespace migsim {

namespace {

// The pods of the scenario's Pod workloads and traces (other kinds are not counted): what
// the engine reserves room for (EngineInputs::expected_pods).
size_t ExpectedPods(const Scenario& scenario) {
  size_t pods = 0;
  for (const WorkloadSpec& w : scenario.workloads) {
    if (const auto* group = std::get_if<PodGroupSpec>(&w)) {
      pods += static_cast<size_t>(group->count);
    }
    if (const auto* trace = std::get_if<TraceSpec>(&w)) pods += trace->entries.size();
  }
  return pods;
}

}  // namespace

EngineInputs MakeEngineInputs(const Scenario& scenario, Policy* order_source) {
  EngineInputs in;
  in.cluster = &scenario.cluster;
  in.resources = scenario.resources;
  in.job_classes = scenario.job_classes;
  in.templates = scenario.templates;
  for (const WorkloadSpec& w : scenario.workloads) in.controllers.push_back(MakeController(w));
  in.cluster_controllers = MakeClusterControllers(scenario.cluster, scenario.kueue);
  in.scheduler = scenario.scheduler;
  if (order_source != nullptr) {
    in.queue_order = order_source->SuppliedQueueOrder(
        QueueNames{.namespaces = scenario.namespaces, .resources = &scenario.resources});
    MIGSIM_CHECK(in.queue_order != nullptr, "the policy supplies no queue order");
  } else {
    MIGSIM_CHECK(scenario.queue_order != kPolicyQueueOrder,
                 "queue order 'policy' without the policy that supplies it");
    in.queue_order = MakeQueueOrder(scenario.queue_order, scenario.queue_params);
  }
  in.disruption_budgets = scenario.disruption_budgets;
  in.device_classes = scenario.device_classes;
  in.shared_claims = scenario.shared_claims;
  in.expected_pods = ExpectedPods(scenario);
  return in;
}

namespace {

NodeRecord RecordNode(const Engine& engine, const NodeInfo& info) {
  const NodeRuntime& runtime = engine.node_runtime(info.id);
  NodeRecord r;
  r.name = info.name;
  r.type = runtime.spec().type->name;
  r.labels = info.labels;
  r.cpu_milli = info.cpu_milli_allocatable;
  r.memory_mib = info.memory_mib_allocatable;
  for (const auto& [name, count] : runtime.plugin_view().advertised) {
    ResourceId id = engine.resources().Find(name);
    r.allocatable.emplace_back(name, info.Allocatable(id));
    r.allocated.emplace_back(name, info.Requested(id));
  }
  return r;
}

std::optional<SimTime> If(bool happened, SimTime t) {
  return happened ? std::optional<SimTime>(t) : std::nullopt;
}

// Throughput and slowdown of a completed pod (PodRecord).
void RecordSpeed(const Engine& engine, const Scenario& scenario, const Pod& pod, PodRecord& r) {
  const PodTemplate& t = engine.pod_template(pod.tmpl);
  if (pod.phase != PodPhase::kSucceeded || !t.job_class.valid()) return;
  const double run_s = (pod.ended - pod.started).seconds();
  if (run_s <= 0) return;
  const JobClass& jc = scenario.job_classes[t.job_class.value()];
  r.throughput_per_s = jc.work / run_s;
  const GpuModel* model = engine.node_runtime(pod.node).spec().type->gpu;
  if (model == nullptr) return;
  if (std::optional<SimTime> alone = RunTimeOnDevice(jc, model, "gpu");
      alone && alone->micros() > 0) {
    r.slowdown = run_s / alone->seconds();
  }
}

PodRecord RecordPod(const Engine& engine, const Pod& pod) {
  PodRecord r;
  r.name = engine.PodName(pod);
  r.owner = engine.OwnerName(pod);
  const bool bound = pod.node.valid();
  if (bound) {
    r.node = engine.nodes()[pod.node.value()].name;
    r.device = engine.DeviceName(pod);
  }
  r.created = pod.created;
  r.bound = If(bound, pod.bound);
  r.started = If(pod.has_started, pod.started);
  r.ended = If(pod.ended_already(), pod.ended);
  r.state = std::string(PhaseName(pod.phase));
  r.reason = std::string(EndReasonName(pod.reason));
  r.restarts = pod.restarts;
  r.wait = WaitOf(pod, engine.end_time());
  return r;
}

std::vector<TemplateWork> WorkPerTemplate(const Scenario& scenario) {
  std::vector<TemplateWork> work;
  for (const PodTemplate& t : scenario.templates) {
    if (!t.job_class.valid()) {
      work.emplace_back();
      continue;
    }
    const JobClass& jc = scenario.job_classes[t.job_class.value()];
    work.push_back({jc.work, jc.work_unit});
  }
  return work;
}

std::vector<int32_t> NamespaceOfTemplates(const Scenario& scenario) {
  std::vector<int32_t> out;
  out.reserve(scenario.templates.size());
  for (const PodTemplate& t : scenario.templates) out.push_back(t.namespace_index);
  return out;
}

}  // namespace

RunBudget CurrentRunBudget() {
  const io::InputLimits& limits = io::CurrentInputLimits();
  return RunBudget{.pods = limits.run_pods, .fault_hits = limits.fault_events};
}

std::string OverrunMessage(const BudgetOverrun& overrun) {
  const bool pods = overrun.item == BudgetItem::kPods;
  char at[64];
  std::snprintf(at, sizeof at, "%.6g", overrun.at.seconds());
  return "the run stopped at simulated time " + std::string(at) + " s: more than " +
         std::to_string(overrun.limit) + " " + std::string(BudgetItemName(overrun.item)) +
         (pods ? " (pods replaced or retried, or a Deployment scaled up and down, over and over)"
               : " (a failure process faster than its repairs)") +
         io::RaiseHint(pods ? "run-pods" : "fault-events");
}

std::string RejectionMessage(const VariantResult& result) {
  return std::to_string(result.rejected_decisions) + " of " +
         std::to_string(result.policy_decisions) +
         " decisions were rejected (first: " + result.first_rejection + ")";
}

std::unique_ptr<Policy> MakeScenarioPolicy(const Scenario& scenario) {
  std::unique_ptr<Policy> policy = MakePolicy(scenario.policy);
  MIGSIM_CHECK(policy != nullptr, ("unknown policy " + scenario.policy.label()).c_str());
  return policy;
}

VariantResult RunVariant(const std::string& name, const Scenario& scenario,
                         const RunOptions& options) {
  std::unique_ptr<Policy> policy = MakeScenarioPolicy(scenario);
  return RunVariant(name, scenario, *policy, options);
}

namespace {

// Whether a Deployment of `scenario` has a load (an HPA's metric): its cost per 1,000
// requests is then reported.
bool ServesLoad(const Scenario& scenario) {
  return std::any_of(scenario.workloads.begin(), scenario.workloads.end(),
                     [](const WorkloadSpec& w) {
                       const auto* d = std::get_if<DeploymentSpec>(&w);
                       return d != nullptr && d->load.has_value();
                     });
}

// The report's charts per Kueue queue and per namespace, with the timeline, where Kueue or
// several namespaces are in play.
std::optional<QueueTimelineRecorder> MakeQueueTimelineRecorder(const Scenario& scenario,
                                                               const RunOptions& options) {
  if (!options.collect_timeline || (!scenario.kueue && scenario.namespaces.size() < 2)) {
    return std::nullopt;
  }
  std::vector<std::string> queues;
  if (scenario.kueue) {
    for (const ClusterQueueSpec& q : scenario.kueue->cluster_queues) queues.push_back(q.name);
  }
  return std::optional<QueueTimelineRecorder>(std::in_place, NamespaceOfTemplates(scenario),
                                              std::move(queues), scenario.namespaces);
}

void AddRequests(const Scenario& scenario, SimTime end, AutoscalingMetrics& m) {
  std::optional<double> requests;
  for (const WorkloadSpec& w : scenario.workloads) {
    const auto* d = std::get_if<DeploymentSpec>(&w);
    if (d != nullptr && d->load) requests = requests.value_or(0) + d->load->Integral(d->at, end);
  }
  if (!requests) return;
  m.requests = requests;
  if (*requests > 0) m.cost_per_1000_requests = m.cost / (*requests / 1000);
}

}  // namespace

VariantResult RunVariant(const std::string& name, const Scenario& scenario, Policy& policy,
                         const RunOptions& options) {
  const bool order_of_policy =
      options.queue_order_from_policy || scenario.queue_order == kPolicyQueueOrder;
  const bool release = ExpectedPods(scenario) > options.exact_limit;
  Engine engine(MakeEngineInputs(scenario, order_of_policy ? &policy : nullptr), policy,
                EngineConfig{.seed = scenario.seed,
                             .horizon = scenario.horizon,
                             .measure_mig_fragmentation =
                                 HasDraPool(scenario) || options.measure_mig_fragmentation,
                             .should_stop = options.should_stop,
                             .budget = CurrentRunBudget(),
                             .release_ended_pods = release});
  const std::vector<TemplateWork> work = WorkPerTemplate(scenario);
  const std::vector<JobRule> rules = JobRules(scenario.workloads);
  VariantResult result;
  // A run that releases pods folds them in as it goes; one that keeps them all folds them
  // at its end, in PodId order, as the whole-list functions did.
  std::optional<PodSummaries> summaries;
  const auto start_summaries = [&](std::span<const double> claim_gpu_hours) {
    summaries.emplace(scenario, work, rules, claim_gpu_hours, options.exact_limit);
    if (!options.collect_pods) return;
    summaries->on_pod = [&](const Pod& pod) {
      PodRecord r = RecordPod(engine, pod);
      RecordSpeed(engine, scenario, pod, r);
      if (options.pod_sink) options.pod_sink(r);
      if (!release || result.pods.size() < kListedPods) result.pods.push_back(std::move(r));
    };
  };
  if (release) {
    start_summaries({});
    engine.AddObserver(&*summaries);
  }
  AllocationRecorder allocation;
  engine.AddObserver(&allocation);
  TimelineRecorder timeline;
  if (options.collect_timeline) engine.AddObserver(&timeline);
  PendingRecorder pending(NamespaceOfTemplates(scenario), scenario.workloads.size(),
                          scenario.namespaces.size());
  engine.AddObserver(&pending);
  for (EngineObserver* o : options.observers) engine.AddObserver(o);
  const bool has_faults =
      !scenario.cluster.faults.empty() || !scenario.cluster.fault_processes.empty();
  FaultRecorder faults;
  if (has_faults) engine.AddObserver(&faults);
  const bool autoscaled =
      !scenario.cluster.node_groups.empty() || options.measure_cost || ServesLoad(scenario);
  AutoscalingRecorder autoscaling(scenario.cluster);
  if (autoscaled) engine.AddObserver(&autoscaling);
  std::optional<QueueTimelineRecorder> queues = MakeQueueTimelineRecorder(scenario, options);
  if (queues) engine.AddObserver(&*queues);
  EnergyRecorder energy(scenario.cluster, scenario.energy);
  engine.SetNodeGpuUseObserver(&energy);
  // Nodes launched and terminated (OnNodeScaled); without node groups every node is up.
  if (!scenario.cluster.node_groups.empty()) engine.AddObserver(&energy);
  engine.Run();

  result.name = name;
  result.policy = std::string(policy.name());
  result.policy_decisions = engine.policy_decisions();
  result.rejected_decisions = engine.rejected_decisions();
  result.first_rejection = engine.first_rejection();
  result.overrun = engine.overrun();
  result.stopped = engine.stopped();
  if (result.stopped) return result;
  std::vector<double> claim_hours = engine.SharedClaimGpuHours(scenario.namespaces.size());
  if (!release) start_summaries(claim_hours);
  for (const Pod& pod : engine.pods()) summaries->Add(pod, engine.end_time());
  result.metrics = summaries->metrics(allocation, engine.end_time());
  result.metrics.preemptions = engine.counters().preemptions;
  result.metrics.mig = {.fragmentation = engine.mig_fragmentation(),
                        .reconfiguration_windows = engine.counters().mig_windows,
                        .instances_created = engine.counters().mig_instances_created,
                        .instances_destroyed = engine.counters().mig_instances_destroyed,
                        .creation_s = engine.counters().mig_creation_seconds};
  result.metrics.gpu_hours_lost_to_preemption = engine.counters().gpu_hours_lost_to_preemption();
  result.metrics.queueing_by_priority_class = summaries->priority_classes();
  if (const auto* kueue = FindController<KueueController>(engine.cluster_controllers())) {
    result.metrics.cluster_queues = KueueMetrics(*kueue, engine.end_time());
  }
  summaries->AddJobsAndTenants(release ? std::span<const double>(claim_hours)
                                       : std::span<const double>(),
                               result.metrics);
  result.metrics.unserved = summaries->unserved(
      pending, engine.end_time(), [&](OwnerId o) { return engine.ControllerName(o); });
  if (scenario.queueing_theory) {
    result.theory = CompareWithTheory(*scenario.queueing_theory, result.metrics);
  }
  if (!engine.gangs().empty()) {
    // A run with gangs releases no pod once its first gang is declared (EngineConfig::
    // release_ended_pods): every gang's pods are held.
    const std::vector<Pod> held(engine.pods().begin(), engine.pods().end());
    result.gangs = ComputeGangMetrics(engine.gangs(), held,
                                      [&](OwnerId owner) { return engine.ControllerName(owner); });
  }
  if (has_faults) result.faults = faults.Finish(engine, result.metrics.gpu_hours);
  if (autoscaled) {
    result.autoscaling = autoscaling.Finish(engine, result.metrics.pods.completed);
    AddRequests(scenario, engine.end_time(), *result.autoscaling);
  }
  result.energy = energy.Finish(engine.end_time());
  for (const NodeInfo& info : engine.nodes()) result.nodes.push_back(RecordNode(engine, info));
  if (options.collect_timeline) result.timeline = timeline.points();
  if (queues) result.queues = queues->timelines();
  return result;
}

bool HasDraPool(const Scenario& scenario) {
  return std::any_of(scenario.cluster.nodes.begin(), scenario.cluster.nodes.end(),
                     [](const NodeSpec& node) { return node.dra.has_value(); });
}

bool HasDraPool(const ScenarioFile& file) {
  return std::any_of(file.variants.begin(), file.variants.end(),
                     [](const auto& variant) { return HasDraPool(variant.second); });
}

bool HasNodeGroups(const ScenarioFile& file) {
  return std::any_of(file.variants.begin(), file.variants.end(), [](const auto& variant) {
    return !variant.second.cluster.node_groups.empty();
  });
}

double ClusterCostPerHour(const ClusterSpec& cluster) {
  double cost = 0;
  for (const NodeSpec& node : cluster.nodes) cost += node.type->price_per_hour;
  return cost;
}

}  // namespace migsim
