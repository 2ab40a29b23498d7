#pragma once
// migsim.sweep, migsim.plan, migsim.validate, migsim.import_cluster and migsim.run_table:
// what `migsim sweep`, `plan`, `validate` and `import` do, with the same seeds and numbers,
// returning tables (sim/python/table.h) and dicts. See sim/python/README.md.

#include <pybind11/pybind11.h>

namespace migsim::python {

// Adds the sweep and plan functions and run_table to `m` (study_bindings.cc).
void BindStudies(pybind11::module_& m);

// Adds validate and import_cluster to `m` (scenario_bindings.cc).
void BindScenarioTools(pybind11::module_& m);

}  // namespace migsim::python
