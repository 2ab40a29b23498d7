#pragma once
// One CSV field as RFC 4180 writes it, shared by every CSV migsim writes.

#include <string>

namespace migsim {

// `s` unchanged, or in double quotes with inner quotes doubled when it holds a comma, a
// quote or a line break.
std::string CsvField(const std::string& s);

// `v` with six decimals, the precision of migsim's CSVs; a value that rounds to zero prints
// as 0.000000, never -0.000000.
std::string CsvFixed(double v);

}  // namespace migsim
