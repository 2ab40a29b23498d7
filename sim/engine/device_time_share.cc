#include "sim/engine/device_time_share.h"

#include <algorithm>
#include <limits>

#include "sim/core/check.h"
#include "sim/engine/time_share.h"

namespace migsim {

void DeviceTimeShare::AdvanceTo(SimTime now) {
  const double elapsed = (now - at_).seconds();
  if (elapsed != 0) {
    for (auto& [cls, c] : classes_) c.clock += c.speed * elapsed;
  }
  at_ = now;
}

std::optional<double> DeviceTimeShare::Add(PodId pod, const ProcessClass& cls,
                                           std::optional<double> work, uint64_t seq) {
  Class& c = classes_[cls];
  ++c.count;
  ++processes_;
  if (!work) return std::nullopt;
  const double virtual_end = c.clock + *work;
  c.ends.insert(End{virtual_end, seq, pod});
  return virtual_end;
}

void DeviceTimeShare::Remove(PodId pod, const ProcessClass& cls,
                             std::optional<double> virtual_end, uint64_t seq) {
  auto it = classes_.find(cls);
  MIGSIM_CHECK(it != classes_.end() && it->second.count > 0, "a process removed twice");
  Class& c = it->second;
  if (virtual_end) {
    MIGSIM_CHECK(c.ends.erase(End{*virtual_end, seq, pod}) == 1,
                 "a process removed with another virtual end");
  }
  --processes_;
  // An empty class starts its clock afresh when it comes back, so clocks stay small.
  if (--c.count == 0) classes_.erase(it);
}

double DeviceTimeShare::Reshare(ShareRule rule, double overhead) {
  // Max-min fairness over the classes, smallest effective demand first (the map's order:
  // by demand, and the cap is the device's for kCappedFair): each gets min(its demand, an
  // equal split of what is left), as MaxMinShares does process by process.
  double left = 1.0;
  int64_t remaining = processes_;
  double busy = 0;
  for (auto& [cls, c] : classes_) {
    const double effective = std::min(cls.demand, cls.cap);
    if (rule == ShareRule::kCapped) {
      c.share = effective;
    } else {
      c.share = std::min(effective, left / static_cast<double>(remaining));
      left -= c.share * static_cast<double>(c.count);
      remaining -= c.count;
    }
    busy += c.share * static_cast<double>(c.count);
    const int sharing = processes_ > 1 ? 2 : 1;  // TimeSlicedSpeed asks only whether > 1
    c.speed = cls.fixed_speed ? 1.0 : TimeSlicedSpeed(c.share, cls.demand, sharing, overhead);
  }
  return busy;
}

double DeviceTimeShare::SecondsLeft(const Class& c, double virtual_end) {
  const double left = virtual_end - c.clock;
  if (left <= 0) return 0;
  if (!(c.speed > 0)) return std::numeric_limits<double>::infinity();
  return left / c.speed;
}

double DeviceTimeShare::SecondsLeft(const ProcessClass& cls, double virtual_end) const {
  auto it = classes_.find(cls);
  MIGSIM_CHECK(it != classes_.end(), "the end of a class with no process");
  return SecondsLeft(it->second, virtual_end);
}

// As the recomputation did: the time now when due, else now + the seconds left (rounded
// to the microsecond; SimTime::Max() when infinite).
SimTime DeviceTimeShare::EndOf(const Class& c, double virtual_end) const {
  const double left = SecondsLeft(c, virtual_end);
  return left == 0 ? at_ : at_ + SimTime::Seconds(left);
}

std::optional<SimTime> DeviceTimeShare::NextEnd() const {
  std::optional<SimTime> first;
  for (const auto& [cls, c] : classes_) {
    if (c.ends.empty()) continue;
    const SimTime end = EndOf(c, c.ends.begin()->virtual_end);
    if (!first || end < *first) first = end;
  }
  return first;
}

std::vector<PodId> DeviceTimeShare::EndedBy(SimTime now) const {
  std::vector<std::pair<uint64_t, PodId>> ended;
  for (const auto& [cls, c] : classes_) {
    // EndOf does not decrease along a class's virtual ends: its due ones come first.
    for (const End& e : c.ends) {
      if (EndOf(c, e.virtual_end) > now) break;
      ended.emplace_back(e.seq, e.pod);
    }
  }
  std::sort(ended.begin(), ended.end());
  std::vector<PodId> pods;
  pods.reserve(ended.size());
  for (const auto& [seq, pod] : ended) pods.push_back(pod);
  return pods;
}

double DeviceTimeShare::ClockAt(const ProcessClass& cls, SimTime now) const {
  auto it = classes_.find(cls);
  MIGSIM_CHECK(it != classes_.end(), "the clock of a class with no process");
  return it->second.clock + it->second.speed * (now - at_).seconds();
}

}  // namespace migsim
