// CronJob schedules expanded over a run (time 0 is Monday 1 January 2024, 00:00 UTC).

#include "sim/io/k8s/cron_schedule.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace migsim::k8s {
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

}  // namespace migsim::k8s
