#pragma once
// Status and Result<T>: errors in input are values, not exceptions or aborts.
//
// A Status names where the problem is (a file plus a JSON pointer or a line) so the
// user can find it; ToString() gives "file:/json/pointer: message".

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace migsim {

enum class StatusCode { kOk, kInvalidArgument, kNotFound, kParseError, kIoError, kInternal };

struct InputLocation {
  std::string file;          // may be empty when the input is not a file
  std::string json_pointer;  // e.g. "/cluster/nodes/p4d/mig/config"; or "line 12"
};

class Status {
 public:
  Status() = default;  // ok
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string message, InputLocation where = {}) {
    return Status(StatusCode::kInvalidArgument, std::move(message), std::move(where));
  }
  static Status NotFound(std::string message, InputLocation where = {}) {
    return Status(StatusCode::kNotFound, std::move(message), std::move(where));
  }
  static Status ParseError(std::string message, InputLocation where = {}) {
    return Status(StatusCode::kParseError, std::move(message), std::move(where));
  }
  static Status IoError(std::string message, InputLocation where = {}) {
    return Status(StatusCode::kIoError, std::move(message), std::move(where));
  }
  static Status Internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message), {});
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const InputLocation& location() const { return where_; }

  // Returns a copy whose location is `where` unless it already has one; lets a
  // low-level check (no file knowledge) be located by its caller.
  Status At(InputLocation where) const;
  // Returns a copy with `prefix` prepended to the message.
  Status Prefixed(const std::string& prefix) const;

  // "file:pointer: message", omitting empty parts.
  std::string ToString() const;

 private:
  Status(StatusCode code, std::string message, InputLocation where)
      : code_(code), message_(std::move(message)), where_(std::move(where)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  InputLocation where_;
};

// Either a T or a non-ok Status.
template <typename T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(data_).ok() && "Result needs a non-ok Status");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  // REQUIRES: !ok()
  const Status& status() const { return std::get<Status>(data_); }
  // REQUIRES: ok()
  const T& value() const& { return std::get<T>(data_); }
  T& value() & { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace migsim
