#pragma once
// migsim.openb(...): the ATC'23 fill experiment of `migsim openb` from Python, with any
// policy (a built-in's name, a dict in the form of a scenario's "policy", or a Python
// object), returning the CLI's CSVs as columnar tables. See sim/python/README.md.

#include <pybind11/pybind11.h>

namespace migsim::python {

// Registers openb in `m`.
void BindOpenb(pybind11::module_& m);

}  // namespace migsim::python
