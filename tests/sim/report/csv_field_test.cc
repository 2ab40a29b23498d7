#include "sim/report/csv_field.h"

#include <catch2/catch.hpp>

namespace migsim {
namespace {

TEST_CASE("a CSV field is quoted only when it holds a comma, a quote or a line break",
          "[io][csv]") {
  CHECK(CsvField("p4d-mig") == "p4d-mig");
  CHECK(CsvField("") == "");
  CHECK(CsvField("a,b") == "\"a,b\"");
  CHECK(CsvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(CsvField("two\nlines") == "\"two\nlines\"");
  CHECK(CsvField("cr\r") == "\"cr\r\"");
}

}  // namespace
}  // namespace migsim
