// The exact formulas the queueing scenarios are compared with (docs/scheduling.md §6).
#include "sim/metrics/queueing_theory.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace migsim {
namespace {

using Catch::Matchers::WithinRel;

// Erlang C from its definition with factorials, independent of the recursion.
double ErlangCBySums(int c, double a) {
  double sum = 0, term = 1;  // a^k / k!
  for (int k = 0; k < c; ++k) {
    sum += term;
    term *= a / (k + 1);
  }
  const double last = term / (1 - a / c);  // a^c / c! / (1 - rho)
  return last / (sum + last);
}

TEST_CASE("Erlang C is rho for one server and 1/3 for two servers at a = 1",
          "[metrics][queueing-theory]") {
  CHECK_THAT(ErlangC(1, 0.7), WithinRel(0.7, 1e-12));
  CHECK_THAT(ErlangC(2, 1.0), WithinRel(1.0 / 3, 1e-12));
}

TEST_CASE("Erlang C by the recursion equals Erlang C by its factorial sums",
          "[metrics][queueing-theory]") {
  for (int c : {1, 2, 8, 30, 100}) {
    for (double rho : {0.1, 0.5, 0.8, 0.95}) {
      CHECK_THAT(ErlangC(c, rho * c), WithinRel(ErlangCBySums(c, rho * c), 1e-10));
    }
  }
  CHECK_THAT(ErlangC(8, 6.4), WithinRel(0.457645, 1e-5));
}

TEST_CASE("Erlang C stays finite for thousands of servers", "[metrics][queueing-theory]") {
  const double c = ErlangC(5000, 4900);
  CHECK(std::isfinite(c));
  CHECK(c > 0);
  CHECK(c < 1);
}

TEST_CASE("the M/M/1 mean wait is rho / (mu - lambda)", "[metrics][queueing-theory]") {
  const double lambda = 0.7 / 600, mu = 1.0 / 600;
  CHECK_THAT(MmcMeanWait(1, lambda, 600), WithinRel(0.7 / (mu - lambda), 1e-12));
  CHECK_THAT(MmcMeanWait(8, 0.8 * 8 / 600, 600), WithinRel(171.6168, 1e-5));
}

TEST_CASE("Cobham with one class is the FIFO wait", "[metrics][queueing-theory]") {
  const std::vector<double> lambdas = {0.8 * 8 / 600};
  CHECK_THAT(CobhamMeanWaits(8, lambdas, 600).at(0),
             WithinRel(MmcMeanWait(8, lambdas[0], 600), 1e-12));
}

TEST_CASE("Cobham's class waits average to the FIFO wait (conservation, equal service rates)",
          "[metrics][queueing-theory]") {
  const double lambda = 0.8 * 8 / 600;
  const std::vector<double> lambdas = {0.3 * lambda, 0.7 * lambda};
  const std::vector<double> w = CobhamMeanWaits(8, lambdas, 600);
  CHECK_THAT(w[0], WithinRel(45.1626, 1e-5));
  CHECK_THAT(w[1], WithinRel(225.8134, 1e-5));
  CHECK_THAT(0.3 * w[0] + 0.7 * w[1], WithinRel(MmcMeanWait(8, lambda, 600), 1e-12));
}

TEST_CASE("Pollaczek-Khinchine for exponential run times is the M/M/1 wait",
          "[metrics][queueing-theory]") {
  const double lambda = 0.7 / 600;
  CHECK_THAT(PollaczekKhinchineWait(lambda, 600, 2 * 600.0 * 600),
             WithinRel(MmcMeanWait(1, lambda, 600), 1e-12));
  // Constant run times wait half as long.
  CHECK_THAT(PollaczekKhinchineWait(lambda, 600, 600.0 * 600), WithinRel(700, 1e-12));
}

// The SJF integral by a crude midpoint rule in x, as a check on the quadrature in u.
double SjfByMidpoints(double lambda, double m) {
  const double w0 = lambda * m * m;
  double sum = 0;
  const int n = 400000;
  const double h = 60 * m / n;
  for (int i = 0; i < n; ++i) {
    const double x = (i + 0.5) * h;
    const double rho = lambda * m * (1 - std::exp(-x / m) * (1 + x / m));
    sum += w0 / ((1 - rho) * (1 - rho)) * std::exp(-x / m) / m * h;
  }
  return sum;
}

TEST_CASE("the M/G/1 SJF mean wait for exponential jobs is the integral of W(x) dF(x)",
          "[metrics][queueing-theory]") {
  const double lambda = 0.7 / 600;
  const double sjf = Mg1SjfMeanWaitExponential(lambda, 600);
  CHECK_THAT(sjf, WithinRel(SjfByMidpoints(lambda, 600), 1e-6));
  CHECK_THAT(sjf, WithinRel(787.318, 1e-5));
  // Shortest first beats FIFO on the mean; at light load both tend to W0.
  CHECK(sjf < PollaczekKhinchineWait(lambda, 600, 2 * 600.0 * 600));
  const double light = 1e-6 / 600;
  CHECK_THAT(Mg1SjfMeanWaitExponential(light, 600),
             WithinRel(PollaczekKhinchineWait(light, 600, 2 * 600.0 * 600), 1e-5));
}

}  // namespace
}  // namespace migsim
