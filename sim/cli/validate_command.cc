#include "sim/cli/validate_command.h"

#include <cstdio>

#include "sim/cli/failure.h"
#include "sim/io/scenario_json.h"
#include "sim/report/command_reports_json.h"
#include "sim/study/scenario_facts.h"

namespace migsim {

int ValidateCommand(const std::string& path, const std::vector<std::string>& manifests,
                    bool json) {
  Result<ScenarioFile> loaded = LoadScenarioFile(path, {.extra_manifests = manifests});
  if (!loaded.ok()) {
    return Fail(loaded.status(), kBadInput);
  }
  const ScenarioFile& file = loaded.value();
  if (json) {
    std::vector<VariantFacts> variants;
    for (const auto& [name, s] : file.variants) variants.push_back(DescribeVariant(name, s));
    std::fputs(FormatValidateJson({file.path, file.name, file.description, file.warnings}, variants)
                   .c_str(),
               stdout);
    return 0;
  }
  std::printf("%s: valid. %s\n", file.path.c_str(), file.name.c_str());
  if (!file.warnings.empty()) std::printf("\nmanifest fields migsim does not model:\n");
  for (const std::string& warning : file.warnings) {
    std::printf("  warning: %s\n", warning.c_str());
  }
  for (const auto& [name, s] : file.variants) {
    std::printf("\n%s", FormatVariantFacts(DescribeVariant(name, s)).c_str());
  }
  return 0;
}

}  // namespace migsim
