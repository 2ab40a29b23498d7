#pragma once
// The example telemetry export of scenarios/telemetry/ (README "Telemetry export"), read and
// joined, for the tests of the telemetry readers.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/telemetry/telemetry_folder.h"

namespace migsim::telemetry {

// Every file of kTelemetryFiles is in the example folder: the folder reader reads them all.
inline PodObservations LoadExampleExport() {
  std::string notice;
  Result<PodObservations> pods = ReadTelemetryFolder(
      std::string(MIGSIM_SOURCE_DIR) + "/scenarios/telemetry", "telemetry", &notice);
  REQUIRE(pods.ok());
  REQUIRE_THAT(notice, Catch::StartsWith("telemetry: 9 files read (absent: none)"));
  return std::move(pods).value();
}

}  // namespace migsim::telemetry
