#include "sim/python/interrupt.h"

namespace migsim::python {
namespace py = pybind11;

bool Interrupt::operator()() {
  if (error_ || (policy_ != nullptr && policy_->failed())) return true;
  if (++calls_ % kCalls != 0) return false;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < kPeriod) return false;
  last_ = now;
  std::optional<py::gil_scoped_acquire> gil;
  if (gil_released_) gil.emplace();
  if (PyErr_CheckSignals() == 0) return false;
  error_.emplace();  // takes the exception the handler raised
  return true;
}

void Interrupt::RaiseIfSignalled() {
  if (!error_) return;
  py::error_already_set e = std::move(*error_);
  error_.reset();
  throw e;
}

}  // namespace migsim::python
