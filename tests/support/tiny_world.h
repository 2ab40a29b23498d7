#pragma once
// Tiny worlds for tests: a Scenario (nodes, job classes, pod templates, workloads) built
// in a few lines of C++ instead of a JSON file, and the engine run over it.
//
// Helpers abort the test (Catch REQUIRE) when asked for something the catalogs do not
// have, so a typo in a node type or MIG config name fails loudly.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/policy/cluster_view.h"
#include "workloads/scenario.h"

namespace migsim::test {

inline SimTime Sec(double s) { return SimTime::Seconds(s); }

// A node of catalog type `type`. With an empty `mig_config` every GPU has MIG off and the
// node has no nvidia.com/mig.config label; otherwise the named mig-parted config is applied
// to every GPU and labelled.
NodeSpec GpuNode(std::string name, const std::string& type, const std::string& mig_config = "",
                 MigStrategy strategy = MigStrategy::kMixed);

// A p4d.24xlarge (8 x A100-SXM4-40GB) with `mig_config` on every GPU.
NodeSpec P4d(std::string name, const std::string& mig_config,
             MigStrategy strategy = MigStrategy::kMixed);

// A p4d.24xlarge whose GPUs were given as custom per-GPU layouts (no nvidia.com/mig.config
// label): GPU i gets the layout of the named config `per_gpu[i]`. REQUIRES: 8 names.
NodeSpec P4dPerGpu(std::string name, const std::vector<std::string>& per_gpu,
                   MigStrategy strategy = MigStrategy::kMixed);

// A p3.8xlarge (4 x V100, no MIG). With `timeslice_replicas` > 0, nvidia.com/gpu is
// time-sliced into that many replicas per GPU.
NodeSpec P3_8x(std::string name, int timeslice_replicas = 0, bool rename = false,
               bool fail_gt_one = false);

// `node` with nvidia.com/gpu time-sliced into `replicas` per GPU.
NodeSpec TimeSliced(NodeSpec node, int replicas, bool rename = false, bool fail_gt_one = false);

// Appends a pool `name` of `count` nodes of catalog type `type` (MIG off) to `cluster`
// (named name-0, name-1, ...); returns its index in ClusterSpec::pools, for a NodeGroupSpec.
uint32_t AddPool(ClusterSpec& cluster, const std::string& name, const std::string& type,
                 uint32_t count);

// The MIG setting the named config gives each GPU of node type `type`.
GpuMigSetting Resolve(const std::string& type, const std::string& mig_config);

// Relabels node `node` of `s` to `mig_config` at `at`; the MIG manager takes `duration`.
void AddRelabel(Scenario& s, uint32_t node, SimTime at, const std::string& mig_config,
                SimTime duration);

using RunTimes = std::vector<std::pair<std::string, SimTime>>;

JobClassId AddJobClass(Scenario& s, std::string name, SimTime startup, RunTimes run_time,
                       std::optional<SimTime> default_run_time = std::nullopt,
                       double failure_probability = 0);
// A job class that runs `run` on any device.
JobClassId AddJobClass(Scenario& s, std::string name, SimTime startup, SimTime run,
                       double failure_probability = 0);

struct TemplateOptions {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  std::vector<std::pair<std::string, int32_t>> extended{};  // resource name -> count
  Labels node_selector{};                                   // any order
  JobClassId job_class{};
  bool runs_forever = false;
  int32_t priority = 0;
  bool preempts = true;
};

// Interns the resource names and sorts requests and selector as the engine expects.
TemplateId AddTemplate(Scenario& s, const TemplateOptions& options);

// `count` bare pods of `tmpl` created at `at`.
void AddPods(Scenario& s, std::string name, SimTime at, TemplateId tmpl, int count = 1);

// A workflow without steps yet (the spec's fields have no defaults to lean on).
WorkflowSpec MakeWorkflow(std::string name, SimTime at, int parallelism = 0,
                          SimTime step_delay = SimTime::Zero());
WorkflowStepSpec MakeStep(std::string name, TemplateId tmpl, std::vector<int> depends = {},
                          std::vector<std::string> items = {}, RetryStrategy retry = {});

// The engine's inputs for `s`, one controller per workload, as RunVariant builds them.
EngineInputs MakeInputs(const Scenario& s);
EngineConfig MakeConfig(const Scenario& s);

// Builds the engine for `s` plus the `extra` controllers (after the scenario's), attaches
// `observers` and runs it. `s`, `policy` and the observers must outlive the engine.
std::unique_ptr<Engine> RunEngine(const Scenario& s, Policy& policy,
                                  std::vector<EngineObserver*> observers = {},
                                  std::vector<std::unique_ptr<Controller>> extra = {});
// The same from `in`: MakeInputs(s) as the test changed it (its own queue order, say).
std::unique_ptr<Engine> RunEngine(EngineInputs in, const Scenario& s, Policy& policy,
                                  std::vector<EngineObserver*> observers = {});

// The first variant of a scenario text and the engine that ran it under first fit.
struct TextRun {
  Scenario scenario;
  std::unique_ptr<Engine> engine;
};
TextRun RunFirstVariant(const std::string& text);

// The pods' names, in creation order.
std::vector<std::string> PodNames(const Engine& engine);
// The pods' creation times in seconds, in creation order.
std::vector<double> CreatedSeconds(const Engine& engine);

// A node as the scheduler sees it, for policy tests: cpu and memory allocatable, nothing
// requested, no extended resources until SetExtended.
NodeInfo SchedulerNode(uint32_t id, int64_t cpu_milli = 8000, int64_t memory_mib = 32768,
                       Labels labels = {});
void SetExtended(NodeInfo& node, ResourceId resource, int32_t allocatable, int32_t requested = 0);

}  // namespace migsim::test
