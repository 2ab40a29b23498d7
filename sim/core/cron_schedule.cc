#include "sim/core/cron_schedule.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>

namespace migsim {
namespace {

struct Field {
  const char* name;
  int min, max;
  std::array<std::string_view, 12> names;  // names[i] is min + i; empty when none
};

constexpr Field kMinute{"minute", 0, 59, {}};
constexpr Field kHour{"hour", 0, 23, {}};
constexpr Field kDay{"day of month", 1, 31, {}};
constexpr Field kMonth{
    "month",
    1,
    12,
    {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}};
constexpr Field kWeekday{"day of week", 0, 7, {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}};

std::optional<int> Number(std::string_view text, const Field& f) {
  for (size_t i = 0; i < f.names.size(); ++i) {
    if (f.names[i].empty()) break;
    std::string upper(text);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper == f.names[i]) return f.min + static_cast<int>(i);
  }
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return {};
  return value;
}

Status Bad(const Field& f, std::string_view part, const std::string& why) {
  return Status::InvalidArgument(std::string(f.name) + " '" + std::string(part) + "' " + why);
}

// One comma-separated part: "*", "a", "a-b", each optionally "/step".
Status AddPart(std::string_view part, const Field& f, std::vector<bool>& out) {
  int step = 1;
  std::string_view range = part;
  if (const size_t slash = part.find('/'); slash != std::string_view::npos) {
    const std::optional<int> s = Number(part.substr(slash + 1), {f.name, 1, 0, {}});
    if (!s || *s < 1) return Bad(f, part, "has a bad step");
    step = *s;
    range = part.substr(0, slash);
  }
  int lo = f.min, hi = f.max;
  if (range != "*" && range != "?") {
    const size_t dash = range.find('-');
    const std::optional<int> a = Number(range.substr(0, dash), f);
    const std::optional<int> b = dash == std::string_view::npos
                                     ? (step > 1 ? std::optional(f.max) : a)
                                     : Number(range.substr(dash + 1), f);
    if (!a || !b) return Bad(f, part, "is not a number, a range or *");
    lo = *a;
    hi = *b;
  }
  if (lo < f.min || hi > f.max || lo > hi) {
    return Bad(f, part, "is out of range " + std::to_string(f.min) + "-" + std::to_string(f.max));
  }
  for (int v = lo; v <= hi; v += step) out[static_cast<size_t>(v)] = true;
  return Status::Ok();
}

Status ParseField(std::string_view text, const Field& f, std::vector<bool>& out) {
  out.assign(static_cast<size_t>(f.max) + 1, false);
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (Status s = AddPart(text.substr(start, comma - start), f, out); !s.ok()) return s;
    start = comma + 1;
  }
  return Status::Ok();
}

std::string_view Macro(std::string_view text) {
  if (text == "@yearly" || text == "@annually") return "0 0 1 1 *";
  if (text == "@monthly") return "0 0 1 * *";
  if (text == "@weekly") return "0 0 * * 0";
  if (text == "@daily" || text == "@midnight") return "0 0 * * *";
  if (text == "@hourly") return "0 * * * *";
  return text;
}

// Howard Hinnant's civil_from_days: the (month, day) of `days` since 1970-01-01.
std::pair<int, int> MonthDay(int64_t days) {
  days += 719468;
  const int64_t era = days / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {month, day};
}

}  // namespace

Result<CronSchedule> CronSchedule::Parse(std::string_view source) {
  const std::string_view text = Macro(source);
  std::vector<std::string_view> fields;
  for (size_t i = 0; i < text.size();) {
    const size_t end = std::min(text.find(' ', i), text.size());
    if (end > i) fields.push_back(text.substr(i, end - i));
    i = end + 1;
  }
  if (fields.size() != 5) {
    return Status::InvalidArgument(
        "expected 5 fields (minute hour day-of-month month "
        "day-of-week), got " +
        std::to_string(fields.size()));
  }
  const std::array<const Field*, 5> kinds = {&kMinute, &kHour, &kDay, &kMonth, &kWeekday};
  std::array<std::vector<bool>, 5> sets;
  for (size_t i = 0; i < 5; ++i) {
    if (Status s = ParseField(fields[i], *kinds[i], sets[i]); !s.ok()) return s;
  }
  CronSchedule out;
  out.text_ = std::string(source);
  for (size_t v = 0; v < sets[0].size(); ++v) out.minutes_[v] = sets[0][v];
  for (size_t v = 0; v < sets[1].size(); ++v) out.hours_[v] = sets[1][v];
  for (size_t v = 0; v < sets[2].size(); ++v) out.days_[v] = sets[2][v];
  for (size_t v = 0; v < sets[3].size(); ++v) out.months_[v] = sets[3][v];
  for (size_t v = 0; v < sets[4].size(); ++v)
    out.weekdays_[v % 7] = out.weekdays_[v % 7] || sets[4][v];
  out.any_day_ = fields[2] == "*" || fields[2] == "?";
  out.any_weekday_ = fields[4] == "*" || fields[4] == "?";
  return out;
}

bool CronSchedule::DayMatches(int day_of_month, int month, int weekday) const {
  if (!months_[static_cast<size_t>(month)]) return false;
  const bool dom = days_[static_cast<size_t>(day_of_month)];
  const bool dow = weekdays_[static_cast<size_t>(weekday)];
  if (any_day_ || any_weekday_) return dom && dow;
  return dom || dow;
}

namespace {

constexpr int64_t kSecondsPerDay = 86400;

SimTime MinuteOf(int64_t day, size_t hour, size_t minute) {
  return SimTime::Seconds(
      static_cast<double>(day * kSecondsPerDay + static_cast<int64_t>(hour * 3600 + minute * 60)));
}

}  // namespace

bool CronSchedule::FiresOnDay(int64_t day) const {
  const int64_t unix_day = kCronEpoch / kSecondsPerDay + day;
  const auto [month, dom] = MonthDay(unix_day);
  const int weekday = static_cast<int>((unix_day + 4) % 7);  // 1970-01-01 was a Thursday
  return DayMatches(dom, month, weekday);
}

std::vector<SimTime> CronSchedule::Times(SimTime from, SimTime to, size_t limit) const {
  std::vector<SimTime> out;
  const int64_t first_day = from.micros() / 1'000'000 / kSecondsPerDay;
  for (int64_t day = first_day; out.size() <= limit; ++day) {
    if (SimTime::Seconds(static_cast<double>(day * kSecondsPerDay)) >= to) break;
    if (!FiresOnDay(day)) continue;
    for (size_t h = 0; h < 24; ++h) {
      for (size_t m = 0; h < 24 && hours_[h] && m < 60; ++m) {
        if (!minutes_[m]) continue;
        const SimTime t = MinuteOf(day, h, m);
        if (t >= from && t < to && out.size() <= limit) out.push_back(t);
      }
    }
  }
  if (out.size() > limit) out.resize(limit + 1);
  return out;
}

// Backwards a day at a time from t's day; on a day the schedule fires, its latest minute
// not after t.
std::optional<SimTime> CronSchedule::LastFiring(SimTime t, SimTime lookback) const {
  const SimTime earliest = std::max(SimTime::Zero(), t - lookback);
  const int64_t first_day = earliest.micros() / 1'000'000 / kSecondsPerDay;
  for (int64_t day = t.micros() / 1'000'000 / kSecondsPerDay; day >= first_day; --day) {
    if (!FiresOnDay(day)) continue;
    for (size_t h = 24; h-- > 0;) {
      if (!hours_[h]) continue;
      for (size_t m = 60; m-- > 0;) {
        if (!minutes_[m]) continue;
        const SimTime at = MinuteOf(day, h, m);
        if (at > t) continue;
        if (at < earliest) return std::nullopt;
        return at;
      }
    }
  }
  return std::nullopt;
}

bool CronSchedule::Within(SimTime t, SimTime duration) const {
  const std::optional<SimTime> opened = LastFiring(t, duration);
  return opened && t < *opened + duration;
}

}  // namespace migsim
