#include "sim/io/telemetry/prometheus_matrix.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "sim/io/input_file.h"
#include "sim/io/json_reader.h"

namespace migsim::telemetry {
namespace {

using io::Json;
using io::JsonRef;
using io::LoadContext;

// A value string as Prometheus writes one (Go's strconv.FormatFloat(v, 'f', -1, 64), with
// its "NaN", "+Inf" and "-Inf"); exponents are accepted too, as other writers of the API
// (Thanos, VictoriaMetrics) may use them. nullopt for anything else, "inf" and "nan" included.
std::optional<double> ParseSampleValue(std::string_view text) {
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (text == "+Inf") return std::numeric_limits<double>::infinity();
  if (text == "-Inf") return -std::numeric_limits<double>::infinity();
  if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string_view::npos) {
    return std::nullopt;
  }
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A member the reader requires: reports "missing required field" at the object.
const Json* RequiredMember(LoadContext* ctx, const JsonRef& object, const std::string& key) {
  const auto it = object.value().find(key);
  if (it != object.value().end()) return &*it;
  ctx->Fail(object.pointer(), "missing required field '" + key + "'");
  return nullptr;
}

// One [<unix seconds>, "<value>"] pair.
std::optional<Sample> ReadSample(LoadContext* ctx, const JsonRef& ref) {
  if (!io::ExpectArray(ctx, ref)) return std::nullopt;
  if (ref.value().size() != 2) {
    ctx->Fail(ref.pointer(), "expected a [time, \"value\"] pair, got " +
                                 std::to_string(ref.value().size()) + " elements");
    return std::nullopt;
  }
  const std::optional<double> time = io::ReadNumber(ctx, ref.Element(0), 0, kMaxUnixSeconds);
  const std::optional<std::string> text = io::ReadString(ctx, ref.Element(1));
  if (!time || !text) return std::nullopt;
  const std::optional<double> value = ParseSampleValue(*text);
  if (!value) {
    ctx->Fail(ref.Element(1).pointer(),
              "'" + *text + "' is not a sample value (a number, NaN, +Inf or -Inf)");
    return std::nullopt;
  }
  return Sample{*time, *value};
}

// A range query's "values": samples in strictly increasing time, as Prometheus evaluates
// them step by step.
void ReadSamples(LoadContext* ctx, const JsonRef& ref, Series* series) {
  if (!io::ExpectArray(ctx, ref)) return;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    const JsonRef element = ref.Element(i);
    const std::optional<Sample> sample = ReadSample(ctx, element);
    if (!sample) return;
    if (!series->samples.empty() && !(sample->time > series->samples.back().time)) {
      ctx->Fail(element.Element(0).pointer(),
                "time " + io::FormatNumber(sample->time) + " is not after the sample before (" +
                    io::FormatNumber(series->samples.back().time) + ")");
      return;
    }
    series->samples.push_back(*sample);
  }
}

// One element of "result": {"metric": {...}, "values": [...]} (matrix) or "value" (vector).
std::optional<Series> ReadSeries(LoadContext* ctx, const JsonRef& ref, bool matrix) {
  if (!io::ExpectObject(ctx, ref)) return std::nullopt;
  for (const char* histogram : {"histograms", "histogram"}) {
    if (ref.value().contains(histogram)) {
      ctx->Fail(ref.PointerTo(histogram),
                "native histogram samples are not read; export a gauge or a counter");
      return std::nullopt;
    }
  }
  const std::string samples_key = matrix ? "values" : "value";
  const Json* metric = RequiredMember(ctx, ref, "metric");
  const Json* samples = RequiredMember(ctx, ref, samples_key);
  if (metric == nullptr || samples == nullptr) return std::nullopt;
  Series series;
  series.file = ctx->file();
  series.pointer = ref.pointer();
  series.instant = !matrix;
  for (auto& [name, value] : io::ReadLabels(ctx, ref.Member("metric"))) {
    if (name == "__name__") {
      series.metric = std::move(value);
    } else {
      series.labels.emplace_back(name, std::move(value));
    }
  }
  if (matrix) {
    ReadSamples(ctx, ref.Member(samples_key), &series);
  } else if (const std::optional<Sample> sample = ReadSample(ctx, ref.Member(samples_key))) {
    series.samples.push_back(*sample);
  }
  if (!ctx->ok()) return std::nullopt;
  return series;
}

// "status": "error" becomes the error Prometheus gave, at its "error" member.
void FailOnErrorStatus(LoadContext* ctx, const JsonRef& root) {
  const Json& doc = root.value();
  std::string type, message = "(no message)";
  if (doc.contains("errorType") && doc["errorType"].is_string()) type = doc["errorType"];
  if (doc.contains("error") && doc["error"].is_string()) message = doc["error"];
  ctx->Fail(root.PointerTo(doc.contains("error") ? "error" : "status"),
            "Prometheus answered with an error" + (type.empty() ? "" : " (" + type + ")") + ": " +
                message);
}

// "data": {"resultType": "matrix" | "vector", "result": [...]}; true for a matrix.
std::optional<bool> ReadResultType(LoadContext* ctx, const JsonRef& data) {
  if (RequiredMember(ctx, data, "resultType") == nullptr) return std::nullopt;
  const JsonRef ref = data.Member("resultType");
  const std::optional<std::string> type = io::ReadString(ctx, ref);
  if (!type) return std::nullopt;
  if (*type == "matrix" || *type == "vector") return *type == "matrix";
  ctx->Fail(ref.pointer(), "resultType '" + *type +
                               "' holds no series; export a query that selects series "
                               "(a range query gives a matrix, an instant query a vector)");
  return std::nullopt;
}

std::vector<Series> ReadResponse(LoadContext* ctx, const Json& doc) {
  std::vector<Series> out;
  const JsonRef root(doc, "");
  if (!io::ExpectObject(ctx, root) || RequiredMember(ctx, root, "status") == nullptr) return out;
  const std::optional<std::string> status = io::ReadString(ctx, root.Member("status"));
  if (!status) return out;
  if (*status == "error") {
    FailOnErrorStatus(ctx, root);
    return out;
  }
  if (*status != "success") {
    ctx->Fail("/status", "expected \"success\" or \"error\", got '" + *status + "'");
    return out;
  }
  if (RequiredMember(ctx, root, "data") == nullptr) return out;
  const JsonRef data = root.Member("data");
  if (!io::ExpectObject(ctx, data)) return out;
  const std::optional<bool> matrix = ReadResultType(ctx, data);
  if (!matrix || RequiredMember(ctx, data, "result") == nullptr) return out;
  const JsonRef result = data.Member("result");
  if (!io::ExpectArray(ctx, result)) return out;
  for (size_t i = 0; i < result.value().size() && ctx->ok(); ++i) {
    if (std::optional<Series> series = ReadSeries(ctx, result.Element(i), *matrix)) {
      out.push_back(std::move(*series));
    }
  }
  return out;
}

}  // namespace

std::optional<std::string_view> Series::Label(std::string_view name) const {
  const auto it =
      std::lower_bound(labels.begin(), labels.end(), name,
                       [](const auto& label, std::string_view key) { return label.first < key; });
  if (it == labels.end() || it->first != name) return std::nullopt;
  return it->second;
}

std::string Series::SamplePointer(size_t index) const {
  if (instant) return pointer + "/value/1";
  return pointer + "/values/" + std::to_string(index) + "/1";
}

Result<std::vector<Series>> ParsePrometheusResponse(std::string_view text,
                                                    const std::string& file) {
  return io::CatchJsonErrors(file, [&]() -> Result<std::vector<Series>> {
    Result<Json> doc = io::ParseJson(text, file);
    if (!doc.ok()) return doc.status();
    LoadContext ctx(file);
    std::vector<Series> series = ReadResponse(&ctx, doc.value());
    if (!ctx.ok()) return ctx.status();
    return series;
  });
}

Result<std::vector<Series>> LoadPrometheusFiles(const std::vector<std::string>& paths) {
  std::vector<Series> all;
  for (const std::string& path : paths) {
    Result<std::string> text = ReadInputFile(path);
    if (!text.ok()) return text.status();
    Result<std::vector<Series>> series = ParsePrometheusResponse(text.value(), path);
    if (!series.ok()) return series.status();
    for (Series& s : series.value()) all.push_back(std::move(s));
  }
  return all;
}

}  // namespace migsim::telemetry
