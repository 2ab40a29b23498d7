// The committed fuzz corpora (fuzz/corpus/<target>/: the repository's own files as seeds,
// and the reproducers of every finding) replayed through the fuzz targets' parsers, so
// that a finding fixed once stays fixed in every build, the sanitized one included.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_inputs.h"
#include "fuzz/plan_scenario.h"
#include "sim/io/plan_json.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

fs::path CorpusDir() { return fs::path(MIGSIM_SOURCE_DIR) / "fuzz" / "corpus"; }

std::vector<fs::path> FilesIn(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("every committed fuzz input is parsed to a value or to an error naming its file",
          "[fuzz]") {
  for (const fuzz::FuzzTarget& target : fuzz::FuzzTargets()) {
    const std::vector<fs::path> files = FilesIn(CorpusDir() / target.name);
    INFO(target.name);
    CHECK_FALSE(files.empty());
    for (const fs::path& file : files) {
      INFO(file.filename().string());
      CHECK(target.parse(Contents(file)) == "");
    }
  }
}

TEST_CASE("every fuzz corpus folder is the corpus of a fuzz target", "[fuzz]") {
  for (const fs::directory_entry& entry : fs::directory_iterator(CorpusDir())) {
    INFO(entry.path().filename().string());
    CHECK(fuzz::FindFuzzTarget(entry.path().filename().string()) != nullptr);
  }
}

TEST_CASE("the plan target's compiled-in scenario lets the repository's plan load", "[fuzz]") {
  const ReadTextFile read = [](const std::string& path) -> Result<std::string> {
    CHECK(path == "capacity-inference-mix.json");
    return std::string(fuzz::kPlanScenario);
  };
  const Result<PlanFile> plan =
      ParsePlanText(Contents(fs::path(MIGSIM_SOURCE_DIR) / "scenarios" / "plans" /
                             "capacity-inference-mix.plan.json"),
                    "plans/fuzz.json", read, NamedFiles::kRefused);
  if (!plan.ok()) FAIL(plan.status().ToString());
  CHECK(plan.value().configurations.size() >= 3);
}

}  // namespace migsim
