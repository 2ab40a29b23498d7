#include "sim/cli/openb_flags.h"

#include <algorithm>
#include <cstdio>

#include "policies/gpu_share_scorers.h"
#include "policies/registry.h"
#include "sim/io/policy_file.h"

namespace migsim {
namespace {

// The first name that occurs twice in `names`, or "".
std::string FirstRepeated(const std::vector<std::string>& names) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (std::find(names.begin() + static_cast<std::ptrdiff_t>(i) + 1, names.end(), names[i]) !=
        names.end()) {
      return names[i];
    }
  }
  return "";
}

// The six, "all", or any registry name: what CheckPolicies accepts.
bool KnownName(const std::string& name, const std::vector<std::string>& six) {
  return std::find(six.begin(), six.end(), name) != six.end() || FindPolicy(name) != nullptr;
}

}  // namespace

Result<std::vector<uint64_t>> ParseSeeds(const std::string& text) {
  return ParseSeedList(text, "--seeds");
}

Result<std::vector<std::string>> CheckPolicies(const std::vector<std::string>& given) {
  const std::vector<std::string> known = GpuShareScorerNames();
  const bool all = std::find(given.begin(), given.end(), "all") != given.end();
  if (all && given.size() > 1) {
    return Status::InvalidArgument(
        "--policy: 'all' already names every policy; give it "
        "alone or list policies");
  }
  if (given.empty() || all) return known;
  for (const std::string& p : given) {
    if (!KnownName(p, known)) return NamedFillPolicy(p, "--policy").status();
  }
  if (const auto twice = FirstRepeated(given); !twice.empty()) {
    return Status::InvalidArgument("--policy: '" + twice + "' is given twice");
  }
  return given;
}

Result<std::vector<FillPolicy>> ResolveFillPolicies(const std::vector<std::string>& names,
                                                    const std::vector<std::string>& files) {
  std::vector<FillPolicy> policies;
  if (!names.empty() || files.empty()) {
    Result<std::vector<std::string>> checked = CheckPolicies(names);
    if (!checked.ok()) return checked.status();
    for (const std::string& name : checked.value()) {
      Result<FillPolicy> p = NamedFillPolicy(name, "--policy");
      if (!p.ok()) return p.status();
      policies.push_back(std::move(p).value());
    }
  }
  std::vector<std::string> origins(policies.size(), "--policy");
  for (const std::string& file : files) {
    Result<LoadedPolicy> loaded = LoadPolicyFile(file);
    if (!loaded.ok()) return loaded.status();
    policies.push_back(SpecFillPolicy(loaded.value().spec, loaded.value().seeds_itself));
    origins.push_back("--policy-file " + file);
  }
  if (Status s = CheckUniqueLabels(policies, origins); !s.ok()) return s;
  return policies;
}

// The study's tune is 1.3; past 10 the top-up alone is ten times the cluster (and nan or
// inf would never stop).
Status CheckTune(double tune) {
  if (tune > 0 && tune <= 10) return Status::Ok();
  char got[32];
  std::snprintf(got, sizeof got, "%g", tune);
  return Status::InvalidArgument(std::string("--tune: must be in (0, 10], got ") + got);
}

}  // namespace migsim
