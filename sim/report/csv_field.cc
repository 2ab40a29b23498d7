#include "sim/report/csv_field.h"

#include <cmath>
#include <cstdio>

namespace migsim {

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvFixed(double v) {
  if (std::fabs(v) < 5e-7) v = 0;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace migsim
