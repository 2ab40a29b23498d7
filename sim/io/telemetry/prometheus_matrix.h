#pragma once
// Series read from the Prometheus HTTP API's query responses, as `curl` saves them: a range
// query (`/api/v1/query_range`, "resultType": "matrix") or an instant query (`/api/v1/query`,
// "resultType": "vector"). README "Telemetry export" lists the queries migsim reads.
//
//   {"status": "success",
//    "data": {"resultType": "matrix",
//             "result": [{"metric": {"__name__": "DCGM_FI_DEV_FB_USED", "pod": "a", ...},
//                         "values": [[1764201600, "20480"], [1764201660, "NaN"], ...]}]}}
//
// Prometheus writes a sample as [<unix seconds, a number>, "<value, a string>"], the value
// formatted by Go's strconv.FormatFloat(v, 'f', -1, 64): "NaN", "+Inf" and "-Inf" for the
// special values (Prometheus docs, "HTTP API", "Expression query result formats").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/policy/resources.h"

namespace migsim::telemetry {

// Latest Unix time a sample may carry: the year 2286, past any real export; a larger value is
// a unit mistake (milliseconds).
inline constexpr double kMaxUnixSeconds = 1e10;

struct Sample {
  double time = 0;   // Unix seconds
  double value = 0;  // may be NaN or infinite, as Prometheus wrote it
};

// One series of a response. Where it came from is kept so that a later check of its values
// (the observations' join) can name the file and the element.
struct Series {
  std::string metric;           // the "__name__" label; "" when the query dropped it
  Labels labels;                // the other labels, sorted by name
  std::vector<Sample> samples;  // in strictly increasing time
  std::string file;             // the response's file label, as errors name it
  std::string pointer;          // the series' JSON pointer in it: "/data/result/3"
  bool instant = false;         // read from an instant query's "value"

  // The value of label `name`, or nullopt when the series lacks it.
  std::optional<std::string_view> Label(std::string_view name) const;
  // The JSON pointer of sample `index`'s value: ".../values/<index>/1" (".../value/1" for an
  // instant query's single sample).
  std::string SamplePointer(size_t index) const;
};

// The series of one response `text`, read from `file` (the label errors name). Errors, each
// an InvalidArgument or ParseError at the file and the offending element's JSON pointer:
// malformed JSON; "status": "error" (quoting Prometheus's errorType and error); a resultType
// other than matrix or vector; a wrong type anywhere; a sample that is not a [time, "value"]
// pair; a time outside [0, kMaxUnixSeconds] or not after the one before; a value string that
// is not a number as Prometheus formats them; a native histogram sample (not read).
Result<std::vector<Series>> ParsePrometheusResponse(std::string_view text, const std::string& file);

// The series of every file in `paths`, in order (one file per query). The first error stops.
Result<std::vector<Series>> LoadPrometheusFiles(const std::vector<std::string>& paths);

}  // namespace migsim::telemetry
