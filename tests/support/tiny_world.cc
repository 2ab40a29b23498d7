#include "tests/support/tiny_world.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "policies/first_fit.h"
#include "sim/cluster/mig_config.h"
#include "sim/cluster/node_type.h"
#include "sim/study/run.h"
#include "tests/support/scenario_text.h"
#include "workloads/controller_factory.h"

namespace migsim::test {
namespace {

const NodeType& Type(const std::string& type) {
  const NodeType* found = FindNodeType(type);
  REQUIRE(found != nullptr);
  return *found;
}

}  // namespace

GpuMigSetting Resolve(const std::string& type, const std::string& mig_config) {
  const NodeType& t = Type(type);
  REQUIRE(t.gpu != nullptr);
  Result<GpuMigSetting> setting = ResolveMigConfig(*t.gpu, mig_config);
  INFO(mig_config);
  REQUIRE(setting.ok());
  return setting.value();
}

NodeSpec GpuNode(std::string name, const std::string& type, const std::string& mig_config,
                 MigStrategy strategy) {
  NodeSpec node;
  node.name = std::move(name);
  node.type = SharedCatalogNodeType(type);
  REQUIRE(node.type != nullptr);
  node.plugin.strategy = strategy;
  node.mig_config = mig_config;
  GpuMigSetting setting = mig_config.empty() ? GpuMigSetting{} : Resolve(type, mig_config);
  node.gpus.assign(static_cast<size_t>(node.type->gpu_count), setting);
  return node;
}

NodeSpec P4d(std::string name, const std::string& mig_config, MigStrategy strategy) {
  return GpuNode(std::move(name), "p4d.24xlarge", mig_config, strategy);
}

NodeSpec P4dPerGpu(std::string name, const std::vector<std::string>& per_gpu,
                   MigStrategy strategy) {
  NodeSpec node = GpuNode(std::move(name), "p4d.24xlarge", "", strategy);
  REQUIRE(per_gpu.size() == node.gpus.size());
  for (size_t g = 0; g < per_gpu.size(); ++g) node.gpus[g] = Resolve("p4d.24xlarge", per_gpu[g]);
  return node;
}

NodeSpec TimeSliced(NodeSpec node, int replicas, bool rename, bool fail_gt_one) {
  node.plugin.sharing = SharingMode::kTimeSlicing;
  node.plugin.shared = {{"nvidia.com/gpu", replicas}};
  node.plugin.rename_by_default = rename;
  node.plugin.fail_requests_greater_than_one = fail_gt_one;
  return node;
}

NodeSpec P3_8x(std::string name, int timeslice_replicas, bool rename, bool fail_gt_one) {
  NodeSpec node = GpuNode(std::move(name), "p3.8xlarge", "", MigStrategy::kNone);
  node.plugin.fail_requests_greater_than_one = fail_gt_one;
  if (timeslice_replicas > 0) node = TimeSliced(node, timeslice_replicas, rename, fail_gt_one);
  return node;
}

uint32_t AddPool(ClusterSpec& cluster, const std::string& name, const std::string& type,
                 uint32_t count) {
  const auto first = static_cast<uint32_t>(cluster.nodes.size());
  for (uint32_t i = 0; i < count; ++i) {
    cluster.nodes.push_back(GpuNode(name + "-" + std::to_string(i), type));
  }
  cluster.pools.push_back({.name = name, .first = first, .count = count});
  return static_cast<uint32_t>(cluster.pools.size() - 1);
}

void AddRelabel(Scenario& s, uint32_t node, SimTime at, const std::string& mig_config,
                SimTime duration) {
  REQUIRE(node < s.cluster.nodes.size());
  const NodeSpec& spec = s.cluster.nodes[node];
  Reconfiguration r;
  r.at = at;
  r.node = node;
  r.mig_config = mig_config;
  r.gpus.assign(spec.gpus.size(), Resolve(spec.type->name, mig_config));
  r.duration = duration;
  s.cluster.reconfigurations.push_back(std::move(r));
}

JobClassId AddJobClass(Scenario& s, std::string name, SimTime startup, RunTimes run_time,
                       std::optional<SimTime> default_run_time, double failure_probability) {
  JobClass jc;
  jc.name = std::move(name);
  jc.startup = startup;
  jc.run_time = std::move(run_time);
  jc.default_run_time = default_run_time;
  jc.failure_probability = failure_probability;
  s.job_classes.push_back(std::move(jc));
  return JobClassId(static_cast<JobClassId::Rep>(s.job_classes.size() - 1));
}

JobClassId AddJobClass(Scenario& s, std::string name, SimTime startup, SimTime run,
                       double failure_probability) {
  return AddJobClass(s, std::move(name), startup, RunTimes{}, run, failure_probability);
}

TemplateId AddTemplate(Scenario& s, const TemplateOptions& options) {
  PodTemplate t;
  t.requests.cpu_milli = options.cpu_milli;
  t.requests.memory_mib = options.memory_mib;
  for (const auto& [name, count] : options.extended) {
    t.requests.extended.push_back({s.resources.Intern(name), count});
  }
  std::sort(
      t.requests.extended.begin(), t.requests.extended.end(),
      [](const ResourceRequest& a, const ResourceRequest& b) { return a.resource < b.resource; });
  t.node_selector = options.node_selector;
  std::sort(t.node_selector.begin(), t.node_selector.end());
  t.job_class = options.job_class;
  t.runs_forever = options.runs_forever;
  t.priority = options.priority;
  t.preempts = options.preempts;
  s.templates.push_back(std::move(t));
  return TemplateId(static_cast<TemplateId::Rep>(s.templates.size() - 1));
}

void AddPods(Scenario& s, std::string name, SimTime at, TemplateId tmpl, int count) {
  s.workloads.push_back(
      PodGroupSpec{.name = std::move(name), .at = at, .count = count, .tmpl = tmpl});
}

WorkflowSpec MakeWorkflow(std::string name, SimTime at, int parallelism, SimTime step_delay) {
  WorkflowSpec wf;
  wf.name = std::move(name);
  wf.at = at;
  wf.parallelism = parallelism;
  wf.step_delay = step_delay;
  return wf;
}

WorkflowStepSpec MakeStep(std::string name, TemplateId tmpl, std::vector<int> depends,
                          std::vector<std::string> items, RetryStrategy retry) {
  WorkflowStepSpec step;
  step.name = std::move(name);
  step.tmpl = tmpl;
  step.depends = std::move(depends);
  step.items = std::move(items);
  step.retry = retry;
  return step;
}

EngineInputs MakeInputs(const Scenario& s) { return MakeEngineInputs(s); }

// Tests measure everything the engine can measure.
EngineConfig MakeConfig(const Scenario& s) {
  return EngineConfig{.seed = s.seed, .horizon = s.horizon, .measure_mig_fragmentation = true};
}

std::unique_ptr<Engine> RunEngine(const Scenario& s, Policy& policy,
                                  std::vector<EngineObserver*> observers,
                                  std::vector<std::unique_ptr<Controller>> extra) {
  EngineInputs in = MakeInputs(s);
  for (auto& controller : extra) in.controllers.push_back(std::move(controller));
  return RunEngine(std::move(in), s, policy, std::move(observers));
}

std::unique_ptr<Engine> RunEngine(EngineInputs in, const Scenario& s, Policy& policy,
                                  std::vector<EngineObserver*> observers) {
  auto engine = std::make_unique<Engine>(std::move(in), policy, MakeConfig(s));
  for (EngineObserver* o : observers) engine->AddObserver(o);
  engine->Run();
  return engine;
}

TextRun RunFirstVariant(const std::string& text) {
  TextRun run{LoadFirstVariant(text), nullptr};
  static FirstFitPolicy policy;
  run.engine = RunEngine(run.scenario, policy);
  return run;
}

std::vector<std::string> PodNames(const Engine& engine) {
  std::vector<std::string> names;
  for (const Pod& pod : engine.pods()) names.push_back(engine.PodName(pod));
  return names;
}

std::vector<double> CreatedSeconds(const Engine& engine) {
  std::vector<double> times;
  for (const Pod& pod : engine.pods()) times.push_back(pod.created.seconds());
  return times;
}

NodeInfo SchedulerNode(uint32_t id, int64_t cpu_milli, int64_t memory_mib, Labels labels) {
  NodeInfo node;
  node.id = NodeId(id);
  node.name = "node" + std::to_string(id);
  node.labels = std::move(labels);
  std::sort(node.labels.begin(), node.labels.end());
  node.cpu_milli_allocatable = cpu_milli;
  node.memory_mib_allocatable = memory_mib;
  return node;
}

void SetExtended(NodeInfo& node, ResourceId resource, int32_t allocatable, int32_t requested) {
  const size_t size = std::max<size_t>(node.allocatable.size(), resource.value() + 1);
  node.allocatable.resize(size, 0);
  node.requested.resize(size, 0);
  node.allocatable[resource.value()] = allocatable;
  node.requested[resource.value()] = requested;
}

}  // namespace migsim::test
