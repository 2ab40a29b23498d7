#pragma once
// Internal to sim/io/k8s: the `spec` of each kind migsim simulates (workload_objects.cc,
// policy_objects.cc). Each reads `doc` (the object's root) into its body.

#include "sim/io/k8s/manifest_json.h"
#include "sim/io/k8s/manifest_node.h"
#include "sim/io/k8s/manifest_objects.h"

namespace migsim::k8s {

PodObject ReadPodObject(const ManifestNode& doc, ManifestLog* log);
// Deployment, ReplicaSet and StatefulSet.
ReplicatedObject ReadReplicated(const ManifestNode& doc, ManifestLog* log);
JobObject ReadJobObject(const ManifestNode& doc, ManifestLog* log);
CronJobObject ReadCronJobObject(const ManifestNode& doc, ManifestLog* log);
PriorityClass ReadPriorityClassObject(const ManifestNode& doc, const std::string& name,
                                      ManifestLog* log);
BudgetObject ReadBudgetObject(const ManifestNode& doc, ManifestLog* log);
// training_objects.cc: one gang of all the job's pods.
GangObject ReadPyTorchJobObject(const ManifestNode& doc, ManifestLog* log);
GangObject ReadJobSetObject(const ManifestNode& doc, ManifestLog* log);
PodGroupObject ReadPodGroupObject(const ManifestNode& doc, ManifestLog* log);
// kueue_objects.cc: a ResourceFlavor, ClusterQueue or LocalQueue (of namespace `ns`).
KueueObject ReadKueueObject(const ManifestNode& doc, const std::string& ns, ManifestLog* log);
// dra_objects.cc: a DeviceClass, a ResourceClaimTemplate called `name`, a ResourceClaim.
DeviceClassObject ReadDeviceClassObject(const ManifestNode& doc, ManifestLog* log);
ClaimTemplateObject ReadClaimTemplateObject(const ManifestNode& doc, const std::string& name,
                                            ManifestLog* log);
SharedClaimObject ReadSharedClaimObject(const ManifestNode& doc, ManifestLog* log);
// claim_config.cc: a ResourceClaim's spec.devices.config as the JSON's `sharing` (null when
// no entry configures sharing), its places recorded under "/sharing" in `b`.
io::Json ClaimSharing(const ManifestNode& config, ManifestLog* log, ManifestJsonBuilder* b);

// The most replicas, completions or parallelism one object may ask for (as the JSON's).
constexpr int64_t kMaxPods = 1000000;

}  // namespace migsim::k8s
