#include "sim/io/pod_list_csv.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace migsim {
namespace {

std::vector<PodListRow> Rows(const std::string& text) {
  Result<std::vector<PodListRow>> r = ParsePodList(text, "l.csv");
  if (!r.ok()) FAIL(r.status().ToString());
  return r.value();
}

std::string Error(const std::string& text) {
  Result<std::vector<PodListRow>> r = ParsePodList(text, "l.csv");
  REQUIRE_FALSE(r.ok());
  return r.status().ToString();
}

}  // namespace

TEST_CASE("a pod list row gives its time, template, optional run time and name", "[io][trace]") {
  const std::vector<PodListRow> rows =
      Rows("name, template ,at_s,run_s\r\njob-a,small,0,120\r\n\r\n,large,2.5,\r\n");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].line == 2);
  CHECK(rows[0].name == "job-a");
  CHECK(rows[0].tmpl == "small");
  CHECK(rows[0].at_s == 0);
  CHECK(rows[0].run_s == 120.0);
  CHECK(rows[1].line == 4);
  CHECK(rows[1].name.empty());
  CHECK(rows[1].at_s == 2.5);
  CHECK_FALSE(rows[1].run_s);
}

TEST_CASE("a pod list needs at_s and template, and no column it does not know",
          "[io][trace]") {
  CHECK(Rows("at_s,template\n1e3,x\n")[0].at_s == 1000);
  CHECK(Error("template,run_s\nx,1\n") == "l.csv:line 1: missing required columns: at_s");
  CHECK(Error("at_s,template,runs\n0,x,1\n") ==
        "l.csv:line 1: unknown column 'runs' (expected: at_s, template, run_s, name)");
  CHECK(Error("at_s,template,at_s\n0,x,1\n") == "l.csv:line 1: column 'at_s' appears twice");
  CHECK(Error("") == "l.csv:line 1: empty file: no header line");
}

TEST_CASE("a pod list rejects times that are not seconds in range, naming the line",
          "[io][trace]") {
  for (const char* bad : {"-1", "nan", "inf", "1e10", "12s", "", "0x10"}) {
    INFO(bad);
    CHECK(Error(std::string("at_s,template\n0,x\n") + bad + ",x\n") ==
          std::string("l.csv:line 3: at_s '") + bad +
              "' is not a number of seconds in 0..1000000000");
  }
  CHECK(Error("at_s,template,run_s\n0,x,-5\n") ==
        "l.csv:line 2: run_s '-5' is not a number of seconds in 0..1000000000");
  CHECK(Error("at_s,template\n0,\n") == "l.csv:line 2: template is empty");
  CHECK(Error("at_s,template\n0,x,y\n") == "l.csv:line 2: expected 2 fields, got 3");
}

}  // namespace migsim
