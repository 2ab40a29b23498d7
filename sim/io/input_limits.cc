#include "sim/io/input_limits.h"

#include <charconv>
#include <cstdio>
#include <limits>

#include "sim/core/text.h"

namespace migsim::io {
namespace {

// Set once, at a fuzz target's start or from the command line, before any reader runs
// (see the header).
InputLimits& Limits() {
  static InputLimits limits;
  return limits;
}

// Far above any default, below what int arithmetic on counts (sums of counts) can hold: a
// raised limit cannot make a count overflow.
constexpr int64_t kMostRaised = int64_t{1} << 40;
// A field's count (replicas, completions, count, max_replicas) is held as an int.
constexpr int64_t kMostPerField = std::numeric_limits<int32_t>::max();

// One limit by its name: where it lives and its largest value.
struct NamedLimit {
  std::string_view name;
  int64_t* value64 = nullptr;
  size_t* value_size = nullptr;
  int64_t most = kMostRaised;
};

std::vector<NamedLimit> NamedLimits(InputLimits& l) {
  return {{"pods-per-field", &l.pods_per_field, nullptr, kMostPerField},
          {"pods", &l.pods_per_scenario, nullptr},
          {"pods-with-retries", &l.pods_with_retries, nullptr},
          {"pods-per-file", &l.pods_per_file, nullptr},
          {"sweep-points", nullptr, &l.sweep_points},
          {"variants", &l.variants, nullptr},
          {"gpu-devices", &l.gpu_devices, nullptr},
          {"fault-events", &l.fault_events, nullptr},
          {"yaml-nodes", &l.yaml_nodes, nullptr},
          {"run-pods", &l.run_pods, nullptr}};
}

}  // namespace

const InputLimits& CurrentInputLimits() { return Limits(); }

void UseFuzzingInputLimits() {
  Limits() = InputLimits{.pods_per_field = 2000,
                         .pods_per_scenario = 10'000,
                         .pods_with_retries = 100'000,
                         .pods_per_file = 20'000,
                         .sweep_points = 20,
                         .variants = 50,
                         .gpu_devices = 20'000,
                         .fault_events = 10'000,
                         .yaml_nodes = 5'000,
                         .run_pods = 20'000};
}

void ResetInputLimits() { Limits() = InputLimits{}; }

std::vector<std::string> InputLimitNames() {
  std::vector<std::string> names;
  for (const NamedLimit& l : NamedLimits(Limits())) names.emplace_back(l.name);
  return names;
}

Status SetInputLimit(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  const std::string_view name = assignment.substr(0, eq);
  for (const NamedLimit& l : NamedLimits(Limits())) {
    if (l.name != name) continue;
    const std::string_view digits =
        eq == std::string_view::npos ? std::string_view() : assignment.substr(eq + 1);
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < 1 ||
        n > l.most) {
      return Status::InvalidArgument(std::string(assignment) + ": give " +
                                     std::string(name) + "=N, N an integer from 1 to " +
                                     std::to_string(l.most));
    }
    if (l.value64 != nullptr) *l.value64 = n;
    if (l.value_size != nullptr) *l.value_size = static_cast<size_t>(n);
    return Status::Ok();
  }
  return Status::InvalidArgument("no limit '" + std::string(name) + "' (limits: " +
                                 JoinNames(InputLimitNames()) + ")");
}

std::string RaiseHint(std::string_view name) {
  return " (raise it with --limit " + std::string(name) + "=N)";
}

std::string FormatCount(double count) {
  char text[32];
  if (count >= 1e6) {
    std::snprintf(text, sizeof text, "%.2g", count);
  } else {
    std::snprintf(text, sizeof text, "%.0f", count);
  }
  return text;
}

}  // namespace migsim::io
