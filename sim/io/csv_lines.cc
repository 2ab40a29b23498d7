#include "sim/io/csv_lines.h"

namespace migsim {

std::string_view TrimCsvField(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

void SplitCsvLine(std::string_view line, std::vector<std::string_view>* fields) {
  fields->clear();
  for (size_t comma; (comma = line.find(',')) != std::string_view::npos;) {
    fields->push_back(TrimCsvField(line.substr(0, comma)));
    line.remove_prefix(comma + 1);
  }
  fields->push_back(TrimCsvField(line));
}

std::string JoinFields(const std::vector<std::string_view>& parts, std::string_view separator) {
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

}  // namespace migsim
