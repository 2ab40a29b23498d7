#include "sim/cli/openb_flags.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <string_view>

#include "policies/gpu_share_scorers.h"
#include "sim/core/text.h"

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

Result<std::vector<uint64_t>> ParseSeeds(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("--seeds '" + text + "': " + why +
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

Result<std::vector<std::string>> CheckPolicies(const std::vector<std::string>& given) {
  const std::vector<std::string> known = GpuShareScorerNames();
  const bool all = std::find(given.begin(), given.end(), "all") != given.end();
  if (all && given.size() > 1) {
    return Status::InvalidArgument("--policy: 'all' already names every policy; give it "
                                   "alone or list policies");
  }
  if (given.empty() || all) return known;
  for (const std::string& p : given) {
    if (std::find(known.begin(), known.end(), p) == known.end()) {
      return Status::InvalidArgument("--policy: unknown policy '" + p + "' (valid: all, " +
                                     JoinNames(known) + ")");
    }
  }
  if (const auto twice = FirstRepeated(given); !twice.empty()) {
    return Status::InvalidArgument("--policy: '" + twice + "' is given twice");
  }
  return given;
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
