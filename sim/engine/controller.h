#pragma once
// Controllers turn a scenario into pods over time, as Kubernetes controllers do
// (Deployments, Jobs, Argo Workflows, bare pods). They live in workloads/ and talk to
// the engine only through ControllerContext.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sim/core/ids.h"
#include "sim/core/rng.h"
#include "sim/core/sim_time.h"
#include "sim/engine/gang.h"
#include "sim/engine/kueue_spec.h"
#include "sim/engine/pod.h"

namespace migsim {

class ControllerContext {
 public:
  virtual SimTime now() const = 0;
  virtual Rng& rng() = 0;
  // Creates a pending pod from `tmpl`, owned by `owner`, with the owner's `tag`.
  virtual PodId Submit(TemplateId tmpl, OwnerId owner, uint32_t tag) = 0;
  // Submit for a pod that takes over from an evicted predecessor (Pod::handover): its
  // work from the last checkpoint, `from.work` of it already done, and the service the
  // predecessor attained. REQUIRES: 0 <= from.work < 1, from.attained_gpu_s >= 0.
  virtual PodId SubmitResumed(TemplateId tmpl, OwnerId owner, uint32_t tag, Handover from) = 0;
  // The same for a trace pod, which runs for `run` once started, on any device: its
  // template has no job class. REQUIRES: run >= 0.
  virtual PodId SubmitRecorded(TemplateId tmpl, OwnerId owner, uint32_t tag, SimTime run) = 0;
  // Deletes a pod that has not ended (pending pods leave the queue, bound pods release
  // their resources). No effect on a pod that already ended. Does not call back
  // OnPodEnded: the caller knows.
  virtual void Delete(PodId pod) = 0;
  // Delete as the API server does it: a bound pod stops computing at once and keeps its
  // node for its terminationGracePeriodSeconds, then ends Deleted. What its checkpoints
  // kept is its handover() as soon as this returns. Pending pods go at once; no effect on
  // a pod that ended or is terminating. Not reported to OnPodEnded either.
  virtual void DeleteGracefully(PodId pod) = 0;
  // Calls owner->OnTimer(tag) at `at`. REQUIRES: at >= now().
  virtual void SetTimer(SimTime at, OwnerId owner, uint64_t tag) = 0;
  virtual const Pod& pod(PodId id) const = 0;
  // Kueue (the cluster controller with the WorkloadAdmission role, cluster_controller.h):
  // asks for the admission of a workload of `pod_sets`, its request being each set's
  // count × its template's requests, through LocalQueue `local_queue` (a KueueSpec::
  // local_queues index). The owner hears OnAdmitted when it is admitted and OnEvicted
  // when it is evicted (it then waits in its queue again).
  // REQUIRES: the run has Kueue and the loader checked the queue and the request.
  virtual WorkloadId RequestAdmission(OwnerId owner, int32_t local_queue,
                                      std::span<const PodSet> pod_sets) = 0;
  // The workload is done (or no longer wanted): its quota, if admitted, is released.
  virtual void FinishWorkload(WorkloadId workload) = 0;
  // Declares a gang (a coscheduling PodGroup, gang.h) owned by `owner`; it lives for the
  // whole run, and pods join it through SubmitToGang.
  virtual GangId DeclareGang(const GangSpec& spec, OwnerId owner) = 0;
  // Submit, into gang `gang`: the pod is scheduled with its gang, all or nothing.
  // REQUIRES: `gang` was declared by `owner`; `tmpl` is a gang template (PodTemplate::gang).
  // `from`: as for SubmitResumed, what an evicted predecessor hands on ({}: nothing).
  virtual PodId SubmitToGang(TemplateId tmpl, OwnerId owner, uint32_t tag, GangId gang,
                             Handover from) = 0;

 protected:
  ~ControllerContext() = default;
};

class Controller {
 public:
  virtual ~Controller() = default;
  // "Deployment/mig1-5", "Workflow/super-resolution", ...
  virtual std::string name() const = 0;
  // Called once at t = 0; typically sets a timer for the workload's start.
  virtual void Start(ControllerContext& ctx, OwnerId self) = 0;
  virtual void OnTimer(ControllerContext& ctx, uint64_t tag) = 0;
  // Called after one of this controller's pods succeeded or failed. `pod` is a copy:
  // the controller may submit pods during the call.
  virtual void OnPodEnded(ControllerContext& ctx, const Pod& pod) = 0;
  // The Kubernetes name of a pod this controller created with `tag` and id `id`.
  virtual std::string PodName(const Pod& pod) const = 0;
  // False for bare pods, which nothing recreates once evicted: the Cluster Autoscaler
  // does not scale down a node that runs one.
  virtual bool RecreatesPods() const { return true; }
  // Kueue admitted `workload` (ControllerContext::RequestAdmission): `templates` has, per
  // pod set, the template to create its pods from (the flavors' node labels added).
  virtual void OnAdmitted(ControllerContext&, WorkloadId /*workload*/,
                          std::span<const TemplateId> /*templates*/) {}
  // Kueue evicted `workload` (preemption): the controller deletes its pods gracefully, as
  // a suspended Job's controller does, and waits for the next OnAdmitted.
  virtual void OnEvicted(ControllerContext&, WorkloadId /*workload*/) {}
};

}  // namespace migsim
