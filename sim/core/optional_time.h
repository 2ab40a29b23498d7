#pragma once
// A SimTime or none, in the space of one SimTime: a std::optional<SimTime> takes twice
// that, and the engine keeps one in the record of every pod alive (Pod::recorded_run), so
// that 8 bytes a pod are 40 MB of a run with 5 million pods pending.
//
// None is the one value no time takes: times are within +-kMaxInputSeconds (sim_time.h),
// sums of them saturate at SimTime::Max(), and the lowest int64 is far below both.

#include <cstdint>
#include <limits>
#include <optional>

#include "sim/core/check.h"
#include "sim/core/sim_time.h"

namespace migsim {

// Converts implicitly from SimTime, nullopt and std::optional<SimTime>, as std::optional does.
class OptionalTime {
 public:
  constexpr OptionalTime() = default;
  constexpr OptionalTime(std::nullopt_t) {}
  OptionalTime(SimTime t) : us_(t.micros()) {
    MIGSIM_CHECK(us_ != kNone, "a time of the lowest int64 microseconds");
  }
  OptionalTime(std::optional<SimTime> t) : OptionalTime(t ? OptionalTime(*t) : OptionalTime()) {}

  constexpr bool has_value() const { return us_ != kNone; }
  constexpr explicit operator bool() const { return has_value(); }
  // REQUIRES: has_value().
  constexpr SimTime operator*() const { return SimTime::Micros(us_); }
  std::optional<SimTime> optional() const {
    return has_value() ? std::optional<SimTime>(**this) : std::nullopt;
  }

 private:
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
  int64_t us_ = kNone;
};

}  // namespace migsim
