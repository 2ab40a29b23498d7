#include "sim/python/python_policy.h"

#include <pybind11/stl.h>

#include "sim/python/python_view.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

// Makes the handles of one call and invalidates them when it returns.
class CallScope {
 public:
  CallScope() : alive_(std::make_shared<bool>(true)) {}
  ~CallScope() { *alive_ = false; }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  PyView View(const ClusterView& v) const { return {&v, alive_}; }
  PyPod Pod(const ClusterView& v, const PodView& p) const { return {&p, &v.resources(), alive_}; }
  PyNode Node(const ClusterView& v, const NodeInfo& n) const {
    return {&n, &v.resources(), alive_};
  }

 private:
  Alive alive_;
};

}  // namespace

PythonPolicy::PythonPolicy(py::object policy) : policy_(std::move(policy)) {
  name_ = py::hasattr(policy_, "name") ? py::str(policy_.attr("name")).cast<std::string>()
                                       : std::string("python");
  has_place_ = py::hasattr(policy_, "place");
  has_filter_ = py::hasattr(policy_, "filter");
  has_score_ = py::hasattr(policy_, "score");
}

std::optional<Placement> PythonPolicy::Convert(const py::object& answer) const {
  if (answer.is_none()) return std::nullopt;
  if (py::isinstance<py::int_>(answer)) return Placement{NodeId(answer.cast<uint32_t>())};
  const auto pair = answer.cast<std::pair<uint32_t, std::vector<std::pair<uint32_t, int32_t>>>>();
  Placement placement{NodeId(pair.first)};
  for (const auto& [device, count] : pair.second) placement.devices.push_back({device, count});
  return placement;
}

std::optional<Placement> PythonPolicy::Place(const ClusterView& view, const PodView& pod) {
  if (error_) return std::nullopt;
  if (!has_place_) return Policy::Place(view, pod);
  try {
    CallScope scope;
    return Convert(policy_.attr("place")(scope.View(view), scope.Pod(view, pod)));
  } catch (py::error_already_set& e) {
    error_ = std::move(e);
  } catch (const py::cast_error& e) {
    const std::string message =
        "place() must return None, a node id or (node id, [(device, count), ...]): " +
        std::string(e.what());
    PyErr_SetString(PyExc_TypeError, message.c_str());
    error_ = py::error_already_set();  // takes the error just set
  }
  return std::nullopt;
}

bool PythonPolicy::Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) {
  if (error_ || !has_filter_) return !error_;
  try {
    CallScope scope;
    return policy_.attr("filter")(scope.View(view), scope.Pod(view, pod), scope.Node(view, node))
        .cast<bool>();
  } catch (py::error_already_set& e) {
    error_ = std::move(e);
  }
  return false;
}

std::optional<double> PythonPolicy::Score(const ClusterView& view, const PodView& pod,
                                          const NodeInfo& node) {
  if (error_ || !has_score_) return std::nullopt;
  try {
    CallScope scope;
    py::object s =
        policy_.attr("score")(scope.View(view), scope.Pod(view, pod), scope.Node(view, node));
    if (s.is_none()) return std::nullopt;
    return s.cast<double>();
  } catch (py::error_already_set& e) {
    error_ = std::move(e);
  }
  return std::nullopt;
}

std::optional<py::error_already_set> PythonPolicy::TakeError() {
  std::optional<py::error_already_set> e = std::move(error_);
  error_.reset();
  return e;
}

}  // namespace migsim::python
