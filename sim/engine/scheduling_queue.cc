#include "sim/engine/scheduling_queue.h"

namespace migsim {

void SchedulingQueue::Push(PodId pod, SchedulingClassId klass) {
  ClassQueue& q = classes_[klass.value()];
  q.pods.push_back(pod);
  ++size_;
  if (!q.blocked) work_ = true;
}

void SchedulingQueue::UnblockAll() {
  for (ClassQueue& q : classes_) {
    q.blocked = false;
    if (!q.pods.empty()) work_ = true;
  }
}

void SchedulingQueue::BeginCycle() {
  heads_ = {};
  for (size_t c = 0; c < classes_.size(); ++c) {
    const ClassQueue& q = classes_[c];
    if (!q.blocked && !q.pods.empty()) {
      heads_.emplace(q.pods.front().value(), static_cast<SchedulingClassId::Rep>(c));
    }
  }
  work_ = false;
}

std::optional<PodId> SchedulingQueue::Front() const {
  if (heads_.empty()) return std::nullopt;
  return PodId(heads_.top().first);
}

void SchedulingQueue::PopFront() {
  auto [pod, klass] = heads_.top();
  heads_.pop();
  ClassQueue& q = classes_[klass];
  q.pods.pop_front();
  --size_;
  if (!q.pods.empty()) heads_.emplace(q.pods.front().value(), klass);
}

void SchedulingQueue::Accept() { PopFront(); }
void SchedulingQueue::Drop() { PopFront(); }

void SchedulingQueue::Reject() {
  classes_[heads_.top().second].blocked = true;
  heads_.pop();
}

}  // namespace migsim
