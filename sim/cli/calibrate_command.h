#pragma once
// `migsim calibrate FILE.csv`: fit a job class's MIG speed curve to measured speeds and
// print the exponents, the fit, and the per-point residuals.

#include <string>

namespace migsim {

// Exit code: 0 success, 2 bad input. `catalog_file`: "" for the built-in GPU models, or a
// scenario or catalog file whose own models the measurements may name too. `json`: the fit
// as one JSON document (FormatCalibrationJson) instead of the text.
int CalibrateCommand(const std::string& csv_path, const std::string& catalog_file = "",
                     bool json = false);

}  // namespace migsim
