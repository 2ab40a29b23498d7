#pragma once
// Kueue's objects as the engine runs them (scheduling.md §4; Kueue v1beta1): ResourceFlavors,
// ClusterQueues with resource groups and quotas, LocalQueues. Plain data, validated by the
// loader (sim/io/kueue_json.cc), which states every default; the admission logic is
// KueueAdmission (controllers/kueue/kueue_admission.h).
//
// Quantities are in the scheduler's units: cpu in millicores, memory in MiB, extended
// resources in counts. A cohort is a name (v1beta1): ClusterQueues naming the same cohort
// lend each other unused quota; cohorts have no parents, so there is no hierarchy.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ids.h"
#include "sim/engine/pod.h"
#include "sim/policy/resources.h"

namespace migsim {

// A Kueue Workload: what one managed controller asked admission for.
using WorkloadId = Id<struct WorkloadTag>;

// Pods of one template in a workload (Kueue's PodSet): `count` at once.
struct PodSet {
  TemplateId tmpl;
  int32_t count = 1;
};

struct ResourceFlavorSpec {
  std::string name;
  Labels node_labels;  // sorted by key; added to the node selector of admitted pods
};

// The quota of one resource in one flavor of a ClusterQueue.
struct ResourceQuota {
  int64_t nominal = 0;
  std::optional<int64_t> borrowing_limit;  // none: may borrow all the cohort lends
  std::optional<int64_t> lending_limit;    // none: lends all its unused nominal quota
};

struct FlavorQuotas {
  int32_t flavor = 0;                 // index into KueueSpec::flavors
  std::vector<ResourceQuota> quotas;  // one per resource of the group, in `covered` order
};

// Resources whose quota is assigned together: a workload gets one flavor per group.
struct ResourceGroup {
  std::vector<int32_t> covered;       // indices into KueueSpec::resources
  std::vector<FlavorQuotas> flavors;  // tried in this order
};

enum class QueueingStrategy : uint8_t { kBestEffortFifo, kStrictFifo };
enum class WithinClusterQueue : uint8_t { kNever, kLowerPriority, kLowerOrNewerEqualPriority };
enum class ReclaimWithinCohort : uint8_t { kNever, kLowerPriority, kAny };

struct ClusterQueueSpec {
  std::string name;
  std::string cohort;  // "": none
  QueueingStrategy strategy = QueueingStrategy::kBestEffortFifo;
  std::vector<int32_t> namespaces;  // Scenario::namespaces indices; empty: every namespace
  std::vector<ResourceGroup> groups;
  WithinClusterQueue within_cluster_queue = WithinClusterQueue::kNever;
  ReclaimWithinCohort reclaim_within_cohort = ReclaimWithinCohort::kNever;
  double fair_sharing_weight = 1;
};

struct LocalQueueSpec {
  std::string name;
  int32_t namespace_index = 0;
  int32_t cluster_queue = 0;
};

// A managed pod template with the node labels of the flavors its workload was admitted to.
struct FlavoredTemplate {
  TemplateId base;
  std::vector<int32_t> flavors;  // sorted flavor indices
  TemplateId tmpl;
};

struct KueueSpec {
  std::vector<std::string> resources;  // every covered resource: "cpu", "memory", extended
  std::vector<ResourceFlavorSpec> flavors;
  std::vector<ClusterQueueSpec> cluster_queues;
  std::vector<LocalQueueSpec> local_queues;
  bool fair_sharing = false;  // Kueue's configuration fairSharing.enable
  std::vector<FlavoredTemplate> flavored_templates;
};

}  // namespace migsim
