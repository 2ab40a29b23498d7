#pragma once
// Internal to sim/io: reading a JSON document field by field. Every problem becomes an
// InvalidArgument that names the file and the JSON pointer (RFC 6901) of the offending
// element. This header brings in nlohmann/json, so only sim/io .cc files include it.

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/io/named_files.h"
#include "sim/policy/resources.h"

namespace migsim {
class HardwareCatalog;
}  // namespace migsim

namespace migsim::io {

// Keeps members in file order: the order of variants, pools, workloads and steps.
using Json = nlohmann::ordered_json;

constexpr int64_t kMaxInt = std::numeric_limits<int32_t>::max();
// Longest duration or instant a file may give (sim_time.h).
constexpr double kMaxSeconds = kMaxInputSeconds;

// One reference token escaped for a pointer: '~' -> "~0", '/' -> "~1".
std::string EscapePointerToken(std::string_view token);
// True when `prefix` is `pointer` or a prefix of it token by token ("/a/b" is one of
// "/a/b/c", not of "/a/bc").
bool PointerStartsWith(std::string_view pointer, std::string_view prefix);

// "unknown job class 'x' (valid: a, b)", or "... (none is defined)" when `valid` is empty.
std::string UnknownNameMessage(std::string_view what, std::string_view name,
                               const std::vector<std::string>& valid);
// "3", "0.5", "1e+12": integers without a decimal point.
std::string FormatNumber(double value);

// Parses `text`; a syntax error is a ParseError located at "line L, column C".
Result<Json> ParseJson(std::string_view text, const std::string& file_label);

// Returns parse(), a Result, with any nlohmann exception escaping it turned into an internal
// error at `file_label`. The loaders check every type before reading a value, so nlohmann
// has nothing left to throw; should it throw anyway, the error still stops here, as a Status.
template <typename Parse>
auto CatchJsonErrors(const std::string& file_label, Parse parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const Json::exception& e) {
    return Status::Internal(file_label + ": unexpected JSON error: " + e.what());
  }
}

// Collects the first error of a load. Later errors are dropped, so a loader can carry on
// with defaults after a failure and check ok() where it needs valid values.
class LoadContext {
 public:
  explicit LoadContext(std::string file, NamedFiles named_files = NamedFiles::kRead)
      : file_(std::move(file)), named_files_(named_files) {}
  // Records InvalidArgument(message) at `pointer`, unless an error is recorded already.
  void Fail(const std::string& pointer, std::string message);
  // Records `error`, located elsewhere (a file the document names), unless an error is
  // recorded already. REQUIRES: !error.ok().
  void Fail(Status error);
  bool ok() const { return error_.ok(); }
  const Status& status() const { return error_; }
  NamedFiles named_files() const { return named_files_; }
  const std::string& file() const { return file_; }  // the document's, as errors name it
  // Whether the loader may read the file named at `pointer`: true under NamedFiles::kRead;
  // under kRefused, false after recording "named files are not read here" at `pointer`.
  // A loader asks before ResolvePath.
  bool MayReadNamedFile(const std::string& pointer);
  // A path named in the document: as given when absolute, else relative to the directory
  // of the document's file (so a scenario runs the same from any working directory).
  // REQUIRES: named files are read; aborts otherwise (a loader that did not ask
  // MayReadNamedFile), so that hostile text never reaches the file system.
  std::string ResolvePath(const std::string& path) const;
  // The GPU models and node types that names in the document resolve to: the scenario's
  // (built-ins and its own) once set_catalog() was called, else the built-in ones.
  const HardwareCatalog& catalog() const;
  void set_catalog(std::shared_ptr<const HardwareCatalog> catalog) {
    catalog_ = std::move(catalog);
  }

 private:
  std::string file_;
  NamedFiles named_files_;
  Status error_;
  std::shared_ptr<const HardwareCatalog> catalog_;
};

// A value inside a document and the pointer that names it. Non-owning: the document
// must outlive it.
class JsonRef {
 public:
  JsonRef(const Json& value, std::string pointer) : value_(&value), pointer_(std::move(pointer)) {}
  const Json& value() const { return *value_; }
  const std::string& pointer() const { return pointer_; }
  // REQUIRES: value() is an object holding `key`.
  JsonRef Member(const std::string& key) const;
  // REQUIRES: value() is an array longer than `index`.
  JsonRef Element(size_t index) const;
  // The pointer of member `key`, present or not.
  std::string PointerTo(std::string_view key) const;

 private:
  const Json* value_;
  std::string pointer_;
};

// "a number", "a string", "an object", ... for "expected X, got Y" messages.
std::string TypeName(const Json& value);

// Scalar readers: each reports a wrong type or an out-of-range value at the value's
// pointer ("expected a string, got a number", "must be >= 1") and then returns nullopt.
std::optional<std::string> ReadString(LoadContext* ctx, const JsonRef& ref);
std::optional<int64_t> ReadInt(LoadContext* ctx, const JsonRef& ref, int64_t min,
                               int64_t max = kMaxInt);
std::optional<uint64_t> ReadUint64(LoadContext* ctx, const JsonRef& ref);
std::optional<double> ReadNumber(LoadContext* ctx, const JsonRef& ref, double min,
                                 double max = std::numeric_limits<double>::max());
std::optional<bool> ReadBool(LoadContext* ctx, const JsonRef& ref);
// A number of seconds in [0, kMaxSeconds], rounded to the microsecond.
std::optional<SimTime> ReadSeconds(LoadContext* ctx, const JsonRef& ref);
// Report "expected an object/an array, got ..." and return false when the type differs.
bool ExpectObject(LoadContext* ctx, const JsonRef& ref);
// ExpectObject for an object whose keys are names (pools, job classes, workloads, ...):
// an empty key is reported at its pointer as "<what> names must not be empty".
bool ExpectNamedObject(LoadContext* ctx, const JsonRef& ref, std::string_view what);
bool ExpectArray(LoadContext* ctx, const JsonRef& ref);
// An object of string values, sorted by key.
Labels ReadLabels(LoadContext* ctx, const JsonRef& ref);
// An array of strings, in order.
std::vector<std::string> ReadStringArray(LoadContext* ctx, const JsonRef& ref);

// Reads one JSON object against a fixed list of fields. The constructor reports a value
// that is not an object, or the first member not in `fields`. The getters return
// `fallback` when the field is absent, or after reporting a problem with it.
class ObjectReader {
 public:
  ObjectReader(LoadContext* ctx, JsonRef object, std::span<const std::string_view> fields);
  ObjectReader(LoadContext* ctx, JsonRef object, std::initializer_list<std::string_view> fields)
      : ObjectReader(ctx, std::move(object), std::span(fields.begin(), fields.size())) {}

  bool valid() const { return valid_; }  // the value is an object
  const JsonRef& object() const { return object_; }
  bool Has(std::string_view key) const;
  // REQUIRES: Has(key).
  JsonRef Field(std::string_view key) const;
  // Reports "missing required field 'key'" at the object's pointer; returns Has(key).
  bool Require(std::string_view key);

  std::string String(std::string_view key, std::string fallback = "");
  // Require(key), then String(key), reporting "must not be empty" at the field for "".
  std::string NonEmptyString(std::string_view key);
  int64_t Int(std::string_view key, int64_t fallback, int64_t min, int64_t max = kMaxInt);
  double Number(std::string_view key, double fallback, double min,
                double max = std::numeric_limits<double>::max());
  bool Bool(std::string_view key, bool fallback);
  SimTime Seconds(std::string_view key, SimTime fallback);

 private:
  LoadContext* ctx_;
  JsonRef object_;
  bool valid_ = false;
};

}  // namespace migsim::io
