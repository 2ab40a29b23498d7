#pragma once
// Kubernetes objects as read from manifests, before the scenario gives them what manifests
// do not say (run times, arrival times, the cluster): the kinds migsim simulates, each with
// the fields that can change a scheduling outcome, and where each came from.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/core/status.h"
#include "sim/engine/disruption_budget.h"
#include "sim/engine/priority_class.h"
#include "sim/policy/resources.h"
#include "sim/policy/taint.h"
#include "workloads/workload_spec.h"

namespace migsim::k8s {

// Where something is in a manifest: the file, the document (from 1), the YAML path
// ("spec.template.spec.containers[0].image"; "" for the document's root) and the line.
struct ManifestPlace {
  std::string file;
  int document = 0;
  std::string path;
  int line = 0;  // from 1; 0 when unknown

  // "document 2: spec.replicas (line 7)"; the root is "document 2 (line 1)".
  std::string Within() const;
  // "k8s/a.yaml: document 2: spec.replicas (line 7)".
  std::string ToString() const { return file + ": " + Within(); }
};

// InvalidArgument "document N: path (line L): <message>" located at the place's file.
Status ErrorAt(const ManifestPlace& place, const std::string& message);

struct ContainerImage {
  std::string image;
  ManifestPlace place;
};

// An entry of a pod's spec.resourceClaims: a claim made for each pod from a
// ResourceClaimTemplate of the pod's namespace.
struct PodClaimRef {
  std::string name;  // the claim's name in the pod (what containers' resources.claims name)
  ManifestPlace name_place;
  std::string template_name;  // resourceClaimTemplateName ...
  ManifestPlace template_place;
  std::string claim_name;  // ... or resourceClaimName: a shared ResourceClaim
  ManifestPlace claim_place;
};

// A pod's spec as kube-scheduler sees it. The requests are the pod's effective ones: each
// container's requests (a resource with only a limit requests its limit), summed over the
// containers and over sidecars (init containers with restartPolicy Always), and at least
// the largest other init container's.
struct PodSpecModel {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  std::vector<std::pair<std::string, int32_t>> extended{};  // sorted by name, counts > 0
  ManifestPlace resources_place{};                          // the first container's resources
  std::vector<ContainerImage> images{};                     // containers, then init containers
  Labels node_selector{};
  NodeAffinity node_affinity{};  // one nodeSelectorTerm of operator In expressions
  Tolerations tolerations{};
  std::string priority_class{};  // "" when none
  ManifestPlace priority_place{};
  std::optional<SimTime> termination_grace{};
  std::string restart_policy{};  // as written; "" when absent
  std::vector<PodClaimRef> claims{};  // spec.resourceClaims, names unique
  // containers' resources.claims[].name, each one of `claims`' names
  std::vector<std::pair<std::string, ManifestPlace>> container_claims{};
};

struct PodTemplateModel {
  Labels labels{};       // metadata.labels
  Labels annotations{};  // metadata.annotations
  PodSpecModel spec{};
  ManifestPlace place{};  // of the template's (or the Pod's) root
};

// Pod: one pod.
struct PodObject {
  PodTemplateModel pod;
};
// Deployment, ReplicaSet and StatefulSet: `replicas` pods that run until deleted.
struct ReplicatedObject {
  int replicas = 1;
  PodTemplateModel pod;
};
struct JobObject {
  int completions = 1;
  int parallelism = 1;
  int backoff_limit = 6;
  DisruptionAction on_disruption = DisruptionAction::kCount;
  PodTemplateModel pod;
};
enum class ConcurrencyPolicy : uint8_t { kAllow, kForbid, kReplace };
struct CronJobObject {
  std::string schedule;
  ManifestPlace schedule_place;
  ConcurrencyPolicy concurrency = ConcurrencyPolicy::kAllow;
  JobObject job;
};
struct BudgetObject {
  Labels match_labels;
  std::optional<BudgetAmount> min_available;
  std::optional<BudgetAmount> max_unavailable;
};

// Argo Workflows (argoproj.io/v1alpha1): Workflow, WorkflowTemplate, ClusterWorkflowTemplate
// (argo_templates.cc), flattened into a workload by argo_workflow.h.
// A DAG task or a step of a steps template.
struct ArgoTask {
  std::string name;
  ManifestPlace place;
  std::string template_name;  // `template`, or templateRef.template
  std::string template_ref;   // templateRef.name; "" for a template of the same workflow
  ManifestPlace template_place;
  std::vector<std::string> depends;  // DAG tasks only: `dependencies` or `depends`
  ManifestPlace depends_place;
  std::optional<std::vector<std::string>> items;  // withItems, or a literal withParam list
  std::optional<std::string> with_param;          // a withParam the manifest cannot resolve
  ManifestPlace fan_out_place;
};

enum class ArgoTemplateKind { kPod, kDag, kSteps, kOther };

struct ArgoTemplate {
  std::string name;
  ManifestPlace place;
  ArgoTemplateKind kind = ArgoTemplateKind::kPod;
  std::string other_kind;                     // kOther: "suspend", "resource", ...
  PodTemplateModel pod;                       // kPod: container and script templates
  std::vector<ArgoTask> tasks;                // kDag
  std::vector<std::vector<ArgoTask>> groups;  // kSteps: groups run in sequence
  int parallelism = 0;                        // 0: unlimited
  ManifestPlace parallelism_place;
  std::optional<RetryStrategy> retry;
  ManifestPlace retry_place;
};

// Workflow and CronWorkflow (run) and WorkflowTemplate / ClusterWorkflowTemplate
// (referenced only). A CronWorkflow's fields are those of its spec.workflowSpec.
struct WorkflowObject {
  bool runs = true;  // false for the templates
  std::string entrypoint;
  ManifestPlace entrypoint_place;
  std::string workflow_template_ref;  // spec.workflowTemplateRef.name
  ManifestPlace ref_place;
  std::optional<int> parallelism;
  std::optional<RetryStrategy> retry;  // spec.retryStrategy: every pod template's default
  ManifestPlace retry_place;
  std::vector<ArgoTemplate> templates;
  std::string schedule;  // a CronWorkflow's spec.schedule; "" for the others
  ManifestPlace schedule_place;
};

// A ConfigMap's `data`: only the device plugin's is read further.
struct ConfigMapObject {
  struct Entry {
    std::string key;
    std::string value;
    ManifestPlace place;  // of the value
    int64_t offset = -1;  // of the value in the file's text
    // For a literal block value (`key: |`), the file line of the value's first line (so
    // that a line of the embedded text is a line of the file); 0 otherwise.
    int first_line = 0;
  };
  std::vector<Entry> data;
};

// PyTorchJob and JobSet: replicas of pod templates run as one gang (training_objects.cc).
struct GangReplica {
  std::string name;  // "Master", "Worker"; a JobSet's replicatedJobs[].name
  int pods = 1;      // pods of this replica type
  PodTemplateModel pod;
  ManifestPlace place;  // of the replica's spec
};
struct GangObject {
  std::vector<GangReplica> replicas;
  int backoff_limit = 6;                            // restarts of the whole gang
  SimTime schedule_timeout = SimTime::Seconds(60);  // the coscheduling plugin's default
  bool one_per_node = false;
};
// A coscheduling PodGroup (scheduling.x-k8s.io): its members are the Pods and Jobs whose
// pods carry the label scheduling.x-k8s.io/pod-group: <name>.
struct PodGroupObject {
  int min_member = 1;
  SimTime schedule_timeout = SimTime::Seconds(60);
  ManifestPlace min_member_place;
};
// An object written as the JSON one of the scenario's loaders reads (manifest_json.h), with
// the manifest place of every JSON pointer in it, so that the loader's errors are reported
// at YAML paths.
struct PlacedJson {
  std::string json;
  std::vector<std::pair<std::string, ManifestPlace>> places;  // pointer ("" = root), place

  // The place recorded for the longest pointer that is `pointer` or a prefix of it token by
  // token ("/a/b" is a prefix of "/a/b/c", not of "/a/bc"); null when none is.
  const ManifestPlace* PlaceOf(const std::string& pointer) const;
};
// A Kueue ResourceFlavor, ClusterQueue or LocalQueue, as a member of the scenario's JSON
// `kueue` section would be written (kueue_objects.cc).
struct KueueObject : PlacedJson {};
// A DeviceClass (resource.k8s.io), as a member of the scenario's `device_classes` would be
// written (dra_objects.cc).
struct DeviceClassObject : PlacedJson {};
// A ResourceClaimTemplate's spec.spec.devices as a claim of a pod template's
// `resource_claims` would be written, named after the template (dra_objects.cc); a pod
// using it names its claim.
struct ClaimTemplateObject : PlacedJson {};
// A ResourceClaim's spec.devices as a member of the scenario's `resource_claims` would be
// written: its requests, and NVIDIA's sharing configuration as `sharing` (dra_objects.cc).
struct SharedClaimObject : PlacedJson {};

struct ManifestObject {
  std::string kind;  // "Deployment", ...
  std::string name;  // metadata.name
  std::string ns;    // metadata.namespace, "default" when absent
  ManifestPlace place;
  std::variant<PodObject, ReplicatedObject, JobObject, CronJobObject, PriorityClass, BudgetObject,
               WorkflowObject, ConfigMapObject, GangObject, PodGroupObject, KueueObject,
               DeviceClassObject, ClaimTemplateObject, SharedClaimObject>
      body;
  std::string queue_name;  // metadata.labels[kueue.x-k8s.io/queue-name]; "" when absent
  ManifestPlace queue_place;
};

struct ManifestSet {
  std::vector<ManifestObject> objects;  // in file and document order
  // Fields and kinds that would change a scheduling outcome and that migsim does not
  // model, each "<file>: document N: <path> (line L): <what>", in order found.
  std::vector<std::string> warnings;
};

// Every YAML (or JSON) document of `text`, `kind: List` objects expanded into their items.
// `file_label` names the file in errors and warnings. The first error is returned:
//  - ParseError "<file>:line L, column C: malformed YAML: <reason>";
//  - InvalidArgument at `file_label`, "document N: <path> (line L): <problem>".
// Kinds migsim does not simulate are warnings. Fuzzable: no file is read.
Result<ManifestSet> ParseManifests(std::string_view text, const std::string& file_label);

// Reads a ConfigMap value as the NVIDIA device plugin's config file, whatever the pools: Ok,
// or the error the scenario loader reports when the overlay names it (in the file's terms:
// "document N: data.<key>.<path> (line L): ..."). Fuzzable: no file is read.
Status CheckDevicePluginConfig(const ConfigMapObject::Entry& entry);

}  // namespace migsim::k8s
