#include "sim/engine/scheduling_queue.h"

#include <algorithm>

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

bool SchedulingQueue::After(const HeadEntry& a, const HeadEntry& b) const {
  if (!less_) return a.first > b.first;
  const PodId pa(a.first), pb(b.first);
  if (less_(pb, pa)) return true;
  return !less_(pa, pb) && a.first > b.first;
}

void SchedulingQueue::PushHead(HeadEntry head) {
  heads_.push_back(head);
  std::push_heap(heads_.begin(), heads_.end(),
                 [this](const HeadEntry& a, const HeadEntry& b) { return After(a, b); });
}

void SchedulingQueue::PopHead() {
  std::pop_heap(heads_.begin(), heads_.end(),
                [this](const HeadEntry& a, const HeadEntry& b) { return After(a, b); });
  heads_.pop_back();
}

void SchedulingQueue::BeginCycle() {
  heads_.clear();
  for (size_t c = 0; c < classes_.size(); ++c) {
    const ClassQueue& q = classes_[c];
    if (!q.blocked && !q.pods.empty()) {
      PushHead({q.pods.front().value(), static_cast<SchedulingClassId::Rep>(c)});
    }
  }
  work_ = false;
}

std::optional<PodId> SchedulingQueue::Front() const {
  if (heads_.empty()) return std::nullopt;
  return PodId(heads_.front().first);
}

void SchedulingQueue::PopFront() {
  const SchedulingClassId::Rep klass = heads_.front().second;
  PopHead();
  ClassQueue& q = classes_[klass];
  q.pods.pop_front();
  --size_;
  if (!q.pods.empty()) PushHead({q.pods.front().value(), klass});
}

void SchedulingQueue::Accept() { PopFront(); }
void SchedulingQueue::Drop() { PopFront(); }

void SchedulingQueue::Reject() {
  classes_[heads_.front().second].blocked = true;
  PopHead();
}

}  // namespace migsim
