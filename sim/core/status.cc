#include "sim/core/status.h"

namespace migsim {

Status Status::At(InputLocation where) const {
  Status copy = *this;
  if (copy.where_.file.empty()) copy.where_.file = std::move(where.file);
  if (copy.where_.json_pointer.empty()) copy.where_.json_pointer = std::move(where.json_pointer);
  return copy;
}

Status Status::Prefixed(const std::string& prefix) const {
  Status copy = *this;
  copy.message_ = prefix + copy.message_;
  return copy;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out;
  if (!where_.file.empty()) out += where_.file;
  if (!where_.json_pointer.empty()) {
    if (!out.empty()) out += ":";
    out += where_.json_pointer;
  }
  if (!out.empty()) out += ": ";
  out += message_;
  return out;
}

}  // namespace migsim
