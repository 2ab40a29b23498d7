#pragma once
// Simulated time: an integer count of microseconds since the start of a run.
//
// Integer time keeps runs byte-identical across machines and compilers and needs no
// epsilon comparisons; a double clock (SimGrid's) needs both. Durations and instants
// share the type: an instant is the duration since t = 0.

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace migsim {

// The longest duration or latest instant any input (scenario file, trace, pod list) may
// give, in seconds, so that sums of times never overflow.
inline constexpr double kMaxInputSeconds = 1e9;

class SimTime {
 public:
  constexpr SimTime() = default;

  static constexpr SimTime Micros(int64_t us) { return SimTime(us); }
  static constexpr SimTime Millis(int64_t ms) { return SimTime(ms * 1000); }
  // Rounds to the nearest microsecond; saturates at Max() (and maps NaN there), so an
  // absurdly long duration is "never" rather than an overflow.
  static SimTime Seconds(double s) {
    const double us = s * 1e6;
    if (!(us < 9.2e18)) return Max();
    return SimTime(static_cast<int64_t>(std::llround(us)));
  }
  static constexpr SimTime Zero() { return SimTime(0); }
  // A time later than any event of a run; used as "no horizon".
  static constexpr SimTime Max() { return SimTime(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t micros() const { return us_; }
  double seconds() const { return static_cast<double>(us_) / 1e6; }

  constexpr auto operator<=>(const SimTime&) const = default;
  // Saturating for non-negative times: Max() + anything is Max().
  constexpr SimTime operator+(SimTime o) const {
    if (o.us_ > 0 && us_ > std::numeric_limits<int64_t>::max() - o.us_) return Max();
    return SimTime(us_ + o.us_);
  }
  constexpr SimTime operator-(SimTime o) const { return SimTime(us_ - o.us_); }
  constexpr SimTime& operator+=(SimTime o) {
    us_ += o.us_;
    return *this;
  }

 private:
  constexpr explicit SimTime(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

}  // namespace migsim
