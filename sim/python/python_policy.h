#pragma once
// A Policy whose decisions come from a Python object. Every method is optional:
//   place(view, pod)        -> None | node_id | (node_id, [(device_index, count), ...])
//   filter(view, pod, node) -> bool        (with the default place)
//   score(view, pod, node)  -> float|None  (with the default place; None: no score)
//   name                    -> str         (default "python")
// Without place, the API's default runs filter -> score -> highest -> the device plugin.
// The engine validates every answer, as for any policy. An exception raised by the
// object stops its decisions (every later pod is left pending) and is kept for the caller
// to raise once the run returns (TakeError).
//
// REQUIRES: the GIL is held while the engine runs (the run is called from Python).

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "sim/policy/policy.h"

namespace migsim::python {

class PythonPolicy final : public Policy {
 public:
  explicit PythonPolicy(pybind11::object policy);
  std::string_view name() const override { return name_; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;
  bool Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) override;
  std::optional<double> Score(const ClusterView& view, const PodView& pod,
                              const NodeInfo& node) override;
  // The exception the object raised, if any; cleared.
  std::optional<pybind11::error_already_set> TakeError();

 private:
  std::optional<Placement> Convert(const pybind11::object& answer) const;

  pybind11::object policy_;
  std::string name_;
  bool has_place_, has_filter_, has_score_;
  std::optional<pybind11::error_already_set> error_;
};

}  // namespace migsim::python
