#pragma once
// Reading back the CSVs migsim writes (RFC 4180 fields, "\n" or "\r\n" line ends), for
// `migsim report` and `migsim merge`: records with their line numbers, and errors that name
// the file and the line.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// Splits one record off the front of `text`: its fields unquoted, and its raw text with
// the line break. A quoted field may hold line breaks. Returns false on an unterminated
// quote.
bool NextCsvRecord(std::string_view* text, std::vector<std::string>* fields, std::string* raw);

// The cell as a finite number (all of it: "1.5", "-2", "1e3"); nullopt for "", "x", "1x",
// "nan" or "inf".
std::optional<double> ParseCsvNumber(const std::string& cell);

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as wide as the header
  std::vector<size_t> lines;                   // each row's line number in the file
  // The index of the header's column `name`, or header.size() when it has none.
  size_t Column(std::string_view name) const;
};

// The table `text` holds, its header first; blank lines are skipped. InvalidArgument at
// "<path>: line N" for an unterminated quote or a row of another width than the header,
// or when `required` names a column the header lacks (at line 1).
Result<CsvTable> ReadCsvTable(std::string_view text, const std::string& path,
                              const std::vector<std::string>& required);

// The cell as a number: InvalidArgument at "<path>: line N" naming the column otherwise.
// An empty cell is NaN when `empty_ok`.
Result<double> CsvNumber(const CsvTable& table, size_t row, std::string_view column,
                         const std::string& path, bool empty_ok = false);

}  // namespace migsim
