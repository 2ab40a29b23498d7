#pragma once
// The queue of pending pods, grouped by scheduling class (pods with identical requests
// and node selector).
//
// Pods are tried in creation order across classes. When the head of a class does not
// fit, every pod behind it would not fit either, so the class is blocked until capacity
// frees somewhere (UnblockAll). This is Kubernetes' "unschedulable pods are retried on
// cluster events", and it keeps a cycle's cost at O(classes + pods bound) instead of
// O(pending pods).

#include <deque>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "sim/core/ids.h"

namespace migsim {

class SchedulingQueue {
 public:
  explicit SchedulingQueue(size_t class_count) : classes_(class_count) {}

  // Orders the class heads by `less` (a policy's queue order) instead of creation order;
  // ties still go to the older pod. Call before the first cycle.
  void set_order(std::function<bool(PodId, PodId)> less) { less_ = std::move(less); }

  void Push(PodId pod, SchedulingClassId klass);
  // Capacity freed: every class may fit again.
  void UnblockAll();
  // True when some unblocked class has pods.
  bool HasWork() const { return work_; }

  // A cycle: BeginCycle, then repeatedly Front() and one of Accept/Reject/Drop.
  void BeginCycle();
  // The oldest pod at the head of an unblocked class, or nullopt when the cycle is over.
  std::optional<PodId> Front() const;
  void Accept();  // the front pod was bound
  void Reject();  // the front pod does not fit: block its class
  void Drop();    // the front pod is no longer pending (deleted): remove it
  // Pods queued in the front pod's class, the front one included.
  size_t FrontClassSize() const { return classes_[heads_.front().second].pods.size(); }

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
    std::deque<PodId> pods;
    bool blocked = false;
  };
  using HeadEntry = std::pair<PodId::Rep, SchedulingClassId::Rep>;  // (pod id, class)

  void PopFront();
  void PushHead(HeadEntry head);
  void PopHead();
  // Heap order: true when `a` comes after `b`.
  bool After(const HeadEntry& a, const HeadEntry& b) const;

  std::vector<ClassQueue> classes_;
  // Heap of class heads for the current cycle, the next to try at the front.
  std::vector<HeadEntry> heads_;
  std::function<bool(PodId, PodId)> less_;  // empty: creation order
  bool work_ = false;
  size_t size_ = 0;
};

}  // namespace migsim
