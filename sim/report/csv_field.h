#pragma once
// One CSV field as RFC 4180 writes it, shared by every CSV migsim writes.

#include <string>

namespace migsim {

// `s` unchanged, or in double quotes with inner quotes doubled when it holds a comma, a
// quote or a line break.
std::string CsvField(const std::string& s);

}  // namespace migsim
