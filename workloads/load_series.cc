#include "workloads/load_series.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace migsim {
namespace {

constexpr double kDay = 86400;

bool Weekend(double day_start_s) {
  const double day_of_week = std::fmod(std::floor(day_start_s / kDay), 7);  // 0: Monday
  return day_of_week >= 5;
}

}  // namespace

LoadSeries LoadSeries::Points(std::vector<LoadPoint> points) {
  LoadSeries s;
  s.points_ = std::move(points);
  return s;
}

LoadSeries LoadSeries::Diurnal(const DiurnalLoad& cycle) {
  LoadSeries s;
  s.diurnal_ = true;
  s.cycle_ = cycle;
  return s;
}

double LoadSeries::At(SimTime t) const {
  const double x = t.seconds();
  if (diurnal_) {
    const double day = std::floor(x / kDay) * kDay;
    const double hour = (x - day) / 3600;
    const double factor = Weekend(day) ? cycle_.weekend_factor : 1;
    return factor * cycle_.mean *
           (1 + cycle_.amplitude * std::cos(2 * std::numbers::pi * (hour - cycle_.peak_hour) / 24));
  }
  if (points_.empty()) return 0;
  if (t <= points_.front().at) return points_.front().value;
  if (t >= points_.back().at) return points_.back().value;
  const auto next = std::upper_bound(points_.begin(), points_.end(), t,
                                     [](SimTime v, const LoadPoint& p) { return v < p.at; });
  const LoadPoint& b = *next;
  const LoadPoint& a = *(next - 1);
  const double span = (b.at - a.at).seconds();
  if (span <= 0) return b.value;
  return a.value + (b.value - a.value) * (x - a.at.seconds()) / span;
}

double LoadSeries::Integral(SimTime from, SimTime to) const {
  if (to <= from) return 0;
  return diurnal_ ? DiurnalIntegral(from.seconds(), to.seconds())
                  : PointsIntegral(from.seconds(), to.seconds());
}

// The linear pieces between the points, each a trapezoid; constant outside them.
double LoadSeries::PointsIntegral(double from_s, double to_s) const {
  if (points_.empty()) return 0;
  const auto at = [&](double x) { return At(SimTime::Seconds(x)); };
  std::vector<double> cuts{from_s};
  for (const LoadPoint& p : points_) {
    const double x = p.at.seconds();
    if (x > from_s && x < to_s) cuts.push_back(x);
  }
  cuts.push_back(to_s);
  double sum = 0;
  for (size_t i = 1; i < cuts.size(); ++i) {
    sum += (cuts[i] - cuts[i - 1]) * (at(cuts[i - 1]) + at(cuts[i])) / 2;
  }
  return sum;
}

// Day by day: the integral of the cosine over [a, b] within one day, times the day's factor.
double LoadSeries::DiurnalIntegral(double from_s, double to_s) const {
  const double omega = 2 * std::numbers::pi / kDay;
  const double peak = cycle_.peak_hour * 3600;
  double sum = 0;
  for (double day = std::floor(from_s / kDay) * kDay; day < to_s; day += kDay) {
    const double a = std::max(from_s, day) - day;
    const double b = std::min(to_s, day + kDay) - day;
    if (b <= a) continue;
    const double wave = (std::sin(omega * (b - peak)) - std::sin(omega * (a - peak))) / omega;
    const double factor = Weekend(day) ? cycle_.weekend_factor : 1;
    sum += factor * cycle_.mean * ((b - a) + cycle_.amplitude * wave);
  }
  return sum;
}

}  // namespace migsim
