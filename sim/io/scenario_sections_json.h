#pragma once
// Internal to sim/io: the loaders of the sections of one (merged) scenario document.
// Each reads its section into the output and reports the first problem to `ctx`; when
// ctx->ok() is false afterwards the output is incomplete and must be discarded.
// The field-by-field format is specified in scenarios/README.md.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/json_reader.h"
#include "workloads/scenario.h"

namespace migsim::io {

// --- cluster (cluster_json.cc) ---

// The nodes a pool of `cluster.nodes` became: ClusterSpec::nodes[first, first + count).
struct NodePool {
  std::string name;
  uint32_t first = 0;
  uint32_t count = 0;
};

// `cluster`: node types, node pools, reconfigurations.
void LoadCluster(LoadContext* ctx, const JsonRef& cluster, ClusterSpec* out);

// A node pool given as an openb node CSV (`openb_nodes`): one node per row, named by its
// `sn`, labelled with its openb GPU model (openb_pool_json.cc).
void LoadOpenbPool(LoadContext* ctx, const std::string& name, const JsonRef& pool,
                   ClusterSpec* cluster, std::vector<NodePool>* pools);

// --- autoscaling (autoscaling_json.cc) ---

// A pool's `autoscaling`, for the pool at ClusterSpec::pools[pool] whose nodes are `node`.
std::optional<NodeGroupSpec> LoadNodeGroup(LoadContext* ctx, const JsonRef& ref,
                                           const NodeSpec& node, uint32_t pool);
// The cluster's `autoscaler` into `out` (its fields' defaults where absent).
void LoadAutoscaler(LoadContext* ctx, const JsonRef& ref, ClusterAutoscalerSpec* out);
// The cluster's `karpenter` into `out`: Karpenter provisions the node groups.
void LoadKarpenter(LoadContext* ctx, const JsonRef& ref, KarpenterSpec* out);
// Refuses faults and failure processes on a node group's nodes (not modelled yet).
void CheckFaultsOffNodeGroups(LoadContext* ctx, const ClusterSpec& cluster);

// --- taints and tolerations (taint_json.cc) ---

// A pool's `taints`: [{key, value, effect}].
Taints ReadTaints(LoadContext* ctx, const JsonRef& ref);
// A template's `tolerations`: [{key, operator, value, effect, tolerationSeconds}].
Tolerations ReadTolerations(LoadContext* ctx, const JsonRef& ref);

// --- per-node GPU state (mig_json.cc) ---

// The pool's `mig` and `device_plugin` fields (or their defaults) into node->gpus,
// node->mig_config and node->plugin. REQUIRES: node->type is set.
void LoadNodeGpus(LoadContext* ctx, const ObjectReader& pool, NodeSpec* node);

// A MIG config resolved for every GPU of `node`: from the node's mig-parted file when its
// pool gave one (node.mig_parted), else from the catalog's named configs. Problems are
// reported at `config`, the JSON string naming it. REQUIRES: node.type->gpu_count > 0.
std::optional<std::vector<GpuMigSetting>> ResolveConfigForNode(LoadContext* ctx,
                                                               const JsonRef& config,
                                                               const NodeSpec& node);

// --- Dynamic Resource Allocation (dra_json.cc) ---

// A pool's `dra` field into node->dra. REQUIRES: node->type is set.
void LoadDraPool(LoadContext* ctx, const ObjectReader& pool, NodeSpec* node);
// Refuses a scripted relabel of a node under DRA (no MIG manager runs there).
void CheckDraReconfigurations(LoadContext* ctx, const JsonRef& list, const ClusterSpec& cluster);
// The scenario's `device_classes`, appended to `classes` (which holds NVIDIA's).
void LoadDeviceClasses(LoadContext* ctx, const JsonRef& ref,
                       std::vector<dra::DeviceClass>* classes);
// A template's `resource_claims`: claims of its own (`requests`), and entries naming one
// of `shared` (`resource_claim_name`). Every class named must be in `classes`.
struct PodClaims {
  std::vector<dra::ResourceClaim> own;
  std::vector<dra::SharedClaimId> shared;
};
PodClaims LoadResourceClaims(LoadContext* ctx, const JsonRef& ref,
                             const std::vector<dra::DeviceClass>& classes,
                             std::span<const dra::SharedClaim> shared = {});
// A claim's `requests` (as resource.k8s.io/v1's spec.devices.requests).
std::vector<dra::DeviceRequest> LoadClaimRequests(LoadContext* ctx, ObjectReader& claim,
                                                  const std::vector<dra::DeviceClass>& classes);
// The scenario's `resource_claims` (shared ResourceClaims), appended to `claims`; every
// class named must be in `classes`. A name already in `claims` is an error.
void LoadSharedClaims(LoadContext* ctx, const JsonRef& ref,
                      const std::vector<dra::DeviceClass>& classes,
                      std::vector<dra::SharedClaim>* claims);

// --- cluster.reconfigurations (reconfiguration_json.cc) ---

// One Reconfiguration per node, sorted by time; overlapping windows are an error.
void LoadReconfigurations(LoadContext* ctx, const JsonRef& list, const std::vector<NodePool>& pools,
                          ClusterSpec* cluster);

// --- faults (faults_json.cc, fault_processes_json.cc) ---

// `faults`: scripted faults into cluster->faults, sorted by time. REQUIRES: the cluster is
// loaded (nodes and pools).
void LoadFaults(LoadContext* ctx, const JsonRef& list, ClusterSpec* cluster);
// `fault_processes` into cluster->fault_processes. REQUIRES: the cluster is loaded.
void LoadFaultProcesses(LoadContext* ctx, const JsonRef& list, ClusterSpec* cluster);

// --- job classes (job_class_json.cc) and pod templates (pod_template_json.cc) ---

void LoadJobClasses(LoadContext* ctx, const JsonRef& classes, std::vector<JobClass>* out);

// What is wrong with `name` as an extended resource (Kubernetes' qualified name: a DNS
// subdomain, '/', then 1-63 letters, digits, '-', '_' or '.', starting and ending with a
// letter or digit), or "" when nothing is.
std::string ExtendedResourceProblem(std::string_view name);

// How a workload's pods end, which decides whether their template needs a job class.
enum class TemplateRun {
  kJobClass,            // the job class's run time: required (Pod, Job, Workflow)
  kForever,             // until deleted: optional (Deployment)
  kJobClassOrRecorded,  // a trace row's run_s, else the job class: optional (pod lists)
};

// Appends the template to scenario->templates (interning its extended resources in
// scenario->resources) and returns its id; an invalid id after an error.
TemplateId LoadPodTemplate(LoadContext* ctx, const JsonRef& tmpl, TemplateRun run,
                           Scenario* scenario);

// A quantity string or a plain number (of cores, of bytes) at `ref`, parsed by `parse`
// (ParseCpuMilli, ParseMemoryMib); reports a problem and returns 0.
int64_t ReadQuantity(LoadContext* ctx, const JsonRef& ref,
                     Result<int64_t> (*parse)(std::string_view));

// The job class named by the string at `ref`; reports an unknown name and returns an
// invalid id.
JobClassId FindJobClass(LoadContext* ctx, const JsonRef& ref, const std::vector<JobClass>& classes);

// --- priority classes and the scheduler's queue (priority_class_json.cc) ---

// `priority_classes` (null `ref`: none) after the system's two classes, into `out`.
void LoadPriorityClasses(LoadContext* ctx, const JsonRef* ref, std::vector<PriorityClass>* out);
// The template's priorityClassName (read from `r`), or the globalDefault class, into `pod`.
void ApplyPriorityClass(LoadContext* ctx, const ObjectReader& r, const Scenario& scenario,
                        PodTemplate* pod);
// `scheduler`: back-off settings and the queue order.
void LoadScheduler(LoadContext* ctx, const JsonRef& ref, Scenario* scenario);
// The queue disciplines' parameters in `scheduler` (fair_share, ...) into
// scenario->queue_params (queue_discipline_json.cc). REQUIRES: queue_order is read.
void LoadQueueDisciplines(LoadContext* ctx, const ObjectReader& scheduler, Scenario* scenario);

// --- namespaces and disruptions ---

// `name`'s index in scenario->namespaces (added if new), or -1 when it breaks Kubernetes'
// DNS-1123 label rules (workload_json.cc); NamespaceMessage says how.
int32_t InternNamespace(const std::string& name, Scenario* scenario);
// True when `name` follows those rules.
bool IsNamespaceName(std::string_view name);
std::string NamespaceMessage(const std::string& name);

// A `namespace` value (Kubernetes' DNS-1123 label rules), as an index into
// scenario->namespaces, which gains it when new (workload_json.cc).
int32_t ReadNamespace(LoadContext* ctx, const JsonRef& ref, Scenario* scenario);
// `pod_disruption_budgets` into scenario->disruption_budgets (disruption_json.cc).
// REQUIRES: the workloads are loaded.
void LoadDisruptionBudgets(LoadContext* ctx, const JsonRef& ref, Scenario* scenario);
// A Job's podFailurePolicy: what it does with a preempted pod (disruption_json.cc).
DisruptionAction LoadPodFailurePolicy(LoadContext* ctx, const JsonRef& ref);

// --- queueing_theory (queueing_theory_json.cc) ---

// The formula the run is compared with and its inputs, into scenario->queueing_theory.
// REQUIRES: the workloads are loaded.
void LoadQueueingTheory(LoadContext* ctx, const JsonRef& ref, Scenario* scenario);

// --- workloads (workload_json.cc, workflow_json.cc, trace_json.cc, arrivals_json.cc,
// distributed_job_json.cc) ---

// A Deployment's `hpa` (hpa_json.cc): its decisions up to `horizon` into spec->scale, its
// load into spec->load. REQUIRES: spec->at and spec->replicas are read.
void LoadHpa(LoadContext* ctx, const JsonRef& ref, SimTime horizon, DeploymentSpec* spec);
// A Deployment's `scale` given as a CSV file name (columns at_s, replicas).
std::vector<ScaleEvent> LoadScaleCsv(LoadContext* ctx, const JsonRef& ref, SimTime start);

// A namespace name at `ref` (Kubernetes' DNS-1123 label rules), as an index into
// scenario->namespaces (added if new); 0 after reporting a problem.
int32_t ReadNamespace(LoadContext* ctx, const JsonRef& ref, Scenario* scenario);

// --- kueue (kueue_json.cc, kueue_workloads_json.cc) ---

// `kueue`: ResourceFlavors, ClusterQueues, LocalQueues into scenario->kueue.
// REQUIRES: the cluster is loaded (quotas must be on resources some node offers).
void LoadKueue(LoadContext* ctx, const JsonRef& kueue, Scenario* scenario);
// A workload's `queue_name` in namespace `ns`: the LocalQueue's index.
int32_t ReadQueueName(LoadContext* ctx, const JsonRef& ref, int32_t ns, const Scenario& scenario);
// After the workloads: each managed workload's request must fit its ClusterQueue's quota
// (reported at its pointer), and its templates get their flavored copies.
void FinishKueue(LoadContext* ctx, Scenario* scenario);
// Why the ClusterQueue of managed workload `w` could never admit it, as FinishKueue reports
// it ("ClusterQueue 'q' could never admit this workload (...)"); "" when it could, or when
// `w` is not managed.
std::string NeverAdmittedProblem(const Scenario& scenario, const WorkloadSpec& w);

// A Deployment's `scale` events (none before `start`), sorted by time (stable).
std::vector<ScaleEvent> LoadScale(LoadContext* ctx, const JsonRef& ref, SimTime start);

// `workloads`, in file order. REQUIRES: scenario->job_classes is loaded.
void LoadWorkloads(LoadContext* ctx, const JsonRef& workloads, Scenario* scenario);

// One workload of kind "Trace" called `name`: an openb pod CSV (`openb_pods`) or a pod
// list (`pods`, pod_list_trace_json.cc) replayed in time.
void LoadTrace(LoadContext* ctx, const std::string& name, const JsonRef& trace, Scenario* scenario);
void LoadPodListTrace(LoadContext* ctx, const std::string& name, const JsonRef& trace,
                      Scenario* scenario);

// The fields every trace has: `at_s` (when the trace starts), `time_scale` (> 0,
// multiplies its times) and `limit` (keep the first N pods by time; 0 = all).
struct TraceTiming {
  SimTime at;
  double time_scale = 1;
  int64_t limit = 0;

  // A row `s` trace seconds in arrives at at + time_scale × s; a recorded run of `s`
  // seconds lasts time_scale × s. Both nullopt past kMaxSeconds (a scale that large is
  // a mistake, not a run).
  std::optional<SimTime> Arrival(double s) const { return Bounded(at.seconds() + time_scale * s); }
  std::optional<SimTime> Run(double s) const { return Bounded(time_scale * s); }

 private:
  static std::optional<SimTime> Bounded(double s) {
    if (!(s <= kMaxSeconds)) return std::nullopt;
    return SimTime::Seconds(s);
  }
};
TraceTiming ReadTraceTiming(LoadContext* ctx, ObjectReader& r);
// The error for a row whose Arrival or Run is nullopt.
std::string TraceSpanMessage();

// One workload of kind "Arrivals" called `name` (arrivals_json.cc): a Poisson stream of pods
// generated into a TraceSpec, its draws seeded from scenario->seed and the name.
// REQUIRES: scenario->seed is loaded.
void LoadArrivals(LoadContext* ctx, const std::string& name, const JsonRef& arrivals,
                  Scenario* scenario);

// One workload of kind "DistributedJob" called `name` (distributed_job_json.cc): a gang of
// workers, refused when the cluster can never hold it. REQUIRES: the cluster is loaded.
void LoadDistributedJob(LoadContext* ctx, const std::string& name, const JsonRef& job,
                        Scenario* scenario);

// One workload of kind "Workflow" called `name`.
void LoadWorkflow(LoadContext* ctx, const std::string& name, const JsonRef& workflow,
                  Scenario* scenario);
// A workflow step's `items`: a non-empty array of strings and numbers (a number becomes its
// JSON text: 3 -> "3", 0.5 -> "0.5"). Also the overlay's withParam items of Argo Workflows.
std::vector<std::string> LoadWorkflowItems(LoadContext* ctx, const JsonRef& ref);

// --- energy (energy_json.cc) ---

// The scenario's `energy` into `out` (EnergySpec's defaults where absent).
void LoadEnergy(LoadContext* ctx, const JsonRef& ref, EnergySpec* out);

}  // namespace migsim::io
