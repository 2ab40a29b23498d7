// The log-normal fit of observed run times and its Kolmogorov-Smirnov statistic.

#include "sim/io/telemetry/run_time_fit.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace migsim::telemetry {

TEST_CASE("a log-normal is fitted by maximum likelihood with its KS statistic", "[telemetry]") {
  // ln of the samples: 0, 1, 2 -> mu 1, sigma sqrt(2/3).
  const std::optional<LogNormalFit> fit = FitLogNormal({std::exp(2.0), 1.0, std::exp(1.0)});
  REQUIRE(fit);
  CHECK(fit->mu == Approx(1.0));
  CHECK(fit->sigma == Approx(std::sqrt(2.0 / 3)));
  CHECK(fit->samples == 3);
  // The middle sample sits at the median (F = 1/2, steps 1/3 and 2/3): D comes from the
  // outer ones, F(e^0) = Phi(-1.2247) = 0.1103, so D = 1/3 - 0.1103.
  CHECK(fit->ks_statistic == Approx(1.0 / 3 - 0.110335).epsilon(1e-4));
  CHECK_FALSE(FitLogNormal({5.0}));
  CHECK_FALSE(FitLogNormal({5.0, 5.0}));
}

}  // namespace migsim::telemetry
