#pragma once
// Tables as Python sees them: a dict of equal-length column lists, in column order, that
// pandas.DataFrame(table) takes in one call (no pandas needed to build one). Numbers are
// numbers (int or float), absent values None.

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <vector>

namespace migsim::python {

// How a CSV's columns become Python values. A column named in none of the lists holds
// numbers: int when every present value is a whole number written without a point, else
// float (bool when every present value is true or false); an empty field is None.
struct ColumnKinds {
  std::vector<std::string> text;     // kept as str (names, notes)
  std::vector<std::string> json;     // JSON text, decoded (a sweep's pointer columns)
  std::vector<std::string> decimal;  // float even when every value is whole ("%g" columns)
};

// The CSV a report writes (RFC 4180, a header line first) as a table: the same columns,
// the same values, the CSV's precision. REQUIRES: the GIL is held; `csv` is one of
// migsim's own CSVs (every record as wide as the header).
pybind11::dict TableFromCsv(std::string_view csv, const ColumnKinds& kinds);

// One row per dict of `rows` (migsim.run's results): name, policy, seed, then every number
// or str of its "metrics", "faults" and "energy" and its decision counts, nested names
// joined by "." ("queueing_latency_s.p95", "energy.kwh"); None where a row lacks a column
// another has. The pods' table is not a metric: it is left out. REQUIRES: the GIL is held.
pybind11::dict TableFromResults(const pybind11::list& rows);

}  // namespace migsim::python
