#pragma once
// Internal to sim/io/k8s: reading a pod template or a Pod's spec (pod_spec_model.cc,
// container_resources.cc, node_affinity_model.cc).

#include "sim/io/k8s/manifest_node.h"
#include "sim/io/k8s/manifest_objects.h"

namespace migsim::k8s {

// A workload's `spec.template`, or a Pod document: metadata.labels and spec.
PodTemplateModel ReadPodTemplate(const ManifestNode& tmpl, ManifestLog* log);

// A pod spec's fields other than its containers (nodeSelector, affinity, tolerations,
// priorityClassName, schedulerName, resourceClaims, ...) into `out`; also an Argo template's,
// which has them at the same level. REQUIRES: the containers are read (their claims must
// name the pod's resourceClaims).
void ReadSchedulingFields(const ManifestNode& spec, ManifestLog* log, PodSpecModel* out);
// `schedulerName`: absent or kube-scheduler's (default-scheduler), else an error.
void CheckSchedulerName(const ManifestNode& name, ManifestLog* log);
// The effective requests of `containers` (and sidecars) beside `init_containers`, into `out`.
void ReadContainerLists(const std::vector<ManifestNode>& containers,
                        const std::vector<ManifestNode>& init_containers, ManifestLog* log,
                        PodSpecModel* out);
// The effective requests of `spec.containers` and `spec.initContainers` into `out`.
void ReadContainerResources(const ManifestNode& spec, ManifestLog* log, PodSpecModel* out);
// `spec.affinity`: required node affinity into out->node_affinity; what is not modelled is
// warned about, what migsim cannot honour is an error.
void ReadAffinity(const ManifestNode& affinity, ManifestLog* log, PodSpecModel* out);
// `spec.tolerations`.
Tolerations ReadTolerationList(const ManifestNode& list, ManifestLog* log);

}  // namespace migsim::k8s
