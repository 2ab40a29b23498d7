#pragma once
// Pods: the unit the engine schedules. A pod is created from a template by its owning
// controller, waits pending, is bound to a node and devices, starts after its job
// class's start-up delay, and ends succeeded, failed or deleted.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/core/ids.h"
#include "sim/core/optional_time.h"
#include "sim/core/sim_time.h"
#include "sim/dra/resource_claim.h"
#include "sim/dra/shared_claim.h"
#include "sim/policy/resources.h"
#include "sim/policy/taint.h"

namespace migsim {

using TemplateId = Id<struct TemplateTag>;

// What a controller stamps pods from.
struct PodTemplate {
  PodRequests requests;
  Labels node_selector;        // sorted by key
  NodeAffinity node_affinity;  // required terms (operator In), sorted by key
  // Invalid for pods that run until deleted, and for trace pods without one, which carry
  // their own recorded run time (Pod::recorded_run).
  JobClassId job_class;
  bool runs_forever = false;  // Deployment pods: never complete on their own
  // From the template's priorityClassName (or the scenario's globalDefault class):
  // .spec.priority, the class (an index into Scenario::priority_classes, -1 for none) and
  // whether the pod may evict lower priorities.
  int32_t priority = 0;
  int32_t priority_class = -1;
  bool preempts = true;
  // terminationGracePeriodSeconds: how long a pod being evicted keeps its node and devices
  // before it is gone (Kubernetes' default 30 s).
  SimTime termination_grace = SimTime::Micros(30'000'000);
  // The pod's labels (sorted by key): what PodDisruptionBudgets select.
  Labels labels{};
  // The node autoscalers' pod annotations: karpenter.sh/do-not-disrupt "true" keeps
  // Karpenter from consolidating the pod's node; cluster-autoscaler.kubernetes.io/
  // safe-to-evict "false" keeps the Cluster Autoscaler from scaling it down.
  bool do_not_disrupt = false;
  bool safe_to_evict = true;
  // The namespace of the workload the template belongs to, an index into
  // Scenario::namespaces (0: "default"). Tenants for fair sharing and quotas.
  int32_t namespace_index = 0;
  // Its pods belong to a gang (ControllerContext::SubmitToGang): the template is a
  // scheduling class of its own, so that a gang that does not fit blocks no other pods.
  bool gang = false;
  // spec.tolerations: which node taints the pods accept (TaintToleration).
  Tolerations tolerations{};
  // spec.nodeName: the pods are bound to this node without the scheduler (no policy, no
  // filter: selectors, affinity, taints and cordons are not checked), before its cycle, as
  // the kubelet admits them. A pod that does not fit the node's free resources, or finds
  // it cordoned or NotReady, waits pending for it. Invalid: the scheduler places the pods.
  NodeId node_name{};
  // spec.resourceClaims, each from a ResourceClaimTemplate (one claim per pod) ...
  std::vector<dra::ResourceClaim> resource_claims{};
  // ... or naming a shared ResourceClaim (resourceClaimName): indices into the scenario's
  // shared claims, distinct.
  std::vector<dra::SharedClaimId> shared_claims{};
};

enum class PodPhase : uint8_t {
  kPending,   // not bound to a node
  kStarting,  // bound; container starting
  kRunning,
  kSucceeded,
  kFailed,
  kDeleted,  // removed by its controller (scale-down, failed Job) before it ended
};

// Where the GPU time a killed pod loses is booked (Engine::Terminate): lost to preemption
// (and Kueue's deletions), lost to faults, or not booked (a scripted MIG change's kills).
enum class LossBook : uint8_t { kUnbooked, kPreemption, kFaults };

enum class EndReason : uint8_t {
  kNone,
  kCompleted,       // exit 0
  kError,           // non-zero exit (job class failure probability)
  kAdmissionError,  // UnexpectedAdmissionError: >1 shared resource with failRequestsGreaterThanOne
  kDeviceLost,      // its MIG device was destroyed by a reconfiguration
  kNoRunTime,       // its job class has no run time for the device it got
  kOomKilled,       // its GPU memory did not fit next to its neighbours' (or at all)
  kDeleted,         // deleted by its controller
  kPreempted,       // evicted by a higher-priority pod (DefaultPreemption); phase Failed
  // Faults (sim/engine/fault_spec.h), all phase Failed:
  kNodeLost,     // its node went NotReady; evicted by the taint manager after the toleration
  kGpuFailed,    // its GPU went unhealthy (Xid): the container exits non-zero
  kEvicted,      // evicted through the Eviction API (a drain, a spot interruption notice)
  kNodeRemoved,  // still on its node when the node was removed (a reclaimed spot instance)
};

// The number of EndReasons: arrays indexed by reason have this size.
inline constexpr size_t kEndReasonCount = static_cast<size_t>(EndReason::kNodeRemoved) + 1;
static_assert(kEndReasonCount <= 32, "EndReason masks (IsDisruption) are 32 bits");

// True for pods Kubernetes deletes with the DisruptionTarget condition (preemption, the
// taint manager, the Eviction API, pod GC of a removed node): what a Job's podFailurePolicy
// rule `onPodConditions: DisruptionTarget` matches. A failed GPU is not a disruption: the
// container exits with an error (Xid), which only onExitCodes rules could match.
inline bool IsDisruption(EndReason r) {
  constexpr uint32_t kMask =
      1u << static_cast<int>(EndReason::kPreempted) | 1u << static_cast<int>(EndReason::kNodeLost) |
      1u << static_cast<int>(EndReason::kEvicted) | 1u << static_cast<int>(EndReason::kNodeRemoved);
  return ((kMask >> static_cast<int>(r)) & 1u) != 0;
}

// True for a pod killed from outside (a disruption, a failed GPU, a destroyed MIG device):
// Pod::checkpoint holds what its checkpoints kept, which its controller's next pod resumes.
inline bool IsKill(EndReason r) {
  constexpr uint32_t kMask = 1u << static_cast<int>(EndReason::kPreempted) |
                             1u << static_cast<int>(EndReason::kNodeLost) |
                             1u << static_cast<int>(EndReason::kEvicted) |
                             1u << static_cast<int>(EndReason::kNodeRemoved) |
                             1u << static_cast<int>(EndReason::kGpuFailed) |
                             1u << static_cast<int>(EndReason::kDeviceLost);
  return ((kMask >> static_cast<int>(r)) & 1u) != 0;
}

std::string_view PhaseName(PodPhase phase);
std::string_view EndReasonName(EndReason reason);

// True for failures of the system around the container (Argo's retryPolicy "OnError";
// a preempted or evicted pod, or one on a lost node, is deleted under it),
// false for the container's own (non-zero exit; a lost MIG device kills the CUDA
// context, so the container fails: "OnFailure").
inline bool IsSystemError(EndReason r) {
  return r == EndReason::kAdmissionError || r == EndReason::kNoRunTime || IsDisruption(r);
}

// What an evicted pod hands to the pod its controller creates in its place
// (ControllerContext::SubmitResumed): the fraction of the work its checkpoints kept, short
// of the whole (a replacement always has something left to run), and the GPU-seconds of
// service it attained, which LAS ranks by. A pod the controller does not replace hands
// nothing on.
struct Handover {
  double work = 0;  // in [0, 1)
  double attained_gpu_s = 0;
};

// Aborts (a controller's bug) unless 0 <= from.work < 1 and from.attained_gpu_s >= 0.
void CheckHandover(const Handover& from);

// Fields are grouped by size, 4-byte then 1-byte then 8-byte ones, so that the record
// packs into 192 bytes with 3 bytes of padding: a run holds one per pod alive (PodStore), 5
// million and more when a deep queue builds.
struct Pod {
  // --- 4 bytes ---
  PodId id;
  OwnerId owner;
  uint32_t tag = 0;  // the owner's own meaning (replica index, step item, ...)
  TemplateId tmpl;
  uint32_t generation = 0;  // bumped when pending events for the pod become stale
  NodeId node;
  uint32_t device_begin = 0;  // into the engine's allocation pool
  uint32_t device_count = 0;
  uint32_t node_slot = 0;  // its index in NodeInfo::pods of its node, while bound
  uint32_t restarts = 0;   // in-place container restarts (CrashLoopBackOff)
  uint32_t attempts = 0;   // scheduling cycles that found no node for it (its back-off)
  // DRA dynamic MIG: the instances its allocation created (it waits for them to be created
  // before it starts; they are destroyed when it ends).
  uint32_t mig_created = 0;
  // While it is a process of a shared device: its start order among all such processes
  // (Engine::AddProcess; 0 otherwise). Ties of the device's ends go to the earlier start
  // (device_time_share.h).
  uint32_t process_seq = 0;
  NodeId nominated;  // the node preemption made room on for this pending pod
  GangId gang;       // the gang (coscheduling PodGroup) it belongs to; invalid: none

  // --- 1 byte ---
  PodPhase phase = PodPhase::kPending;
  EndReason reason = EndReason::kNone;
  // How the run ends once complete (drawn when it starts; see `progress` below).
  EndReason planned_end = EndReason::kNone;
  // Once `terminating`: the reason it was killed for, the one it ends with (unless its
  // controller deletes it first). What the kill accounting counts (pod_accounting.h).
  EndReason ending = EndReason::kNone;
  bool has_started = false;  // `started` is meaningful (the first start)
  // Once `terminating`: where the GPU time it loses up to `kill_end` was booked.
  LossBook loss_book = LossBook::kUnbooked;
  // `terminating`: being evicted, it holds its node until its grace period ends.
  bool terminating = false;
  bool ready = false;  // counted healthy by its disruption budgets (running, not evicted)
  // Pending, but holding `node` and its devices for its gang: Permit keeps it waiting until
  // minMember pods of the gang are reserved (sim/engine/gang.h). Not bound yet: a waiting
  // pod has no nodeName in Kubernetes either.
  bool reserved = false;

  // --- 8 bytes ---
  SimTime created, bound, started, ended;
  // While running (see Engine::Reshare): the fraction of the run done by `progress_at`,
  // the fraction done per second alone on the device, and on a shared device the clock
  // value of its class at which it completes (device_time_share.h). How the run ends once
  // complete is `planned_end`.
  double progress = 0;
  double solo_rate_per_s = 0;
  double virtual_end = 0;
  SimTime progress_at;
  // A trace pod's run time as recorded, whatever device it gets (a job class of its
  // template gives only its duty cycle and GPU memory); none for pods whose job class
  // decides.
  OptionalTime recorded_run;
  // Preemption. `resumed`: the fraction of its work the pod starts with, restored from a
  // predecessor's checkpoint (so its run is (1 - resumed) of the full one). `checkpoint`:
  // once it ended preempted, the fraction of the work its checkpoints kept (at least
  // `resumed`).
  double resumed = 0;
  double checkpoint = 0;
  // The GPU capacity the pod holds while bound, in GPUs, set when it is bound (it keeps
  // its devices until it ends): a whole GPU is 1, a MIG device its compute slices / the
  // GPU's, a time-sliced or MPS replica 1 / replicas, a fractional share its units / the
  // GPU's units. What per-tenant GPU time is made of (sim/metrics/tenant_share.h).
  double gpus = 0;
  // Attained service (GPU-seconds, LAS): inherited from the evicted pod it replaces, and
  // once it is evicted itself, everything it attained (set by Engine::Evict) to hand on.
  double attained_gpu_s = 0;
  // Once `terminating`: when it ends unless it ends sooner, and where the GPU time it
  // loses up to then was booked (`loss_book`; a sooner end gives the rest back:
  // Engine::Leave). Its kill's reason is `ending`.
  SimTime kill_end;
  // With shared claims: when the instances their allocation created exist (the first pod
  // creates them after its own; later pods wait for them too). They are destroyed with the
  // claim, when its last pod is gone.
  SimTime claim_ready;

  // What this evicted pod hands to the pod its controller creates in its place.
  Handover handover() const;

  bool ended_already() const {
    return phase == PodPhase::kSucceeded || phase == PodPhase::kFailed ||
           phase == PodPhase::kDeleted;
  }
  bool on_node() const { return phase == PodPhase::kStarting || phase == PodPhase::kRunning; }
  // Bound, or reserved for its gang: it holds resources and devices of `node`.
  bool holds_node() const { return on_node() || reserved; }
};
static_assert(sizeof(Pod) <= 192, "a field that widens the pod record grows every run's memory");

}  // namespace migsim
