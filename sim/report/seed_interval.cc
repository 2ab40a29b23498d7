#include "sim/report/seed_interval.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "sim/core/text.h"

namespace migsim {
namespace {

// t(0.975, df) for df = 1..30, to six decimals: the 97.5 % column of the t table (NIST/
// SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2, "Critical values of the
// Student's t distribution", which gives three decimals: 12.706, 4.303, 3.182, ...), here
// computed to six by integrating the t density.
constexpr double kT975[] = {12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912,
                            2.364624,  2.306004, 2.262157, 2.228139, 2.200985, 2.178813,
                            2.160369,  2.144787, 2.131450, 2.119905, 2.109816, 2.100922,
                            2.093024,  2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
                            2.059539,  2.055529, 2.051831, 2.048407, 2.045230, 2.042272};

// The normal quantile z(0.975).
constexpr double kZ975 = 1.959963984540054;

}  // namespace

double StudentT975(size_t df) {
  if (df == 0) return 0;
  if (df <= std::size(kT975)) return kT975[df - 1];
  // Abramowitz & Stegun 26.7.5: t = z + g1/v + g2/v^2 + g3/v^3 + g4/v^4; for v > 30 it
  // agrees with the exact quantile to the sixth decimal.
  const double z = kZ975, v = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
  const double g1 = (z3 + z) / 4;
  const double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
  const double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  const double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

SeedInterval ComputeSeedInterval(const std::vector<double>& values) {
  SeedInterval out;
  out.n = values.size();
  if (values.empty()) return out;
  const double n = static_cast<double>(values.size());
  for (double v : values) out.mean += v / n;
  out.min = *std::min_element(values.begin(), values.end());
  out.max = *std::max_element(values.begin(), values.end());
  if (values.size() < 2) return out;
  double squares = 0;
  for (double v : values) squares += (v - out.mean) * (v - out.mean);
  const double sd = std::sqrt(squares / (n - 1));
  out.half_width = StudentT975(values.size() - 1) * sd / std::sqrt(n);
  return out;
}

std::string FormatSeedInterval(const SeedInterval& interval, int decimals) {
  if (interval.n < 2) return FormatFixed(interval.mean, decimals);
  return FormatFixed(interval.mean, decimals) + " \u00b1" +
         FormatFixed(interval.half_width, decimals);
}

}  // namespace migsim
