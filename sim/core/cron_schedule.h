#pragma once
// A cron schedule — a CronJob's `schedule`, a Karpenter disruption budget's `schedule` —:
// the standard five cron fields (minute, hour, day of month, month,
// day of week), as Kubernetes' CronJob controller reads them: lists, ranges and steps
// ("0,30", "9-17", "*/15", "1-31/2"), month and weekday names (JAN, MON), 7 as Sunday, "?"
// as "*", and the macros @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly.
// When both the day of month and the day of week are restricted, a day matching either runs.
//
// A run's clock starts at kCronEpoch: simulated time 0 is 00:00 UTC on Monday 1 January
// 2024 (the schedule is read in UTC).

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/core/status.h"

namespace migsim {

// Unix seconds of simulated time 0.
inline constexpr int64_t kCronEpoch = 1704067200;

class CronSchedule {
 public:
  // InvalidArgument without a location ("expected 5 fields, got 4", "minute '61' is out of
  // range 0-59", ...).
  static Result<CronSchedule> Parse(std::string_view text);
  // The times in [from, to) the schedule fires, in order; at most `limit` of them (the
  // caller reports more as an error).
  std::vector<SimTime> Times(SimTime from, SimTime to, size_t limit) const;
  // The latest firing at or before `t` and at or after t - `lookback` (and 0), or nullopt.
  // O(days in the lookback + 24 x 60).
  std::optional<SimTime> LastFiring(SimTime t, SimTime lookback) const;
  // True while a window of `duration` opened by a firing holds `t`.
  bool Within(SimTime t, SimTime duration) const;
  // The text it was parsed from.
  const std::string& text() const { return text_; }

 private:
  bool DayMatches(int day_of_month, int month, int weekday) const;
  // Whether simulated day `day` (0: 1 January 2024) is one the schedule fires on.
  bool FiresOnDay(int64_t day) const;

  std::string text_;
  std::bitset<60> minutes_;
  std::bitset<24> hours_;
  std::bitset<32> days_;     // 1..31
  std::bitset<13> months_;   // 1..12
  std::bitset<8> weekdays_;  // 0..6, Sunday 0
  bool any_day_ = false, any_weekday_ = false;
};

}  // namespace migsim
