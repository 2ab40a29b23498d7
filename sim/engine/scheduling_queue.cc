#include "sim/engine/scheduling_queue.h"

#include <algorithm>

namespace migsim {

SchedulingQueue::SchedulingQueue(std::vector<int32_t> class_priority)
    : classes_(class_priority.size()) {
  for (size_t c = 0; c < classes_.size(); ++c) classes_[c].priority = class_priority[c];
}

void SchedulingQueue::set_order(std::function<bool(PodId, PodId)> less, bool within_class) {
  less_ = std::move(less);
  within_class_ = within_class && less_;
}

bool SchedulingQueue::PodAfter(PodId a, PodId b) const {
  if (less_(b, a)) return true;
  return !less_(a, b) && a > b;
}

void SchedulingQueue::Push(PodId pod, SchedulingClassId klass) {
  ClassQueue& q = classes_[klass.value()];
  q.pods.push_back(pod);
  if (within_class_) {
    std::push_heap(q.pods.begin(), q.pods.end(),
                   [this](PodId a, PodId b) { return PodAfter(a, b); });
  }
  ++size_;
  if (!q.blocked) work_ = true;
}

void SchedulingQueue::UnblockAll() {
  ++unblocks_;
  for (ClassQueue& q : classes_) {
    q.blocked = false;
    if (!q.pods.empty()) work_ = true;
  }
}

void SchedulingQueue::Wake(SimTime now) {
  for (ClassQueue& q : classes_) {
    if (q.blocked && unschedulable_timeout_ != SimTime::Max() &&
        q.blocked_at + unschedulable_timeout_ <= now) {
      q.blocked = false;
    }
    if (!q.blocked && !q.pods.empty() && q.retry_at <= now) work_ = true;
  }
}

namespace {

// The earliest of `times` after `now`.
template <typename Classes, typename TimeOf>
std::optional<SimTime> EarliestAfter(const Classes& classes, SimTime now, TimeOf time_of) {
  std::optional<SimTime> next;
  for (const auto& q : classes) {
    const std::optional<SimTime> t = time_of(q);
    if (t && *t > now && (!next || *t < *next)) next = t;
  }
  return next;
}

}  // namespace

std::optional<SimTime> SchedulingQueue::NextRetry(SimTime now) const {
  return EarliestAfter(classes_, now, [](const ClassQueue& q) -> std::optional<SimTime> {
    if (q.blocked || q.pods.empty()) return std::nullopt;
    return q.retry_at;
  });
}

std::optional<SimTime> SchedulingQueue::NextFlush(SimTime now) const {
  if (unschedulable_timeout_ == SimTime::Max()) return std::nullopt;
  return EarliestAfter(classes_, now, [this](const ClassQueue& q) -> std::optional<SimTime> {
    if (!q.blocked || q.pods.empty()) return std::nullopt;
    return q.blocked_at + unschedulable_timeout_;
  });
}

bool SchedulingQueue::After(const HeadEntry& a, const HeadEntry& b) const {
  if (!less_) {
    const int32_t pa = classes_[a.second].priority, pb = classes_[b.second].priority;
    if (pa != pb) return pa < pb;
    return a.first > b.first;
  }
  return PodAfter(PodId(a.first), PodId(b.first));
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

void SchedulingQueue::BeginCycle(SimTime now) {
  heads_.clear();
  for (size_t c = 0; c < classes_.size(); ++c) {
    const ClassQueue& q = classes_[c];
    if (!q.blocked && !q.pods.empty() && q.retry_at <= now) {
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
  if (within_class_) {
    std::pop_heap(q.pods.begin(), q.pods.end(),
                  [this](PodId a, PodId b) { return PodAfter(a, b); });
    q.pods.pop_back();
  } else {
    q.pods.pop_front();
  }
  --size_;
  if (!q.pods.empty()) PushHead({q.pods.front().value(), klass});
}

void SchedulingQueue::Accept() { PopFront(); }
void SchedulingQueue::Drop() { PopFront(); }

void SchedulingQueue::Reject(SimTime retry_at, SimTime now) {
  ClassQueue& q = classes_[heads_.front().second];
  q.blocked = true;
  q.retry_at = retry_at;
  q.blocked_at = now;
  PopHead();
}

}  // namespace migsim
