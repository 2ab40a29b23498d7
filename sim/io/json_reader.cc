#include "sim/io/json_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "sim/core/check.h"
#include "sim/core/out_of_memory.h"
#include "sim/core/text.h"
#include "sim/io/hardware_catalog.h"
#include "sim/io/json_parse_checks.h"

namespace migsim::io {
namespace {

// nlohmann's parse errors read "[json.exception.parse_error.101] parse error at line 3,
// column 5: syntax error while parsing ..."; the location goes into the Status's location
// and the rest into its message.
Status ParseErrorStatus(const std::string& what, size_t byte, const std::string& file_label) {
  const std::string marker = "parse error at ";
  size_t at = what.find(marker);
  size_t colon = at == std::string::npos ? at : what.find(": ", at);
  if (colon == std::string::npos) {
    size_t bracket = what.find("] ");
    std::string detail = bracket == std::string::npos ? what : what.substr(bracket + 2);
    return Status::ParseError("malformed JSON: " + detail,
                              {file_label, "byte " + std::to_string(byte)});
  }
  std::string where = what.substr(at + marker.size(), colon - at - marker.size());
  return Status::ParseError("malformed JSON: " + what.substr(colon + 2), {file_label, where});
}

std::string RangeMessage(const char* op, double bound) {
  return std::string("must be ") + op + " " + FormatNumber(bound);
}

}  // namespace

std::string EscapePointerToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

bool PointerStartsWith(std::string_view pointer, std::string_view prefix) {
  return pointer.starts_with(prefix) &&
         (pointer.size() == prefix.size() || pointer[prefix.size()] == '/');
}

std::string UnknownNameMessage(std::string_view what, std::string_view name,
                               const std::vector<std::string>& valid) {
  std::string message = "unknown " + std::string(what) + " '" + std::string(name) + "'";
  if (valid.empty()) return message + " (none is defined)";
  return message + " (valid: " + JoinNames(valid) + ")";
}

std::string FormatNumber(double value) {
  // Integers print exactly up to 2^53, beyond which doubles skip integers.
  if (std::floor(value) == value && std::fabs(value) <= 9007199254740992.0) {
    return std::to_string(static_cast<int64_t>(value));
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.15g", value);
  return buffer;
}

namespace {

Result<Json> ParseJsonText(std::string_view text, const std::string& file_label) {
  JsonParseChecks checks;
  try {
    Json doc = ParseJsonLinear(text, &checks);
    if (checks.duplicate()) {
      return Status::InvalidArgument("duplicate key (JSON keeps only one of the values)",
                                     {file_label, *checks.duplicate()});
    }
    if (checks.too_deep()) {
      return Status::InvalidArgument(
          "nested deeper than " + std::to_string(JsonParseChecks::kMaxDepth) + " levels",
          {file_label, *checks.too_deep()});
    }
    return doc;
  } catch (const Json::parse_error& e) {
    return ParseErrorStatus(e.what(), e.byte, file_label);
  } catch (const Json::out_of_range& e) {  // a number beyond a double, e.g. 1e400
    const std::string what = e.what();
    const size_t bracket = what.find("] ");
    return Status::InvalidArgument(
        "malformed JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)),
        {file_label, checks.CurrentPointer()});
  }
}

}  // namespace

Result<Json> ParseJson(std::string_view text, const std::string& file_label) {
  return NamingOutOfMemory("parsing " + file_label,
                           [&] { return ParseJsonText(text, file_label); });
}

bool LoadContext::MayReadNamedFile(const std::string& pointer) {
  if (named_files_ == NamedFiles::kRead) return true;
  Fail(pointer, "named files are not read here");
  return false;
}

std::string LoadContext::ResolvePath(const std::string& path) const {
  MIGSIM_CHECK(named_files_ == NamedFiles::kRead, "a named file resolved while files are refused");
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(file_).parent_path() / p).lexically_normal().string();
}

const HardwareCatalog& LoadContext::catalog() const {
  return catalog_ != nullptr ? *catalog_ : BuiltinCatalog();
}

void LoadContext::Fail(const std::string& pointer, std::string message) {
  if (!error_.ok()) return;
  error_ = Status::InvalidArgument(std::move(message), {file_, pointer});
}

void LoadContext::Fail(Status error) {
  if (error_.ok()) error_ = std::move(error);
}

JsonRef JsonRef::Member(const std::string& key) const {
  return JsonRef(value_->at(key), PointerTo(key));
}

JsonRef JsonRef::Element(size_t index) const {
  return JsonRef(value_->at(index), pointer_ + "/" + std::to_string(index));
}

std::string JsonRef::PointerTo(std::string_view key) const {
  return pointer_ + "/" + EscapePointerToken(key);
}

std::string TypeName(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "a number";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    default:
      return "a value";
  }
}

std::optional<std::string> ReadString(LoadContext* ctx, const JsonRef& ref) {
  if (ref.value().is_string()) return ref.value().get<std::string>();
  ctx->Fail(ref.pointer(), "expected a string, got " + TypeName(ref.value()));
  return std::nullopt;
}

// Integral floats (2.0, 1e3) count as integers: JSON does not tell them apart.
std::optional<int64_t> ReadInt(LoadContext* ctx, const JsonRef& ref, int64_t min, int64_t max) {
  const Json& v = ref.value();
  if (!v.is_number()) {
    ctx->Fail(ref.pointer(), "expected an integer, got " + TypeName(v));
    return std::nullopt;
  }
  const double as_double = v.get<double>();
  if (v.is_number_float() && std::floor(as_double) != as_double) {
    ctx->Fail(ref.pointer(), "expected an integer, got " + FormatNumber(as_double));
    return std::nullopt;
  }
  if (as_double < static_cast<double>(min) ||
      (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < min)) {
    ctx->Fail(ref.pointer(), RangeMessage(">=", static_cast<double>(min)));
    return std::nullopt;
  }
  if (as_double > static_cast<double>(max) ||
      (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(max))) {
    ctx->Fail(ref.pointer(), RangeMessage("<=", static_cast<double>(max)));
    return std::nullopt;
  }
  return v.is_number_float() ? static_cast<int64_t>(as_double) : v.get<int64_t>();
}

std::optional<uint64_t> ReadUint64(LoadContext* ctx, const JsonRef& ref) {
  const Json& v = ref.value();
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (!v.is_number()) {
    ctx->Fail(ref.pointer(), "expected an integer, got " + TypeName(v));
    return std::nullopt;
  }
  const double as_double = v.get<double>();
  if (std::floor(as_double) != as_double) {
    ctx->Fail(ref.pointer(), "expected an integer, got " + FormatNumber(as_double));
  } else if (as_double < 0) {
    ctx->Fail(ref.pointer(), RangeMessage(">=", 0));
  } else if (as_double >= 18446744073709551616.0) {
    ctx->Fail(ref.pointer(), "must be < 2^64");
  } else {
    return static_cast<uint64_t>(as_double);
  }
  return std::nullopt;
}

std::optional<double> ReadNumber(LoadContext* ctx, const JsonRef& ref, double min, double max) {
  const Json& v = ref.value();
  if (!v.is_number()) {
    ctx->Fail(ref.pointer(), "expected a number, got " + TypeName(v));
    return std::nullopt;
  }
  const double value = v.get<double>();
  if (value < min) {
    ctx->Fail(ref.pointer(), RangeMessage(">=", min));
    return std::nullopt;
  }
  if (value > max) {
    ctx->Fail(ref.pointer(), RangeMessage("<=", max));
    return std::nullopt;
  }
  return value;
}

std::optional<bool> ReadBool(LoadContext* ctx, const JsonRef& ref) {
  if (ref.value().is_boolean()) return ref.value().get<bool>();
  ctx->Fail(ref.pointer(), "expected a boolean, got " + TypeName(ref.value()));
  return std::nullopt;
}

std::optional<SimTime> ReadSeconds(LoadContext* ctx, const JsonRef& ref) {
  std::optional<double> seconds = ReadNumber(ctx, ref, 0, kMaxSeconds);
  if (!seconds) return std::nullopt;
  return SimTime::Seconds(*seconds);
}

bool ExpectObject(LoadContext* ctx, const JsonRef& ref) {
  if (ref.value().is_object()) return true;
  ctx->Fail(ref.pointer(), "expected an object, got " + TypeName(ref.value()));
  return false;
}

bool ExpectArray(LoadContext* ctx, const JsonRef& ref) {
  if (ref.value().is_array()) return true;
  ctx->Fail(ref.pointer(), "expected an array, got " + TypeName(ref.value()));
  return false;
}

bool ExpectNamedObject(LoadContext* ctx, const JsonRef& ref, std::string_view what) {
  if (!ExpectObject(ctx, ref)) return false;
  if (!ref.value().contains("")) return true;
  ctx->Fail(ref.PointerTo(""), std::string(what) + " names must not be empty");
  return false;
}

Labels ReadLabels(LoadContext* ctx, const JsonRef& ref) {
  Labels labels;
  if (!ExpectNamedObject(ctx, ref, "label")) return labels;
  for (const auto& [key, value] : ref.value().items()) {
    std::optional<std::string> text = ReadString(ctx, ref.Member(key));
    if (text) labels.emplace_back(key, std::move(*text));
  }
  std::sort(labels.begin(), labels.end());
  return labels;
}

std::vector<std::string> ReadStringArray(LoadContext* ctx, const JsonRef& ref) {
  std::vector<std::string> out;
  if (!ExpectArray(ctx, ref)) return out;
  for (size_t i = 0; i < ref.value().size(); ++i) {
    std::optional<std::string> text = ReadString(ctx, ref.Element(i));
    if (text) out.push_back(std::move(*text));
  }
  return out;
}

ObjectReader::ObjectReader(LoadContext* ctx, JsonRef object,
                           std::span<const std::string_view> fields)
    : ctx_(ctx), object_(std::move(object)) {
  if (!ExpectObject(ctx_, object_)) return;
  valid_ = true;
  for (const auto& [key, value] : object_.value().items()) {
    if (std::find(fields.begin(), fields.end(), key) != fields.end()) continue;
    std::vector<std::string> expected(fields.begin(), fields.end());
    ctx_->Fail(object_.PointerTo(key),
               "unknown field '" + key + "' (expected one of: " + JoinNames(expected) + ")");
    return;
  }
}

bool ObjectReader::Has(std::string_view key) const {
  return valid_ && object_.value().contains(std::string(key));
}

JsonRef ObjectReader::Field(std::string_view key) const { return object_.Member(std::string(key)); }

bool ObjectReader::Require(std::string_view key) {
  if (Has(key)) return true;
  if (valid_) ctx_->Fail(object_.pointer(), "missing required field '" + std::string(key) + "'");
  return false;
}

std::string ObjectReader::String(std::string_view key, std::string fallback) {
  if (!Has(key)) return fallback;
  return ReadString(ctx_, Field(key)).value_or(std::move(fallback));
}

std::string ObjectReader::NonEmptyString(std::string_view key) {
  if (!Require(key)) return "";
  std::string value = String(key);
  if (ctx_->ok() && value.empty()) ctx_->Fail(Field(key).pointer(), "must not be empty");
  return value;
}

int64_t ObjectReader::Int(std::string_view key, int64_t fallback, int64_t min, int64_t max) {
  if (!Has(key)) return fallback;
  return ReadInt(ctx_, Field(key), min, max).value_or(fallback);
}

double ObjectReader::Number(std::string_view key, double fallback, double min, double max) {
  if (!Has(key)) return fallback;
  return ReadNumber(ctx_, Field(key), min, max).value_or(fallback);
}

bool ObjectReader::Bool(std::string_view key, bool fallback) {
  if (!Has(key)) return fallback;
  return ReadBool(ctx_, Field(key)).value_or(fallback);
}

SimTime ObjectReader::Seconds(std::string_view key, SimTime fallback) {
  if (!Has(key)) return fallback;
  return ReadSeconds(ctx_, Field(key)).value_or(fallback);
}

}  // namespace migsim::io
