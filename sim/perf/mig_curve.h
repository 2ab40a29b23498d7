#pragma once
// How a job's speed scales across MIG profiles, for profiles it was not measured on.
//
//   speed(profile) / speed(full-size MIG instance) = (g / G)^alpha * (m / M)^beta
//
// with g / G the profile's share of the GPU's compute slices and m / M its share of the
// memory slices. Saturated inference scales almost with g (alpha near 1); a 3g.20gb
// gains from holding half the memory and L2 (beta > 0); batch-1 inference barely scales
// at all (both near 0) (domain.md §6.1). The exponents are fitted by least squares on
// log speed ratios from measured points (FitMigCurve; `migsim calibrate`).

#include <span>
#include <string>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

struct MigCurve {
  double alpha = 1;  // exponent on the compute-slice share
  double beta = 0;   // exponent on the memory-slice share

  // Speed on a profile with these shares relative to the full-size instance (7g).
  // REQUIRES: both shares in (0, 1].
  double Ratio(double compute_share, double memory_share) const;
};

// One measured point: a profile's shares and its speed relative to the full instance.
struct CurvePoint {
  double compute_share = 1;
  double memory_share = 1;
  double ratio = 1;
};

struct CurveFit {
  MigCurve curve;
  // The points could not tell memory from compute (one point, or equal shares): beta = 0.
  bool compute_only = false;
  double r_squared = 0;       // of the log-log regression
  std::vector<double> fitted;  // ratio predicted for each point, in input order
};

// Least squares of log(ratio) on log(compute share) and log(memory share), through the
// origin (the full instance has ratio 1). InvalidArgument when no point is below the
// full instance or a ratio is not positive.
Result<CurveFit> FitMigCurve(std::span<const CurvePoint> points);

}  // namespace migsim
