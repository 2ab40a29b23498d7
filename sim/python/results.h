#pragma once
// A run's result as Python sees it: plain dicts and lists, under the names of the JSON
// output (sim/report/results_json.cc, README "JSON"), so that a notebook and a results
// file read alike. Values are not rounded to the microsecond as the JSON file's are.

#include <pybind11/pybind11.h>

#include <cstdint>

#include "sim/study/run.h"

namespace migsim::python {

// {"name", "policy", "seed", "metrics": {...}, "energy": {...}, "rejected_decisions",
// "pods": {column: list}}.
// "pods" is columnar — equal-length lists in pod order, None where a value is absent (the
// pods CSV's columns) — so pandas.DataFrame(result["pods"]) takes it as it is.
// REQUIRES: the GIL is held.
pybind11::dict ResultDict(const VariantResult& result, uint64_t seed);

}  // namespace migsim::python
