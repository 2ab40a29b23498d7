#pragma once
// `migsim calibrate FILE.csv`: fit a job class's MIG speed curve to measured speeds and
// print the exponents, the fit, and the per-point residuals.

#include <string>

namespace migsim {

// Exit code: 0 success, 2 bad input.
int CalibrateCommand(const std::string& csv_path);

}  // namespace migsim
