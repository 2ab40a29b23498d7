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
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "sim/core/ids.h"

namespace migsim {

class SchedulingQueue {
 public:
  explicit SchedulingQueue(size_t class_count) : classes_(class_count) {}

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

  std::vector<ClassQueue> classes_;
  // Min-heap of class heads for the current cycle.
  std::priority_queue<HeadEntry, std::vector<HeadEntry>, std::greater<>> heads_;
  bool work_ = false;
  size_t size_ = 0;
};

}  // namespace migsim
