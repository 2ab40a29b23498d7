#include "sim/metrics/queueing_theory.h"

#include <cmath>

#include "sim/core/check.h"

namespace migsim {

double ErlangC(int c, double a) {
  MIGSIM_CHECK(c >= 1 && a >= 0 && a < c, "Erlang C needs c >= 1 and 0 <= a < c");
  double b = 1;  // Erlang B with 0 servers
  for (int k = 1; k <= c; ++k) b = a * b / (k + a * b);
  return c * b / (c - a * (1 - b));
}

double MmcMeanWait(int c, double lambda, double mean_service_s) {
  const double a = lambda * mean_service_s;
  return ErlangC(c, a) / (c / mean_service_s - lambda);
}

std::vector<double> CobhamMeanWaits(int c, std::span<const double> lambdas, double mean_service_s) {
  double lambda = 0;
  for (double l : lambdas) lambda += l;
  const double capacity = c / mean_service_s;  // cμ
  const double base = ErlangC(c, lambda * mean_service_s) / capacity;
  std::vector<double> waits;
  double sigma_before = 0;
  for (double l : lambdas) {
    const double sigma = sigma_before + l / capacity;
    waits.push_back(base / ((1 - sigma_before) * (1 - sigma)));
    sigma_before = sigma;
  }
  return waits;
}

double PollaczekKhinchineWait(double lambda, double mean_s, double second_moment_s2) {
  const double rho = lambda * mean_s;
  MIGSIM_CHECK(rho >= 0 && rho < 1, "Pollaczek-Khinchine needs 0 <= rho < 1");
  return lambda * second_moment_s2 / (2 * (1 - rho));
}

double Mg1SjfMeanWaitExponential(double lambda, double mean_s) {
  MIGSIM_CHECK(lambda * mean_s < 1 && lambda >= 0 && mean_s > 0, "M/G/1 SJF needs rho < 1");
  const double w0 = lambda * mean_s * mean_s;  // λ E[S²] / 2 with E[S²] = 2 m²
  // With u = F(x) = 1 − e^{−x/m}: x/m = −ln(1 − u), and ρ(x) = λ m (1 − (1 − u)(1 + x/m)).
  // The integrand W(x(u)) is smooth on [0, 1], bounded by W₀ / (1 − ρ)².
  auto wait = [&](double u) {
    const double y = u >= 1 ? 0 : (1 - u) * (1 - std::log1p(-u));  // (1−u)(1 + x/m); → 0
    const double rho_x = lambda * mean_s * (1 - y);
    return w0 / ((1 - rho_x) * (1 - rho_x));
  };
  constexpr int kPanels = 20000;  // even
  const double h = 1.0 / kPanels;
  double sum = wait(0) + wait(1);
  for (int i = 1; i < kPanels; ++i) sum += (i % 2 == 1 ? 4 : 2) * wait(i * h);
  return sum * h / 3;
}

}  // namespace migsim
