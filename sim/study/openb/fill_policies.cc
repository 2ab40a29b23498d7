#include "sim/study/openb/fill_policies.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include "policies/gpu_share_scorers.h"
#include "policies/registry.h"
#include "sim/core/text.h"

namespace migsim {
namespace {

// More runs than anyone means to ask for: a typo such as 1-1000000000 is an error, not
// hours of work.
constexpr size_t kMaxSeeds = 10000;

// A decimal seed: digits only, within uint64.
std::optional<uint64_t> ParseSeed(std::string_view s) {
  uint64_t v = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::vector<FillPolicy> ExactFillPolicies(const std::vector<std::string>& names) {
  std::vector<FillPolicy> policies;
  for (const std::string& name : names) policies.push_back({name});
  return policies;
}

FillPolicy SpecFillPolicy(const PolicySpec& spec, bool seeds_itself) {
  FillPolicy policy{.label = spec.label(), .one_thread = !spec.library.empty()};
  policy.make = [spec, seeds_itself](uint64_t seed) {
    PolicySpec run = spec;
    if (!seeds_itself) SeedPolicyStream(&run, seed);
    return MakePolicy(run);
  };
  return policy;
}

std::vector<std::string> FillPolicyLabels(const std::vector<FillPolicy>& policies) {
  std::vector<std::string> labels;
  for (const FillPolicy& p : policies) labels.push_back(p.label);
  return labels;
}

Result<FillPolicy> NamedFillPolicy(const std::string& name, const std::string& what) {
  const std::vector<std::string> six = GpuShareScorerNames();
  if (std::find(six.begin(), six.end(), name) != six.end()) return FillPolicy{name};
  const PolicyInfo* info = FindPolicy(name);
  if (info == nullptr) {
    return Status::InvalidArgument(what + ": unknown policy '" + name + "' (valid: all, " +
                                   JoinNames(PolicyNames()) +
                                   "; or a policy object in a --policy-file)");
  }
  for (const ParamSpec& p : info->params) {
    if (p.required) {
      return Status::InvalidArgument(what + ": policy '" + name + "' needs params." + p.name +
                                     ": give it in a --policy-file");
    }
  }
  return SpecFillPolicy(WithDefaults(PolicySpec{.name = name}), false);
}

Status CheckUniqueLabels(const std::vector<FillPolicy>& policies,
                         const std::vector<std::string>& origins) {
  for (size_t i = 0; i < policies.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (policies[j].label == policies[i].label) {
        return Status::InvalidArgument("two policies are labelled '" + policies[i].label + "' (" +
                                       origins[j] + " and " + origins[i] +
                                       "): results name policies by label");
      }
    }
  }
  return Status::Ok();
}

Result<std::vector<uint64_t>> ParseSeedList(const std::string& text, const std::string& what) {
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(what + " '" + text + "': " + why +
                                   " (expected e.g. '42-51' or '1,2,3')");
  };
  std::vector<uint64_t> seeds;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = std::string_view(text).substr(start, comma - start);
    const size_t dash = item.find('-');
    const std::optional<uint64_t> lo = ParseSeed(item.substr(0, dash));
    const std::optional<uint64_t> hi =
        dash == std::string_view::npos ? lo : ParseSeed(item.substr(dash + 1));
    if (!lo || !hi) return bad("'" + std::string(item) + "' is not a seed or a range lo-hi");
    if (*hi < *lo) return bad("the range " + std::string(item) + " is empty");
    if (*hi - *lo >= kMaxSeeds || seeds.size() + (*hi - *lo) >= kMaxSeeds) {
      return bad("more than " + std::to_string(kMaxSeeds) + " seeds");
    }
    for (uint64_t s = *lo;; ++s) {
      seeds.push_back(s);
      if (s == *hi) break;
    }
    start = comma + 1;
  }
  std::vector<uint64_t> sorted = seeds;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end()) {
    return bad("seed " + std::to_string(*twice) + " is given twice");
  }
  return seeds;
}

}  // namespace migsim
