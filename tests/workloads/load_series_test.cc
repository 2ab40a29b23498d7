// Load series (workloads/load_series.h): values between points, the daily cycle, and
// integrals that are exact.
#include <catch2/catch.hpp>

#include "workloads/load_series.h"

namespace migsim {

TEST_CASE("a load series of points is linear between them and held outside them",
          "[workloads][load]") {
  const LoadSeries s = LoadSeries::Points(
      {{SimTime::Seconds(100), 10}, {SimTime::Seconds(200), 30}, {SimTime::Seconds(300), 30}});
  CHECK(s.At(SimTime::Zero()) == 10);
  CHECK(s.At(SimTime::Seconds(150)) == Approx(20));
  CHECK(s.At(SimTime::Seconds(1000)) == 30);
  // 10 x 100 before the first point, a trapezoid of 2,000, then 30 x 100.
  CHECK(s.Integral(SimTime::Zero(), SimTime::Seconds(300)) == Approx(1000 + 2000 + 3000));
  CHECK(s.Integral(SimTime::Seconds(150), SimTime::Seconds(200)) == Approx(1250));
  CHECK(s.Integral(SimTime::Seconds(5), SimTime::Seconds(5)) == 0);
}

TEST_CASE("a daily cycle peaks at its hour, averages its mean over a day and dips at weekends",
          "[workloads][load]") {
  const LoadSeries s = LoadSeries::Diurnal(
      {.mean = 100, .amplitude = 0.5, .peak_hour = 14, .weekend_factor = 0.25});
  CHECK(s.At(SimTime::Seconds(14 * 3600)) == Approx(150));
  CHECK(s.At(SimTime::Seconds(2 * 3600)) == Approx(50));  // 12 h from the peak
  CHECK(s.Integral(SimTime::Zero(), SimTime::Seconds(86400)) == Approx(100.0 * 86400));
  // Saturday (day 5) and Sunday at a quarter.
  CHECK(s.At(SimTime::Seconds(5 * 86400 + 14 * 3600)) == Approx(37.5));
  CHECK(s.Integral(SimTime::Zero(), SimTime::Seconds(7 * 86400)) ==
        Approx(100.0 * 86400 * (5 + 2 * 0.25)));
  // Half a day around the peak: 43,200 x 100 + 0.5 x 100 x (2 / omega).
  const double omega = 2 * 3.141592653589793 / 86400;
  CHECK(s.Integral(SimTime::Seconds(8 * 3600), SimTime::Seconds(20 * 3600)) ==
        Approx(100.0 * 43200 + 50.0 * 2 / omega));
}

}  // namespace migsim
