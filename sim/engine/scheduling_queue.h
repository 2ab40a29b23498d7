#pragma once
// The queue of pending pods, grouped by scheduling class (pods with identical requests,
// node selector, affinity and priority).
//
// Class heads are tried in kube-scheduler's PrioritySort order — higher priority first,
// then older — or in a queue order given with set_order. When the head of a class does
// not fit, every pod behind it would not fit either, so the class is blocked until
// capacity frees somewhere (UnblockAll): kube-scheduler's unschedulable pods, moved back
// on cluster events. This keeps a cycle's cost at O(classes + pods bound · log) instead
// of O(pending pods).
//
// Back-off (kube-scheduler's backoffQ): a rejected head carries a retry time; its class,
// once unblocked, is not offered before it. A class blocked for longer than the
// unschedulable timeout is unblocked anyway. NextRetry and NextFlush tell the engine when
// to call Wake.
//
// Groups (fair share across tenants): classes may be put in groups, each with a key that
// can change at any time (Rekey). A cycle then offers first the head of the group whose
// key is smallest (ties: the older head), and inside a group orders as above. The groups
// of a cycle are kept in an ordered set, so a change costs O(log groups).

#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/sim_time.h"

namespace migsim {

class SchedulingQueue {
 public:
  // `class_priority[c]` is the priority of class c's pods (all alike).
  explicit SchedulingQueue(std::vector<int32_t> class_priority);
  explicit SchedulingQueue(size_t class_count)
      : SchedulingQueue(std::vector<int32_t>(class_count, 0)) {}

  // Orders the class heads by `less` (true: a goes first) instead of PrioritySort; ties
  // go to the older pod. With `within_class`, each class is kept as a heap in that order
  // too (for orders on something pods of one class differ in, such as a run-time
  // estimate); otherwise a class keeps creation order. `less` must not change its answer
  // for two pods while they are queued. Call before the first Push.
  void set_order(std::function<bool(PodId, PodId)> less, bool within_class = false);
  // Puts class c in group `class_group[c]`; `key(g)` orders the groups (smaller first)
  // and may change between calls, provided Rekey(g) is called when it does. Call before
  // the first Push.
  void set_groups(std::vector<uint32_t> class_group, std::function<double(uint32_t)> key);
  // Group g's key changed: reorders it among the groups of the cycle under way. Accept,
  // Reject and Drop still act on the pod Front() offered.
  void Rekey(uint32_t group);
  // A class blocked since `t` is unblocked at t + `timeout` (Wake).
  void set_unschedulable_timeout(SimTime timeout) { unschedulable_timeout_ = timeout; }

  void Push(PodId pod, SchedulingClassId klass);
  // Capacity freed: every class may fit again (once its back-off is over).
  void UnblockAll();
  // UnblockAll calls so far: the cluster events the queue has seen.
  uint64_t unblocks() const { return unblocks_; }
  // Unblocks the classes blocked at or before now - the unschedulable timeout, and makes
  // work of the unblocked classes whose back-off is over.
  void Wake(SimTime now);
  // True when some unblocked class has pods.
  bool HasWork() const { return work_; }
  // After `now`: the next time an unblocked class's back-off ends, and the next time a
  // blocked class's unschedulable timeout expires; nullopt when there is none.
  std::optional<SimTime> NextRetry(SimTime now) const;
  std::optional<SimTime> NextFlush(SimTime now) const;

  // A cycle: BeginCycle, then repeatedly Front() and one of Accept/Reject/Drop. Classes
  // whose back-off ends after `now` sit the cycle out.
  void BeginCycle(SimTime now = SimTime::Max());
  // The next pod to try, or nullopt when the cycle is over.
  std::optional<PodId> Front() const;
  void Accept();  // the front pod was bound
  // The front pod does not fit: block its class; retry it no earlier than `retry_at`
  // (its back-off), the block having begun at `now`.
  void Reject(SimTime retry_at = SimTime::Zero(), SimTime now = SimTime::Zero());
  void Drop();  // the front pod is no longer pending (deleted): remove it
  // Pods queued in the front pod's class, the front one included.
  size_t FrontClassSize() const { return classes_[FrontHeads().front().second].pods.size(); }

  size_t pending_upper_bound() const { return size_; }
  // Calls f(PodId) for every queued pod, blocked classes included, in no set order.
  template <typename F>
  void ForEach(F&& f) const {
    for (const ClassQueue& q : classes_) {
      for (PodId pod : q.pods) f(pod);
    }
  }

 private:
  struct ClassQueue {
    std::deque<PodId> pods;  // front: the class's head (a heap with a within-class order)
    int32_t priority = 0;
    bool blocked = false;
    SimTime retry_at = SimTime::Zero();
    SimTime blocked_at = SimTime::Zero();
  };
  using HeadEntry = std::pair<PodId::Rep, SchedulingClassId::Rep>;  // (pod id, class)

  // (key, head pod, group): a group's place among the groups of the cycle.
  using GroupEntry = std::tuple<double, PodId::Rep, uint32_t>;

  void PopFront();
  void PushHead(HeadEntry head);
  void PopHead();
  uint32_t GroupOf(SchedulingClassId::Rep klass) const {
    return class_group_.empty() ? 0 : class_group_[klass];
  }
  // The heads heap of the group to try next. REQUIRES: Front() has a value.
  const std::vector<HeadEntry>& FrontHeads() const;
  // Refreshes group g's entry in group_order_ after its heads or key changed.
  void Reorder(uint32_t group);
  // Heap order: true when `a` comes after `b`.
  bool After(const HeadEntry& a, const HeadEntry& b) const;
  bool PodAfter(PodId a, PodId b) const;

  std::vector<ClassQueue> classes_;
  // By group: heap of class heads for the current cycle, the next to try at the front.
  // Without groups there is one group and no group_order_.
  std::vector<std::vector<HeadEntry>> heads_{1};
  std::vector<uint32_t> class_group_;  // empty: no groups
  std::function<double(uint32_t)> group_key_;
  std::set<GroupEntry> group_order_;               // the groups with heads, next first
  std::vector<std::optional<GroupEntry>> placed_;  // by group: its entry in group_order_
  // The group of the pod Front() last offered, until it is accepted, rejected or dropped.
  mutable std::optional<uint32_t> offered_group_;
  std::function<bool(PodId, PodId)> less_;  // empty: PrioritySort
  bool within_class_ = false;
  SimTime unschedulable_timeout_ = SimTime::Max();
  bool work_ = false;
  size_t size_ = 0;
  uint64_t unblocks_ = 0;
};

}  // namespace migsim
