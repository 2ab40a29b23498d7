#include "sim/io/measurements_csv.h"

#include <catch2/catch.hpp>

namespace migsim {
namespace {

TEST_CASE("measured speeds become ratios to the model's full-size instance", "[io][calibrate]") {
  Result<std::vector<MeasuredPoint>> r = ParseMeasurements(
      "# comment\ngpu_model,kind,speed\nA100-40GB,1g.5gb,10\nA100-SXM4-40GB,7g.40gb,70\n", "m.csv");
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 1);  // the 7g row is the reference, not a point
  const MeasuredPoint& p = r.value()[0];
  CHECK(p.line == 3);
  CHECK(p.gpu_model == "A100-SXM4-40GB");
  CHECK(p.point.compute_share == Approx(1.0 / 7));
  CHECK(p.point.memory_share == Approx(1.0 / 8));
  CHECK(p.point.ratio == Approx(1.0 / 7));
}

TEST_CASE("a whole-GPU row is a reference scaled by the 7g instance's SMs", "[io][calibrate]") {
  Result<std::vector<MeasuredPoint>> r = ParseMeasurements(
      "gpu_model,kind,speed\nA100-SXM4-40GB,gpu,108\nA100-SXM4-40GB,1g.5gb,14\n", "m.csv");
  REQUIRE(r.ok());
  CHECK(r.value()[0].point.ratio == Approx(14.0 / 98));
}

TEST_CASE("bad measurement rows are errors at their line", "[io][calibrate]") {
  auto error = [](const std::string& body) {
    Result<std::vector<MeasuredPoint>> r =
        ParseMeasurements("gpu_model,kind,speed\n" + body, "m.csv");
    REQUIRE_FALSE(r.ok());
    return r.status().ToString();
  };
  CHECK(error("B300,gpu,1\n") == "m.csv:line 2: unknown GPU model 'B300'");
  CHECK(error("T4,1g.5gb,1\n") == "m.csv:line 2: '1g.5gb' is not gpu or a MIG profile of T4");
  CHECK(error("A100-SXM4-40GB,1g.5gb,fast\n") ==
        "m.csv:line 2: speed 'fast' is not a positive number");
  CHECK(error("A100-SXM4-40GB,1g.5gb\n") == "m.csv:line 2: expected 3 fields, got 2");
  CHECK(error("A100-SXM4-40GB,1g.5gb,3\n") ==
        "m.csv:line 2: no reference for A100-SXM4-40GB: add its full-size MIG profile or a "
        "'gpu' row");
  CHECK(ParseMeasurements("model,speed\n", "m.csv").status().ToString() ==
        "m.csv:line 1: expected the header 'gpu_model,kind,speed'");
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("measurement CSVs from spreadsheets parse: BOM, quotes, CRLF", "[io][calibrate]") {
  Result<std::vector<MeasuredPoint>> r = ParseMeasurements(
      "\xEF\xBB\xBFgpu_model,kind,speed\r\n\"A100-SXM4-40GB\",\"1g.5gb\",10\r\n"
      "A100-SXM4-40GB,7g.40gb,70\r\n",
      "m.csv");
  INFO((r.ok() ? "" : r.status().ToString()));
  REQUIRE(r.ok());
  CHECK(r.value()[0].point.ratio == Approx(1.0 / 7));
}

TEST_CASE("blank or indented-comment lines are skipped, an empty file says so", "[io][calibrate]") {
  Result<std::vector<MeasuredPoint>> r = ParseMeasurements(
      "gpu_model,kind,speed\n   \n  # the "
      "reference\nA100-40GB,7g.40gb,70\n\t\nA100-40GB,1g.5gb,10\n",
      "m.csv");
  REQUIRE(r.ok());
  CHECK(r.value()[0].line == 6);
  CHECK(ParseMeasurements("\n  \n", "m.csv").status().ToString() ==
        "m.csv:line 1: empty file: no header line");
  CHECK(LoadMeasurementsFile(MIGSIM_SOURCE_DIR).status().ToString() ==
        std::string(MIGSIM_SOURCE_DIR) +
            ": not a regular file (a directory); migsim reads scenarios, traces and configs from "
            "regular files");
}

TEST_CASE("two reference speeds for one model are an error, not the last one winning",
          "[io][calibrate]") {
  CHECK(ParseMeasurements("gpu_model,kind,speed\nA100-40GB,7g.40gb,70\nA100-40GB,1g.5gb,10\n"
                          "A100-40GB,7g.40gb,90\n",
                          "m.csv")
            .status()
            .ToString() ==
        "m.csv:line 4: A100-SXM4-40GB 7g.40gb is measured on line 2 already; "
        "give one reference speed");
}

TEST_CASE("a trailing comma or an infinite speed is an error", "[io][calibrate]") {
  auto error = [](const std::string& body) {
    return ParseMeasurements("gpu_model,kind,speed\n" + body, "m.csv").status().ToString();
  };
  CHECK(error("A100-SXM4-40GB,1g.5gb,3,\n") == "m.csv:line 2: expected 3 fields, got 4");
  CHECK(error("A100-SXM4-40GB,1g.5gb,inf\n") ==
        "m.csv:line 2: speed 'inf' is not a positive number");
}

}  // namespace
}  // namespace migsim
