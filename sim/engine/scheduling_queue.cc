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

void SchedulingQueue::set_groups(std::vector<uint32_t> class_group,
                                 std::function<double(uint32_t)> key) {
  class_group_ = std::move(class_group);
  group_key_ = std::move(key);
  uint32_t groups = 1;
  for (uint32_t g : class_group_) groups = std::max(groups, g + 1);
  heads_.assign(groups, {});
  placed_.assign(groups, std::nullopt);
}

void SchedulingQueue::Reorder(uint32_t group) {
  if (class_group_.empty()) return;
  std::optional<GroupEntry>& placed = placed_[group];
  if (placed) group_order_.erase(*placed);
  placed.reset();
  if (heads_[group].empty()) return;
  placed = GroupEntry{group_key_(group), heads_[group].front().first, group};
  group_order_.insert(*placed);
}

void SchedulingQueue::Rekey(uint32_t group) {
  if (!class_group_.empty() && placed_[group]) Reorder(group);
}

// Accept, Reject and Drop act on the group Front() offered, even when a Rekey since has
// put another group first.
const std::vector<SchedulingQueue::HeadEntry>& SchedulingQueue::FrontHeads() const {
  if (class_group_.empty()) return heads_.front();
  if (!offered_group_) offered_group_ = std::get<2>(*group_order_.begin());
  return heads_[*offered_group_];
}

void SchedulingQueue::PushHead(HeadEntry head) {
  const uint32_t group = GroupOf(head.second);
  std::vector<HeadEntry>& heads = heads_[group];
  heads.push_back(head);
  std::push_heap(heads.begin(), heads.end(),
                 [this](const HeadEntry& a, const HeadEntry& b) { return After(a, b); });
  if (!class_group_.empty() && heads.front() == head) Reorder(group);
}

void SchedulingQueue::PopHead() {
  const uint32_t group = GroupOf(FrontHeads().front().second);
  std::vector<HeadEntry>& heads = heads_[group];
  std::pop_heap(heads.begin(), heads.end(),
                [this](const HeadEntry& a, const HeadEntry& b) { return After(a, b); });
  heads.pop_back();
  if (class_group_.empty()) return;
  offered_group_.reset();
  Reorder(group);
}

void SchedulingQueue::BeginCycle(SimTime now) {
  for (std::vector<HeadEntry>& heads : heads_) heads.clear();
  if (!class_group_.empty()) {
    group_order_.clear();
    offered_group_.reset();
    std::fill(placed_.begin(), placed_.end(), std::nullopt);
  }
  for (size_t c = 0; c < classes_.size(); ++c) {
    const ClassQueue& q = classes_[c];
    if (!q.blocked && !q.pods.empty() && q.retry_at <= now) {
      PushHead({q.pods.front().value(), static_cast<SchedulingClassId::Rep>(c)});
    }
  }
  work_ = false;
}

std::optional<PodId> SchedulingQueue::Front() const {
  if (class_group_.empty()) {
    if (heads_.front().empty()) return std::nullopt;
    return PodId(heads_.front().front().first);
  }
  if (group_order_.empty()) return std::nullopt;
  offered_group_.reset();
  return PodId(FrontHeads().front().first);
}

void SchedulingQueue::PopFront() {
  const SchedulingClassId::Rep klass = FrontHeads().front().second;
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
  ClassQueue& q = classes_[FrontHeads().front().second];
  q.blocked = true;
  q.retry_at = retry_at;
  q.blocked_at = now;
  PopHead();
}

}  // namespace migsim
