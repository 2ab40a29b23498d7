#include "sim/report/csv_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace migsim {

bool NextCsvRecord(std::string_view* text, std::vector<std::string>* fields, std::string* raw) {
  fields->assign(1, "");
  bool quoted = false;
  size_t i = 0;
  for (; i < text->size(); ++i) {
    const char c = (*text)[i];
    if (quoted) {
      if (c != '"') {
        fields->back() += c;
      } else if (i + 1 < text->size() && (*text)[i + 1] == '"') {
        fields->back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields->emplace_back();
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      fields->back() += c;
    }
  }
  const size_t end = i < text->size() ? i + 1 : i;
  *raw = std::string(text->substr(0, end));
  text->remove_prefix(end);
  return !quoted;
}

std::optional<double> ParseCsvNumber(const std::string& cell) {
  if (cell.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  if (end != cell.c_str() + cell.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

size_t CsvTable::Column(std::string_view name) const {
  return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

Result<CsvTable> ReadCsvTable(std::string_view text, const std::string& path,
                              const std::vector<std::string>& required) {
  auto error = [&](size_t line, const std::string& message) {
    return Status::InvalidArgument(message, {path, "line " + std::to_string(line)});
  };
  CsvTable table;
  std::vector<std::string> fields;
  std::string raw;
  size_t line = 1;
  if (text.empty()) return error(1, "empty file: expected a CSV header");
  if (!NextCsvRecord(&text, &fields, &raw)) return error(1, "unterminated quoted field");
  table.header = fields;
  for (const std::string& name : required) {
    if (table.Column(name) == table.header.size()) {
      return error(1, "no column " + name + " in the header");
    }
  }
  line += static_cast<size_t>(std::count(raw.begin(), raw.end(), '\n'));
  while (!text.empty()) {
    const size_t at = line;
    const bool complete = NextCsvRecord(&text, &fields, &raw);
    line += static_cast<size_t>(std::count(raw.begin(), raw.end(), '\n'));
    if (!complete) return error(at, "unterminated quoted field");
    if (raw == "\n" || raw == "\r\n") continue;
    if (fields.size() != table.header.size()) {
      return error(at, "expected " + std::to_string(table.header.size()) + " fields, got " +
                           std::to_string(fields.size()));
    }
    table.rows.push_back(fields);
    table.lines.push_back(at);
  }
  return table;
}

Result<double> CsvNumber(const CsvTable& table, size_t row, std::string_view column,
                         const std::string& path, bool empty_ok) {
  if (table.Column(column) == table.header.size()) {
    return Status::InvalidArgument("no column " + std::string(column) + " in the header",
                                   {path, "line 1"});
  }
  const std::string& cell = table.rows[row][table.Column(column)];
  if (cell.empty() && empty_ok) return std::numeric_limits<double>::quiet_NaN();
  const std::optional<double> v = ParseCsvNumber(cell);
  if (!v) {
    return Status::InvalidArgument(std::string(column) + ": not a number: '" + cell + "'",
                                   {path, "line " + std::to_string(table.lines[row])});
  }
  return *v;
}

}  // namespace migsim
