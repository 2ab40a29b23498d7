// Cron schedules: CronJob schedules expanded over a run, and the windows of Karpenter budgets
// (time 0 is Monday 1 January 2024, 00:00 UTC).

#include "sim/core/cron_schedule.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace migsim {
namespace {

std::vector<double> Hours(const std::string& schedule, double to_h, size_t limit = 1000) {
  Result<CronSchedule> s = CronSchedule::Parse(schedule);
  if (!s.ok()) FAIL(s.status().ToString());
  std::vector<double> out;
  for (SimTime t : s.value().Times(SimTime::Zero(), SimTime::Seconds(to_h * 3600), limit)) {
    out.push_back(t.seconds() / 3600);
  }
  return out;
}

}  // namespace

TEST_CASE("a cron schedule fires at its minutes, hours and days", "[k8s][cron]") {
  CHECK(Hours("0 */6 * * *", 24) == std::vector<double>{0, 6, 12, 18});
  CHECK(Hours("30 9-10 * * *", 24) == std::vector<double>{9.5, 10.5});
  CHECK(Hours("@daily", 72) == std::vector<double>{0, 24, 48});
  // Weekdays: 1 January 2024 is a Monday; Saturday 6 and Sunday 7 are skipped.
  CHECK(Hours("0 0 * * MON-FRI", 24 * 8) == std::vector<double>{0, 24, 48, 72, 96, 168});
  // Day of month and day of week both restricted: either one fires (the 3rd, and Sundays).
  CHECK(Hours("0 0 3 * 0", 24 * 8) == std::vector<double>{48, 144});
  CHECK(Hours("0 0 1 FEB *", 24 * 40) == std::vector<double>{24 * 31});
  CHECK(Hours("* * * * *", 1, 5).size() == 6);  // the limit, plus one to tell it was passed
}

TEST_CASE("a bad cron schedule says which field is wrong", "[k8s][cron]") {
  CHECK(CronSchedule::Parse("0 0 * *").status().message() ==
        "expected 5 fields (minute hour day-of-month month day-of-week), got 4");
  CHECK(CronSchedule::Parse("61 * * * *").status().message() == "minute '61' is out of range 0-59");
  CHECK(CronSchedule::Parse("* * * * FUNDAY").status().message() ==
        "day of week 'FUNDAY' is not a number, a range or *");
  CHECK(CronSchedule::Parse("*/0 * * * *").status().message() == "minute '*/0' has a bad step");
}

namespace {

CronSchedule Schedule(const std::string& text) {
  Result<CronSchedule> s = CronSchedule::Parse(text);
  INFO(text);
  REQUIRE(s.ok());
  return std::move(s).value();
}

SimTime At(int day, int hour, int minute) {
  return SimTime::Seconds(((day * 24.0 + hour) * 60 + minute) * 60);
}

}  // namespace

TEST_CASE("a window holds the times from a firing to the end of its duration", "[cron]") {
  const CronSchedule c = Schedule("0 9 * * 1-5");
  const SimTime eight_hours = SimTime::Seconds(8 * 3600);
  CHECK(c.Within(At(0, 9, 0), eight_hours));
  CHECK(c.Within(At(0, 16, 59), eight_hours));
  CHECK_FALSE(c.Within(At(0, 17, 0), eight_hours));
  CHECK_FALSE(c.Within(At(0, 8, 59), eight_hours));
  CHECK_FALSE(c.Within(At(5, 10, 0), eight_hours));  // Saturday
  CHECK(c.text() == "0 9 * * 1-5");
}

TEST_CASE("the last firing is the latest at or before a time, within the lookback", "[cron]") {
  const CronSchedule c = Schedule("*/20 9 * * mon-fri");
  const SimTime week = SimTime::Seconds(7 * 86400);
  CHECK(c.LastFiring(At(3, 12, 0), week) == At(3, 9, 40));
  CHECK(c.LastFiring(At(3, 9, 20), week) == At(3, 9, 20));
  CHECK(c.LastFiring(At(7, 8, 0), week) == At(4, 9, 40));  // Friday's
  CHECK_FALSE(c.LastFiring(At(7, 8, 0), SimTime::Seconds(3600)).has_value());
  CHECK_FALSE(c.LastFiring(At(0, 8, 0), week).has_value());  // nothing before time 0
  CHECK(Schedule("@daily").LastFiring(At(59, 5, 0), week) == At(59, 0, 0));  // 29 February
}

}  // namespace migsim
