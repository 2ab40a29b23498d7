#pragma once
// A load over simulated time: requests per second arriving at a service (a Deployment), as
// a HorizontalPodAutoscaler's external metric sees it and as "$ per 1,000 requests"
// integrates it (README "Demand that follows the clock").

#include <vector>

#include "sim/core/sim_time.h"

namespace migsim {

struct LoadPoint {
  SimTime at{};
  double value = 0;  // requests per second
};

// A daily cycle: mean * (1 + amplitude * cos(2 pi (hour - peak_hour) / 24)), times
// weekend_factor on Saturdays and Sundays. t = 0 is a Monday, 00:00.
struct DiurnalLoad {
  double mean = 0;
  double amplitude = 0;  // 0 .. 1
  double peak_hour = 12;
  double weekend_factor = 1;
};

class LoadSeries {
 public:
  LoadSeries() = default;
  // Points joined by straight lines, the first value held before the first point and the
  // last after the last. REQUIRES: sorted by time, not empty.
  static LoadSeries Points(std::vector<LoadPoint> points);
  static LoadSeries Diurnal(const DiurnalLoad& cycle);

  double At(SimTime t) const;
  // The requests arriving in [from, to]: the exact integral (linear pieces; the cycle
  // day by day). 0 when to <= from.
  double Integral(SimTime from, SimTime to) const;

 private:
  double PointsIntegral(double from_s, double to_s) const;
  double DiurnalIntegral(double from_s, double to_s) const;

  std::vector<LoadPoint> points_;
  bool diurnal_ = false;
  DiurnalLoad cycle_;
};

}  // namespace migsim
