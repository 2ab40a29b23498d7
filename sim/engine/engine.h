#pragma once
// The discrete-event engine: simulated time, the event queue, the pod lifecycle and
// the scheduling cycle. No I/O, no globals, no wall clock: the same inputs and seed
// give the same run, event for event.
//
// Each instant: all events at that time are applied in (time, sequence) order, then one
// scheduling cycle offers pending pods to the policy in the queue order (EngineInputs::
// queue_order; by default PrioritySort: higher priority, then older, first).

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/event_queue.h"
#include "sim/core/rng.h"
#include "sim/engine/cluster_controller.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/controller.h"
#include "sim/engine/decision_book.h"
#include "sim/engine/device_records.h"
#include "sim/engine/disruption_budget.h"
#include "sim/engine/dominant_shares.h"
#include "sim/engine/engine_counters.h"
#include "sim/engine/engine_events.h"
#include "sim/engine/engine_inputs.h"
#include "sim/engine/gang.h"
#include "sim/engine/job_class.h"
#include "sim/engine/mig_fragmentation_meter.h"
#include "sim/engine/node_conditions.h"
#include "sim/engine/node_group_spec.h"
#include "sim/engine/node_runtime.h"
#include "sim/engine/observer.h"
#include "sim/engine/pending_pods.h"
#include "sim/engine/pod.h"
#include "sim/engine/pod_accounting.h"
#include "sim/engine/pod_store.h"
#include "sim/engine/preemption.h"
#include "sim/engine/run_budget.h"
#include "sim/engine/scheduler_config.h"
#include "sim/engine/scheduling_queue.h"
#include "sim/engine/shared_claim_books.h"
#include "sim/policy/policy.h"
#include "sim/policy/queue_order.h"

namespace migsim {

class Engine final : private ControllerContext {
 public:
  Engine(EngineInputs inputs, Policy& policy, EngineConfig config);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine();

  // REQUIRES: called before Run. The observer must outlive the run.
  void AddObserver(EngineObserver* observer) { observers_.push_back(observer); }
  // The observer told OnNodeGpuUse (none by default); it need not be one of AddObserver's,
  // and must outlive the run.
  void SetNodeGpuUseObserver(EngineObserver* observer) { node_gpu_use_observer_ = observer; }
  // Runs until no event is left or the next one is after the horizon.
  void Run();

  // Results, valid after Run.
  SimTime end_time() const { return now_; }
  // The pods' records by PodId: every pod of the run, unless EngineConfig::
  // release_ended_pods gave back those that were over (pods().size() still counts them).
  const PodStore& pods() const { return pods_; }
  std::span<const NodeInfo> nodes() const { return node_info_; }
  const NodeRuntime& node_runtime(NodeId id) const { return runtimes_[id.value()]; }
  const ResourceTable& resources() const { return resources_; }
  const PodTemplate& pod_template(TemplateId id) const { return templates_[id.value()]; }
  std::string PodName(const Pod& pod) const;
  std::string OwnerName(const Pod& pod) const;
  std::string ControllerName(OwnerId owner) const;  // "DistributedJob/train", ...
  // "gpu3" (whole GPU), "gpu3/1g.5gb@4" (MIG device), "/shared" appended for a
  // time-sliced or MPS replica, "/250m" for a fractional share, "+" between several;
  // "" when none.
  std::string DeviceName(const Pod& pod) const;
  // The policy's answers (placements and MIG repartitions it asked for), those the engine
  // refused (a node that does not fit, a busy device...), and why it refused the first:
  // "pod web-3: node 7 does not exist (the cluster has 4 nodes)"; empty when none was.
  int64_t policy_decisions() const { return decisions_.made(); }
  int64_t rejected_decisions() const { return decisions_.rejected(); }
  const std::string& first_rejection() const { return decisions_.first_rejection(); }
  // True when EngineConfig::should_stop stopped the run before its end: the results then
  // describe the cluster mid-run.
  bool stopped() const { return stopped_; }
  // What the engine's mechanisms counted (engine_counters.h).
  const EngineCounters& counters() const { return counters_; }
  // Events queued during the run (the event queue's work: what events per second count).
  uint64_t events_queued() const { return events_.pushed(); }
  int64_t gpu_capacity_weight() const { return capacity_weight_; }
  // Pods each controller submitted (by OwnerId), counted as Submit and SubmitRecorded
  // are called, apart from the pods' storage: the other side of the pod accounting.
  std::span<const int64_t> submitted_by_owner() const { return submitted_by_owner_; }
  // The cluster controllers, whose results are read after the run (FindController).
  std::span<const std::unique_ptr<ClusterController>> cluster_controllers() const {
    return cluster_controllers_;
  }
  // The gangs the controllers declared (by GangId) and what happened to them.
  std::span<const Gang> gangs() const { return gangs_; }
  // Set when the run stopped early, past its budget (EngineConfig::budget): the results
  // then describe the cluster as it stood at overrun()->at.
  const std::optional<BudgetOverrun>& overrun() const { return overrun_; }
  // The GPU time shared ResourceClaims held (their devices' GPUs x the time allocated, up
  // to the end for a claim still allocated), in GPU-hours, by the namespace of the pod that
  // allocated each (engine_shared_claims.cc): the GPU the claim's pods use, which their own
  // Pod::gpus leave out.
  std::vector<double> SharedClaimGpuHours(size_t namespaces) const {
    return shared_claims_.GpuHours(namespaces, now_);
  }
  // MIG fragmentation (sim/policy/mig_fragmentation.h): stranded compute slices / the
  // compute slices of MIG-enabled GPUs, both integrated over the run; 0 without MIG or
  // unless EngineConfig::measure_mig_fragmentation.
  double mig_fragmentation() const;

 private:
  using Event = EngineEvent;  // engine_events.h

  // ControllerContext
  SimTime now() const override { return now_; }
  Rng& rng() override { return rng_; }
  PodId Submit(TemplateId tmpl, OwnerId owner, uint32_t tag) override;
  PodId SubmitResumed(TemplateId tmpl, OwnerId owner, uint32_t tag, Handover from) override;
  PodId SubmitRecorded(TemplateId tmpl, OwnerId owner, uint32_t tag, SimTime run) override;
  void Delete(PodId pod) override;
  void DeleteGracefully(PodId pod) override;
  void SetTimer(SimTime at, OwnerId owner, uint64_t tag) override;
  const Pod& pod(PodId id) const override { return pods_[id.value()]; }
  // Forwarded to the controller that takes the Kueue role (engine_cluster_api.cc).
  WorkloadId RequestAdmission(OwnerId owner, int32_t local_queue,
                              std::span<const PodSet> pod_sets) override;
  void FinishWorkload(WorkloadId workload) override;
  GangId DeclareGang(const GangSpec& spec, OwnerId owner) override;
  PodId SubmitToGang(TemplateId tmpl, OwnerId owner, uint32_t tag, GangId gang,
                     Handover from) override;

  void Handle(const ControllerTimer& e);
  void Handle(const PodStart& e);
  void Handle(const PodEnd& e);
  void Handle(const ClusterTimer& e);
  void Handle(const DeviceTick& e);
  void Handle(const BackoffWake& e);
  void Handle(const UnschedulableFlush& e);
  void Handle(const GangTimeout& e);
  void Handle(const RankChange& e);
  // After a cycle: queues the wake-ups the scheduling queue needs (NextWake).
  void ScheduleWakes();
  // True when every queued event is an UnschedulableFlush or a cluster controller's idle
  // timer whose controller may not act (those do not keep a run without a horizon going).
  bool OnlyFlushesLeft();
  // Cluster controllers (engine_cluster_api.cc): each one's ClusterApi, and the calls the
  // engine makes to them all.
  class Api;
  void StartClusterControllers();
  // Calls `call` of every cluster controller, in their order, each with its ClusterApi.
  void CallClusterControllers(void (ClusterController::*call)(ClusterApi&));
  bool IdleControllerMayAct() const;
  // Tells every cluster controller (ClusterController::OnNodeChanged).
  void NotifyNodeChanged(uint32_t node, NodeChange change);
  // The controller that takes `role` (ClusterController::admission(), mig_layouts()).
  template <class Role>
  std::pair<Role*, ClusterApi*> RoleOf(Role* (ClusterController::*role)());
  // True for an event made obsolete since it was queued; it is dropped unseen, so it
  // neither runs nor moves the clock.
  bool Stale(const Event& e) const;
  // Records overrun_ when the run went past its budget; true then.
  bool OverBudget();

  PodId AddPod(TemplateId tmpl, OwnerId owner, uint32_t tag, std::optional<SimTime> recorded_run,
               Handover from = {});
  // End of run (engine_accounting.cc): aborts, in every build, unless the pods found are
  // the pods submitted (pod_accounting.h) and QueueError, NodeBookingError and
  // LiveEventError find nothing. O(pods + nodes' resources and devices + queued events).
  void CheckAccounting() const;
  void CountSubmission(OwnerId owner);  // for submitted_by_owner()
  // A pod ended, or left the scheduling queue (PodStore::Done).
  void PodDone(PodId id);
  // With EngineConfig::release_ended_pods: tells the observers and frees over_blocks_.
  void ReleaseOverPods();
  std::optional<std::string> QueueError() const;
  std::optional<std::string> NodeBookingError() const;
  std::optional<std::string> LiveEventError() const;
  void AssignSchedulingClasses();
  void ScheduleCycle();
  bool TryBind(Pod& pod);
  void BindPinned();             // engine_pinned.cc
  bool TryBindPinned(Pod& pod);  // engine_pinned.cc
  std::vector<MigReconfiguration> PostFilter(Pod& pod, const PodView& view,
                                             const ClusterView& cluster);
  PodView ViewOf(const Pod& pod, uint32_t pending_alike = 1) const;
  // True when the policy's placement is one the engine can apply (see policy.h).
  bool Valid(const Placement& placement, const PodView& pod, const ClusterView& cluster);
  // Why the engine refuses `placement` (REQUIRES: !Valid): for first_rejection().
  std::string RejectionReason(const Placement& placement, const Pod& pod, const PodView& view,
                              const ClusterView& cluster) const;
  void Bind(Pod& pod, NodeId node, std::span<const DeviceChoice> devices);
  // Preemption (engine_preemption.cc).
  void Preempt(Pod& pod, const PodView& view);
  bool EligibleToPreempt(const Pod& pod) const;
  // At least `at_least` candidates if there are (a gang needs one per pending member).
  std::vector<NodeVictims> FindCandidates(const PodView& view, size_t at_least = 0);
  bool LowerPodsFreeEnough(const NodeInfo& info, const PodView& view) const;
  std::vector<PotentialVictim> LowerPriorityPods(const NodeInfo& info, int32_t priority) const;
  void Evict(Pod& victim);
  // Delete's end, also of a graceful deletion once its grace period is over.
  void EndDeleted(Pod& pod);
  // The one way a bound pod is killed: it stops computing at once, keeps its node and
  // devices, and ends with `reason` at `end` (>= now; Pod::ending, terminating). Counts the
  // kill by cause, tells the observers, and books to `book` the GPU-seconds it holds that
  // no checkpoint keeps (Pod::gpus x (end - bound - the running time its checkpoints
  // cover)); Leave gives back the part after a sooner end. Returns what it booked.
  // REQUIRES: the pod is bound and not terminating.
  double Terminate(Pod& victim, SimTime end, EndReason reason, LossBook book);
  // The GPU-seconds lost to `book`'s cause (nullptr for kUnbooked).
  double* LossBookOf(LossBook book);
  // A terminating pod ends now, with the reason it was killed for.
  void EndNow(Pod& pod);
  double SaveCheckpoint(Pod& victim);
  // The running time of `pod` that its checkpoints cover at `at` (0: no checkpoints, or
  // not running).
  double CheckpointedSeconds(const Pod& pod, SimTime at) const;
  // The gang's attempt is lost to a member's kill (Gang::attempt_lost_at).
  void LoseAttempt(Gang& gang, EndReason cause);
  // Books the GPU time a gang member loses when it is deleted after its attempt was lost.
  void BookLostAttempt(const Pod& member);
  void SetReady(Pod& pod, bool ready);
  void ClearNomination(Pod& pod);
  void HoldNominated(const Pod& pod, int sign);
  // Bind's halves: the pod takes the node's resources and devices (kube-scheduler's
  // "assume"), then is bound and starts after its start-up delay. A gang's pod is assumed
  // when reserved and bound at Permit.
  void Assume(Pod& pod, NodeId node, std::span<const DeviceChoice> devices);
  void BindAssumed(Pod& pod);
  void AllocateClaims(Pod& pod, NodeRuntime& runtime, NodeInfo& info);
  void CountCreated(const NodeRuntime& runtime, uint32_t created);
  // Shared ResourceClaims (engine_shared_claims.cc). The pod's claims, own and shared, on
  // the node it is assumed on: a shared claim not allocated yet is allocated with the
  // pod's own (as ClusterView::Fits found them); the pod holds each shared claim's devices
  // with no tenant (the claim holds one) and is counted in its reservedFor.
  void AllocateWithSharedClaims(Pod& pod, NodeRuntime& runtime, NodeInfo& info);
  // The rest of it once the devices are taken: `fresh` (the claims it allocated) are placed
  // on the pod's node and shared; the pod reserves all its shared claims.
  void ReserveSharedClaims(Pod& pod, std::span<const dra::SharedClaimId> fresh,
                           NodeRuntime& runtime, NodeInfo& info);
  // The pod leaves its shared claims' reservedFor; a claim left with none is released.
  void ReleaseSharedClaims(const Pod& pod);
  // Re-measures the node's stranded MIG slices (a bind, a release, a MIG change).
  void UpdateMigFragmentation(uint32_t node);
  // The policy's MIG repartitions: each validated (a decision, counted), the valid ones
  // handed to the MIG manager (engine_mig_change.cc).
  void RequestMigLayouts(const std::vector<MigReconfiguration>& changes);
  bool Valid(const MigReconfiguration& change) const;
  // ClusterApi's MIG verbs (their contracts are in cluster_api.h).
  void BeginMigChange(uint32_t node, const std::vector<GpuMigSetting>& target,
                      const std::string& config, SimTime duration, LossBook book);
  void BeginMigRepartition(uint32_t node, const std::string& config, SimTime until);
  void FinishMigChange(uint32_t node, const std::vector<GpuMigSetting>& gpus,
                       const std::string& config);
  void EndPod(Pod& pod, PodPhase phase, EndReason reason);
  void Leave(Pod& pod);
  void ReleaseFromNode(Pod& pod);
  // ReleaseFromNode without telling anyone: the scheduling queue and the observers.
  void FreeNode(Pod& pod);
  // Gangs (engine_gang.cc). In the scheduling cycle: tries the front pod's gang and
  // accepts or rejects the front pod.
  void ScheduleGangPod(Pod& pod);
  enum class GangOutcome { kBound, kHeld, kRejected };
  GangOutcome TryGang(GangId id);
  // PreFilter: true when the gang may be tried now.
  bool GangMayTry(const Gang& gang) const;
  // Tries every pending member not yet reserved under `constraint`, reserving those that
  // fit; true when all found a node.
  bool ReserveMembers(Gang& gang, GangConstraint& constraint);
  bool TryInDomains(Gang& gang, GangConstraint& constraint,
                    const std::map<std::string, int64_t>& room);
  // How many more of the gang's pending pods each domain (one, "", unless `by_domain`)
  // could take by its nodes' free resources: an upper bound on what ReserveMembers places.
  std::map<std::string, int64_t> GangRoom(const Gang& gang, const GangConstraint& constraint,
                                          bool by_domain) const;
  // True when an attempt can neither bind the gang nor end holding reservations.
  bool Hopeless(const Gang& gang, const std::map<std::string, int64_t>& room) const;
  // True when a gang with `assigned` pods reserved or bound may hold its reservations.
  bool MayHold(const Gang& gang, int64_t assigned) const;
  GangConstraint ConstraintOf(const Gang& gang) const;
  // The first of the gang's pods waiting for a node (pending, not reserved), or none.
  PodId FirstUnplaced(const Gang& gang) const;
  // The gang's pending pods that need new nodes, for the node autoscalers; nullopt when
  // none do (engine_gang.cc).
  std::optional<PendingPods> GangAwaitingNodes(const Gang& gang) const;
  void Permit(Gang& gang);
  // Releases the gang's reservations; `announce`: as a cluster event (they were held).
  void ReleaseReservations(Gang& gang, bool announce);
  void GangFailed(Gang& gang);
  // Gang preemption, all or nothing (engine_gang_preemption.cc).
  struct GangSeat {
    NodeId node;
    const NodeVictims* victims = nullptr;  // none: a member fits there as it is
  };
  std::vector<Pod*> PendingMembers(const Gang& gang);
  void PreemptForGang(const Gang& gang);
  std::vector<GangSeat> PlanGang(const PodView& view, const std::vector<NodeVictims>& candidates,
                                 size_t count) const;
  void CompactMembers(Gang& gang);
  // A member ends or is deleted: the gang's counts, and its reservation if it held one.
  void LeaveGang(Pod& pod);
  // Checks that a starting gang pod was bound by a Permit of at least minMember pods.
  void CheckGangStart(const Pod& pod) const;
  // A MIG change takes a node's devices: gangs with reservations there release them all.
  void ReleaseReservationsOn(NodeId node);
  // Every cluster event so far (a queue unblock), and those among them that were not
  // reservations being released.
  uint64_t ClusterEvents() const { return queue_.unblocks(); }
  uint64_t PodReleases() const { return queue_.unblocks() - reservation_releases_; }
  std::optional<std::string> GangError() const;
  void NotifyAllocation();
  // Running: see engine_time_share.cc.
  std::optional<SimTime> PlanRun(Pod& pod);
  // Sets the pod's progress for a run of `run` alone that ends with `end`; returns `run`.
  SimTime StartRun(Pod& pod, SimTime run, EndReason end);
  std::optional<uint32_t> SharedDevice(const Pod& pod) const;
  // A process starts or stops on a shared device (false: the pod was not one); then
  // Reshare moves the device's speeds and its tick.
  void AddProcess(Pod& pod, uint32_t device);
  bool RemoveProcess(Pod& pod, uint32_t device);
  void Reshare(NodeId node, uint32_t device);
  static ShareRule RuleOf(const NodeRuntime::Device& dev);
  ProcessClass ProcessClassOf(const Pod& pod, uint32_t device) const;
  std::optional<double> VirtualEndOf(const Pod& pod) const;
  void AdvanceProgress(Pod& pod);
  int64_t GpuMemoryOf(const Pod& pod) const;
  double DutyCycleOf(const Pod& pod) const;
  // The fraction of `device` the pod holds (held units / the device's units).
  double ShareOf(const Pod& pod, uint32_t device) const;
  bool FitsDeviceMemory(const Pod& pod) const;
  void OutOfMemory(Pod& pod);
  // Compute utilization: busy fractions of devices (see EngineObserver::OnGpuBusy).
  void SetBusy(NodeId node, uint32_t device, double fraction);
  // Sets the busy fraction of the pod's devices that are not shared; true when it has any.
  // The caller tells the node's use (NotifyNodeGpuUse) once it has made its changes.
  bool SetBusyOfExclusiveDevices(const Pod& pod, double fraction);
  // Tells the observers the node's active and busy GPU weight (OnNodeGpuUse): SetBusy's
  // callers, after their changes.
  void NotifyNodeGpuUse(uint32_t node);
  std::span<const NodeRuntime::Held> DevicesOf(const Pod& pod) const;
  // Queue disciplines beyond a static order (engine_disciplines.cc).
  void SetUpDisciplines();
  // Fair share: books the pod's requests to its namespace (+1 on bind, -1 on release).
  void BookTenant(const Pod& pod, int sign);
  // What preemption compares: the queue discipline's rank when it is preemptive, else the
  // pod's priority.
  // Inline: preemption asks it of every pod on the nodes it looks at.
  int32_t Rank(const Pod& pod) const {
    return preemptive_order_ ? DisciplineRank(pod) : templates_[pod.tmpl.value()].priority;
  }
  int32_t DisciplineRank(const Pod& pod) const;
  // Queues the pod's next RankChange, if its discipline has one.
  void ScheduleRankChange(const Pod& pod);
  bool StaleRankChange(const RankChange& e) const;
  // PodView's resumed, ran, gpus and attained_gpu_s.
  void AddServiceTo(const Pod& pod, PodView& view) const;
  // Preemptive disciplines (LAS): an evicted pod's Pod::attained_gpu_s becomes all the
  // service it attained, for its controller to hand to its replacement.
  void RecordAttained(Pod& pod) const;
  // Node conditions (engine_node_conditions.cc): ClusterApi's node verbs (cluster_api.h).
  void SetNodeNotReady(uint32_t node, SimTime toleration);
  void SetNodeReady(uint32_t node);
  void SetGpuHealth(uint32_t node, int gpu, bool healthy);
  void Cordon(uint32_t node);
  void Uncordon(uint32_t node);
  bool MayEvict(const Pod& pod, std::vector<int32_t>& allowed) const;
  bool EvictAllowed(uint32_t node, SimTime max_grace, LossBook book);  // ClusterApi::EvictPods
  void DeleteNode(uint32_t node);
  // Ends every pod on `node` (those holding a device of `gpu`, unless -1) that is not
  // terminating yet with `reason` at `end`; terminating ones too when `all`, with their own
  // reason, at once.
  void KillPodsOn(uint32_t node, int gpu, SimTime end, EndReason reason, bool all);
  void UpdateSchedulable(uint32_t node);
  void RecordFault(const FaultNotice& notice);
  void RecordPoolAvailability(uint32_t pool, int64_t available, int64_t total);
  void RecordKueueWorkload(const KueueWorkloadNotice& notice);
  // What the autoscalers ask of the scheduler (engine_scheduler_simulation.cc; ClusterApi's
  // UnschedulablePods, PodsThatCannotMove, NodesWaitingGangsNeed).
  std::vector<PendingPods> UnschedulablePods() const;
  bool FitsSomeNode(const PodView& view) const;
  std::vector<PendingPods> PodsThatCannotMove(std::span<const uint32_t> leaving,
                                              std::span<const uint8_t> held = {}) const;
  std::vector<uint8_t> NodesWaitingGangsNeed() const;

  const ClusterSpec* cluster_;
  ResourceTable resources_;
  std::vector<JobClass> job_classes_;
  std::vector<PodTemplate> templates_;
  std::vector<SchedulingClassId> template_class_;
  std::vector<std::unique_ptr<Controller>> controllers_;
  ClusterControllers cluster_controllers_;
  std::vector<std::unique_ptr<Api>> apis_;  // by cluster controller
  size_t idle_timers_ = 0;                  // ClusterTimers queued with `idle`
  Policy* policy_;
  SchedulerConfig scheduler_;
  uint32_t next_start_node_ = 0;  // percentageOfNodesToScore: where the next cycle looks first
  std::unique_ptr<QueueOrder> queue_order_;
  // By template: what PodView::run_estimate says of a job-class pod.
  std::vector<std::optional<SimTime>> template_estimate_;
  EngineConfig config_;

  SimTime now_;
  Rng rng_;
  EventQueue<Event> events_;
  PodStore pods_;
  // Blocks of pods_ whose pods are all over, released at the end of the instant
  // (ReleaseOverPods), and the census of the released pods (for CheckAccounting).
  std::vector<size_t> over_blocks_;
  PodCensus released_census_;
  std::vector<int64_t> submitted_by_owner_;  // see submitted_by_owner()
  DeviceRecords device_records_;             // the devices bound pods hold (device_records.h)
  std::vector<NodeInfo> node_info_;
  // The scheduler's index of the nodes' free capacity (policies see it through
  // ClusterView::CandidatesFor). Every change to a node's requested or allocatable
  // resources or to its schedulable flag must be followed by NodeChanged before the next
  // scheduling cycle; the end-of-run check (NodeBookingError) finds one that was not.
  NodeCapacityIndex capacity_index_;
  void NodeChanged(uint32_t node) {
    capacity_index_.Invalidate(node);
    node_changed_at_[node] = now_;
  }
  std::vector<SimTime> node_changed_at_;  // by node: ClusterApi::node_changed_at
  std::vector<NodeRuntime> runtimes_;
  SchedulingQueue queue_{0};
  std::vector<EngineObserver*> observers_;
  EngineObserver* node_gpu_use_observer_ = nullptr;  // see SetNodeGpuUseObserver
  int64_t allocated_weight_ = 0;
  double busy_weight_ = 0;
  int64_t capacity_weight_ = 0;
  DecisionBook decisions_;
  bool stopped_ = false;
  // Preemption: the budgets' counts, pending pods with a nominated node (few), the ones
  // HoldNominated booked, and a stream of its own for the dry run's start (so that the
  // other draws do not shift).
  DisruptionBudgets budgets_;
  std::vector<PodId> nominated_pods_;
  std::vector<PodId> pinned_;  // pods with a nodeName created since the last cycle
  std::vector<PodId> held_nominations_;
  Rng preemption_rng_;
  mutable std::vector<int64_t> scratch_taken_;  // LowerPodsFreeEnough's
  int32_t lowest_priority_ = 0;                 // over the templates
  // By node: when the MIG change under way (scripted or a policy's) ends.
  std::vector<SimTime> reconfiguring_until_;
  uint64_t next_tick_ = 0;                  // DeviceTick ids, unique in the run
  uint32_t next_process_seq_ = 0;           // Pod::process_seq of the last process started
  SimTime backoff_wake_ = SimTime::Zero();  // the latest BackoffWake queued
  SimTime flush_wake_ = SimTime::Zero();    // the latest UnschedulableFlush queued
  size_t pending_flushes_ = 0;
  std::vector<Gang> gangs_;
  uint64_t reservation_releases_ = 0;  // queue unblocks made by releasing reservations
  // Fair share (a QueueOrder that GroupsByNamespace): the namespaces' dominant shares.
  bool fair_share_ = false;
  DominantShares dominant_shares_;
  // Preemptive disciplines (LAS, SRTF): whether the queue order is one.
  bool preemptive_order_ = false;
  EngineCounters counters_;  // what counters() reports
  std::optional<BudgetOverrun> overrun_;
  std::vector<NodeConditions> node_conditions_;  // by node (node_conditions.h)
  // DRA.
  std::vector<dra::DeviceClass> device_classes_;
  MigFragmentationMeter mig_fragmentation_{0};
  SharedClaimBooks shared_claims_;
};

}  // namespace migsim
