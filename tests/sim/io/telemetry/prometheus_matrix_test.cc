#include "sim/io/telemetry/prometheus_matrix.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace migsim::telemetry {
namespace {

// A successful range-query response holding `result`.
std::string Matrix(const std::string& result) {
  return R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}";
}

std::string Error(const std::string& text) {
  Result<std::vector<Series>> r = ParsePrometheusResponse(text, "q.json");
  REQUIRE_FALSE(r.ok());
  return r.status().ToString();
}

TEST_CASE("a range query's series keep their metric name, sorted labels and samples",
          "[io][telemetry]") {
  Result<std::vector<Series>> r = ParsePrometheusResponse(
      Matrix(R"({"metric":{"pod":"a","__name__":"DCGM_FI_DEV_FB_USED","Hostname":"n1"},)"
             R"("values":[[1764201600,"20480"],[1764201660.5,"NaN"],[1764201720,"+Inf"],)"
             R"([1764201780,"-Inf"],[1764201840,"1.5e3"]]},)"
             R"({"metric":{"__name__":"up"},"values":[[1,"0.25"]]})"),
      "q.json");
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 2);
  const Series& s = r.value()[0];
  CHECK(s.metric == "DCGM_FI_DEV_FB_USED");
  CHECK(s.labels == Labels{{"Hostname", "n1"}, {"pod", "a"}});
  CHECK(s.Label("pod") == "a");
  CHECK_FALSE(s.Label("namespace").has_value());
  CHECK(s.file == "q.json");
  CHECK(s.pointer == "/data/result/0");
  CHECK(s.SamplePointer(3) == "/data/result/0/values/3/1");
  REQUIRE(s.samples.size() == 5);
  CHECK(s.samples[0].time == 1764201600);
  CHECK(s.samples[0].value == 20480);
  CHECK(s.samples[1].time == 1764201660.5);
  CHECK(std::isnan(s.samples[1].value));
  CHECK(s.samples[2].value == INFINITY);
  CHECK(s.samples[3].value == -INFINITY);
  CHECK(s.samples[4].value == 1500);
  CHECK(r.value()[1].samples[0].value == 0.25);
}

TEST_CASE("an instant query's vector gives one sample per series", "[io][telemetry]") {
  Result<std::vector<Series>> r = ParsePrometheusResponse(
      R"({"status":"success","data":{"resultType":"vector","result":[)"
      R"({"metric":{"__name__":"kube_pod_created","pod":"p"},"value":[1764208800,"1764201720"]}]},)"
      R"("warnings":["some samples were dropped"]})",
      "q.json");
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 1);
  CHECK(r.value()[0].instant);
  CHECK(r.value()[0].SamplePointer(0) == "/data/result/0/value/1");
  REQUIRE(r.value()[0].samples.size() == 1);
  CHECK(r.value()[0].samples[0].value == 1764201720);
}

TEST_CASE("a series without __name__ reads with an empty metric name", "[io][telemetry]") {
  Result<std::vector<Series>> r =
      ParsePrometheusResponse(Matrix(R"({"metric":{"pod":"a"},"values":[[1,"2"]]})"), "q.json");
  REQUIRE(r.ok());
  CHECK(r.value()[0].metric.empty());
}

TEST_CASE("an error response is reported with Prometheus's own message", "[io][telemetry]") {
  CHECK(
      Error(
          R"({"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected end"})") ==
      "q.json:/error: Prometheus answered with an error (bad_data): 1:5: parse error: unexpected "
      "end");
  CHECK(Error(R"({"status":"error"})") ==
        "q.json:/status: Prometheus answered with an error: (no message)");
  CHECK(Error(R"({"status":"partial","data":{}})") ==
        "q.json:/status: expected \"success\" or \"error\", got 'partial'");
}

TEST_CASE("a response's shape errors name the element's pointer", "[io][telemetry]") {
  CHECK(Error("[]") == "q.json: expected an object, got an array");
  CHECK(Error(R"({"data":{}})") == "q.json: missing required field 'status'");
  CHECK(Error(R"({"status":"success"})") == "q.json: missing required field 'data'");
  CHECK(Error(R"({"status":"success","data":{"resultType":"scalar","result":[1,"2"]}})") ==
        "q.json:/data/resultType: resultType 'scalar' holds no series; export a query that "
        "selects series (a range query gives a matrix, an instant query a vector)");
  CHECK(Error(R"({"status":"success","data":{"resultType":"matrix"}})") ==
        "q.json:/data: missing required field 'result'");
  CHECK(Error(R"({"status":"success","data":{"resultType":"matrix","result":{}}})") ==
        "q.json:/data/result: expected an array, got an object");
  CHECK(Error(Matrix(R"({"metric":{}})")) ==
        "q.json:/data/result/0: missing required field 'values'");
  CHECK(Error(Matrix(R"({"metric":{"pod":3},"values":[]})")) ==
        "q.json:/data/result/0/metric/pod: expected a string, got a number");
  CHECK(Error(Matrix(R"({"metric":{},"histograms":[]})")) ==
        "q.json:/data/result/0/histograms: native histogram samples are not read; export a "
        "gauge or a counter");
}

TEST_CASE("a bad sample is reported at its pointer", "[io][telemetry]") {
  auto sample_error = [](const std::string& values) {
    return Error(Matrix(R"({"metric":{"__name__":"m"},"values":[[1,"1"],)" + values + "]}"));
  };
  CHECK(sample_error(R"([2])") ==
        "q.json:/data/result/0/values/1: expected a [time, \"value\"] pair, got 1 elements");
  CHECK(sample_error(R"("2")") ==
        "q.json:/data/result/0/values/1: expected an array, got a string");
  CHECK(sample_error(R"([2,3])") ==
        "q.json:/data/result/0/values/1/1: expected a string, got a number");
  CHECK(sample_error(R"([-2,"3"])") == "q.json:/data/result/0/values/1/0: must be >= 0");
  CHECK(sample_error(R"([1764201600000,"3"])") ==
        "q.json:/data/result/0/values/1/0: must be <= 10000000000");
  CHECK(sample_error(R"([1,"3"])") ==
        "q.json:/data/result/0/values/1/0: time 1 is not after the sample before (1)");
  CHECK(sample_error(R"([2,"12abc"])") ==
        "q.json:/data/result/0/values/1/1: '12abc' is not a sample value (a number, NaN, +Inf "
        "or -Inf)");
  CHECK(sample_error(R"([2,"inf"])") ==
        "q.json:/data/result/0/values/1/1: 'inf' is not a sample value (a number, NaN, +Inf or "
        "-Inf)");
  CHECK(sample_error(R"([2,"1e999"])") ==
        "q.json:/data/result/0/values/1/1: '1e999' is not a sample value (a number, NaN, +Inf "
        "or -Inf)");
}

TEST_CASE("malformed JSON and unreadable files are errors naming the file", "[io][telemetry]") {
  Result<std::vector<Series>> r = ParsePrometheusResponse(R"({"status": )", "q.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kParseError);
  CHECK(r.status().location().file == "q.json");
  Result<std::vector<Series>> missing = LoadPrometheusFiles({"/nonexistent/q.json"});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().ToString().starts_with("/nonexistent/q.json: cannot read file"));
}

TEST_CASE("several response files give their series in file order", "[io][telemetry]") {
  const std::string dir = std::string(MIGSIM_SOURCE_DIR) + "/scenarios/telemetry/";
  Result<std::vector<Series>> r =
      LoadPrometheusFiles({dir + "kube_replicaset_owner.json", dir + "DCGM_FI_DEV_GPU_UTIL.json"});
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 4);
  CHECK(r.value()[0].metric == "kube_replicaset_owner");
  CHECK(r.value()[1].metric == "DCGM_FI_DEV_GPU_UTIL");
  CHECK(r.value()[3].file == dir + "DCGM_FI_DEV_GPU_UTIL.json");
  CHECK(r.value()[3].pointer == "/data/result/2");
}

}  // namespace
}  // namespace migsim::telemetry
