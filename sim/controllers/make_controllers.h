#pragma once
// The run's cluster controllers (sim/engine/cluster_controller.h), built from its cluster
// spec, in the fixed order the engine calls them. The order is part of a run's definition:
// controllers' timers set at the same instant run in it, so moving one changes the run.
//
// Order: the MIG manager (its scripted relabels' timers are set first at t = 0), Kueue (it
// sets no timer, at Start or later, so its place moves no sequence number; its BeforeCycle
// admissions run where the engine's own ran, before the scheduling cycle), then the faults
// (FaultInjector: its Start sets the scripted faults' timers and the failure processes'
// first draws), then the node groups (NodeGroups, or the provisioner that sizes them: the
// Cluster Autoscaler or Karpenter), always and last: its Start tells the faults which group
// nodes run, which draws the initial spot instances' notices (OnNodeChanged), then queues
// the provisioner's first loop; its loop runs after the scheduling cycle (AfterCycle).
// A new controller is one folder under sim/controllers/ and one line in make_controllers.cc.

#include <optional>

#include "sim/engine/cluster_controller.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/kueue_spec.h"

namespace migsim {

// `kueue`: the run's Kueue objects, when it has them (KueueController).
ClusterControllers MakeClusterControllers(const ClusterSpec& cluster,
                                          const std::optional<KueueSpec>& kueue);

}  // namespace migsim
