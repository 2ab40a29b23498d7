#pragma once
// Internal to sim/io: manifest objects that become gangs or Kueue-managed workloads
// (manifest_gangs.cc) and Kueue's objects from manifests (manifest_kueue.cc), beside
// manifest_scenario.cc's conversion of the other kinds.

#include <string>

#include "sim/io/json_reader.h"
#include "sim/io/k8s/manifest_objects.h"
#include "sim/io/k8s/manifest_overlay.h"
#include "workloads/scenario.h"

namespace migsim::io {

// What turning an object into workloads needs besides the object.
struct ManifestContext {
  LoadContext* ctx;
  const ManifestOverlay& overlay;
  Scenario* scenario;
  const k8s::ManifestSet& set;
};

// manifest_scenario.cc: a template for the pods of `pod`, of object `o` (the job class from
// the overlay, required unless `forever`). Invalid after reporting a problem.
TemplateId AddManifestTemplate(const ManifestContext& c, const k8s::ManifestObject& o,
                               const k8s::PodTemplateModel& pod, bool forever);

// The label scheduling.x-k8s.io/pod-group on the pods of a Pod or a Job: "" when none.
std::string PodGroupOf(const k8s::ManifestObject& o);

// Every object labelled with a PodGroup is a Pod or a Job of the namespace of a PodGroup
// of that name; reports the first that is not.
void CheckPodGroupMembers(LoadContext* ctx, const k8s::ManifestSet& set);

// PyTorchJobs, JobSets and PodGroups (with their members) become DistributedJobs, Pods
// carrying Kueue's queue-name label Jobs of one pod, created at `at`. True when `o` was one
// of them (whether or not a problem was reported).
bool AddGangOrQueuedPod(const ManifestContext& c, const k8s::ManifestObject& o, SimTime at);

// Kueue's queue-name label of `o`: the LocalQueue's index, -1 when `o` has no label; a
// kind Kueue cannot manage in migsim, or a queue that does not exist, is an error.
int32_t ManifestLocalQueue(const ManifestContext& c, const k8s::ManifestObject& o);

// The scenario's last workload, made from `o`: when it is queued, an error at `o` if its
// ClusterQueue could never admit it.
void CheckManifestAdmission(const ManifestContext& c, const k8s::ManifestObject& o);

// The scenario's `kueue` section (null when none) and the manifests' ResourceFlavors,
// ClusterQueues and LocalQueues (`set` null when no manifests) into scenario->kueue, checked
// as one by LoadKueue. An object named as one of the JSON section (a LocalQueue: in the same
// namespace) is an error. REQUIRES: the cluster is loaded.
void LoadKueueWithManifests(LoadContext* ctx, const JsonRef* kueue, const k8s::ManifestSet* set,
                            Scenario* scenario);

}  // namespace migsim::io
