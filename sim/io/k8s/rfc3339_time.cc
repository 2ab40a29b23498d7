#include "sim/io/k8s/rfc3339_time.h"

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace migsim::k8s {
namespace {

// The `n` digits at `text[at]` as a number, or -1.
int Digits(std::string_view text, size_t at, size_t n) {
  if (at + n > text.size()) return -1;
  int value = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool At(std::string_view text, size_t at, char c) { return at < text.size() && text[at] == c; }

// The zone's offset east of UTC in seconds at `text[at]` ("Z", "+HH:MM", "-HH:MM") to the end.
std::optional<int> ZoneOffset(std::string_view text, size_t at) {
  if (text.substr(at) == "Z" || text.substr(at) == "z") return 0;
  if (text.size() != at + 6 || (text[at] != '+' && text[at] != '-') || !At(text, at + 3, ':')) {
    return std::nullopt;
  }
  const int h = Digits(text, at + 1, 2), m = Digits(text, at + 4, 2);
  if (h < 0 || h > 23 || m < 0 || m > 59) return std::nullopt;
  return (text[at] == '-' ? -1 : 1) * (h * 3600 + m * 60);
}

}  // namespace

std::optional<double> ParseRfc3339(std::string_view text) {
  const int year = Digits(text, 0, 4), month = Digits(text, 5, 2), day = Digits(text, 8, 2);
  const int hour = Digits(text, 11, 2), minute = Digits(text, 14, 2), second = Digits(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 ||
      !At(text, 4, '-') || !At(text, 7, '-') || !(At(text, 10, 'T') || At(text, 10, 't')) ||
      !At(text, 13, ':') || !At(text, 16, ':') || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(year),
                                         std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok()) return std::nullopt;
  size_t at = 19;
  double fraction = 0;
  if (At(text, at, '.')) {
    double scale = 0.1;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, scale /= 10) {
      fraction += (text[at] - '0') * scale;
    }
    if (at == 20) return std::nullopt;  // a '.' without digits
  }
  const std::optional<int> offset = ZoneOffset(text, at);
  if (!offset) return std::nullopt;
  const auto days = std::chrono::sys_days(date).time_since_epoch().count();
  return static_cast<double>(days) * 86400 + hour * 3600 + minute * 60 + second - *offset +
         fraction;
}

std::string FormatRfc3339(double unix_s) {
  const auto seconds = static_cast<int64_t>(std::floor(unix_s));
  const std::chrono::sys_days days{std::chrono::days(seconds >= 0 ? seconds / 86400
                                                                  : (seconds - 86399) / 86400)};
  const int64_t in_day = seconds - days.time_since_epoch().count() * int64_t{86400};
  const std::chrono::year_month_day date{days};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(in_day / 3600), static_cast<int>(in_day / 60 % 60),
                static_cast<int>(in_day % 60));
  return buf;
}

}  // namespace migsim::k8s
