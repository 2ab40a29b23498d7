#include "sim/cli/validate_command.h"

#include <cstdio>

#include "sim/cli/failure.h"
#include "sim/io/document_kind.h"
#include "sim/io/input_file.h"
#include "sim/io/plan_json.h"
#include "sim/io/scenario_json.h"
#include "sim/io/sweep_json.h"
#include "sim/report/command_reports_json.h"
#include "sim/study/plan/plan_run.h"
#include "sim/study/scenario_facts.h"
#include "sim/study/study_facts.h"
#include "sim/study/sweep/sweep_run.h"

namespace migsim {
namespace {

int ValidateScenario(const std::string& path, const std::vector<std::string>& manifests,
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

// The notice `migsim sweep` and `migsim plan` give before they run (seeds that change
// nothing), on stderr as theirs; then the facts, as text or JSON.
void PrintStudy(const std::string& notice, const ValidatedFile& file, const std::string& text,
                const std::string& json) {
  if (!notice.empty()) std::fprintf(stderr, "migsim: %s\n", notice.c_str());
  if (!json.empty()) {
    std::fputs(json.c_str(), stdout);
    return;
  }
  std::printf("%s: valid. %s\n\n%s", file.path.c_str(), file.name.c_str(), text.c_str());
}

// LoadSweepFile, as `migsim sweep` checks its file: every point loaded and validated.
int ValidateSweep(const std::string& path, bool json) {
  Result<SweepFile> loaded = LoadSweepFile(path);
  if (!loaded.ok()) return Fail(loaded.status(), kBadInput);
  const SweepFile& sweep = loaded.value();
  const ValidatedFile file{sweep.path, sweep.name, sweep.description, {}};
  const SweepFacts facts = DescribeSweep(sweep);
  PrintStudy(SeedAxisChangesNothing(sweep), file, FormatSweepFacts(facts),
             json ? FormatValidateSweepJson(file, facts) : "");
  return 0;
}

// LoadPlanFile, as `migsim plan` checks its file: every configuration and patch loaded at
// one node and at max_nodes.
int ValidatePlan(const std::string& path, bool json) {
  Result<PlanFile> loaded = LoadPlanFile(path);
  if (!loaded.ok()) return Fail(loaded.status(), kBadInput);
  const PlanFile& plan = loaded.value();
  const ValidatedFile file{plan.path, plan.name, plan.description, {}};
  const PlanFacts facts = DescribePlan(plan);
  PrintStudy(PlanSeedsChangeNothing(plan), file, FormatPlanFacts(facts),
             json ? FormatValidatePlanJson(file, facts) : "");
  return 0;
}

}  // namespace

int ValidateCommand(const std::string& path, const std::vector<std::string>& manifests,
                    bool json) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return Fail(text.status(), kBadInput);
  Result<DocumentKind> kind = DocumentKindOf(text.value(), path);
  if (!kind.ok()) return Fail(kind.status(), kBadInput);
  if (kind.value() == DocumentKind::kScenario) return ValidateScenario(path, manifests, json);
  if (!manifests.empty()) {
    return Fail(Status::InvalidArgument(
                    "manifests go with a scenario file; this is a " +
                        std::string(DocumentKindName(kind.value())) +
                        " file (put them in the scenario it names)",
                    {path, ""}),
                kBadInput);
  }
  return kind.value() == DocumentKind::kSweep ? ValidateSweep(path, json)
                                              : ValidatePlan(path, json);
}

}  // namespace migsim
