#pragma once
// The plain CSV that migsim reads (openb traces, pod lists): a header line naming the
// columns, then one record per line. LF or CRLF line ends, a UTF-8 byte-order mark,
// spaces or tabs around fields and blank lines are accepted; quoted fields are not (none
// of these files needs them, and a quote is more likely a file from elsewhere), nor text
// that is not UTF-8 or holds control characters (names end up in JSON and terminals). Every
// comma separates: "a,b," has three fields, the last empty.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/utf8.h"

namespace migsim {

// `s` without leading and trailing spaces and tabs.
std::string_view TrimCsvField(std::string_view s);

// The trimmed fields of `line` into `fields` (cleared first; reused across lines so a
// file costs one allocation, not one per line).
void SplitCsvLine(std::string_view line, std::vector<std::string_view>* fields);

// "a, b, c".
std::string JoinFields(const std::vector<std::string_view>& parts, std::string_view separator);

// Runs `header(fields)` on the first non-blank line and `row(fields, &record)` on each
// later one, after checking for quotes and, for records, that the field count matches the
// header's. `Row` has an `int line` member, set to the record's line. Both callbacks
// return a Status without a location; this adds {file, "line N"}, N counted from 1 over
// all physical lines. The first bad line ends the parse.
template <typename Row, typename HeaderFn, typename RowFn>
Result<std::vector<Row>> ParseCsvLines(std::string_view text, const std::string& file,
                                       HeaderFn header, RowFn row) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // as spreadsheets write
  std::vector<Row> rows;
  rows.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')));
  std::vector<std::string_view> fields;
  size_t columns = 0;
  int n = 0;
  while (!text.empty()) {
    const size_t newline = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(std::min(newline + 1, text.size()));
    ++n;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (TrimCsvField(line).empty()) continue;
    const auto where = [&] { return InputLocation{file, "line " + std::to_string(n)}; };
    if (line.find('"') != std::string_view::npos) {
      return Status::ParseError("quoted fields are not supported (found '\"')", where());
    }
    if (!IsValidUtf8(line)) return Status::ParseError("not valid UTF-8", where());
    if (const auto control = std::find_if(line.begin(), line.end(),
                                          [](char c) { return c != '\t' && c >= 0 && c < 0x20; });
        control != line.end()) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned>(*control));
      return Status::ParseError(std::string("a control character (byte ") + byte + ")", where());
    }
    SplitCsvLine(line, &fields);
    if (columns == 0) {
      if (Status s = header(fields); !s.ok()) return s.At(where());
      columns = fields.size();
      continue;
    }
    if (fields.size() != columns) {
      return Status::ParseError(
          "expected " + std::to_string(columns) + " fields, got " + std::to_string(fields.size()),
          where());
    }
    rows.emplace_back().line = n;
    if (Status s = row(fields, &rows.back()); !s.ok()) return s.At(where());
  }
  if (columns == 0) return Status::ParseError("empty file: no header line", {file, "line 1"});
  return rows;
}

}  // namespace migsim
