#pragma once
// Internal to sim/io/k8s: the times Kubernetes objects carry (metav1.Time, written as RFC 3339
// in UTC: "2025-11-27T00:02:00Z"; apimachinery's Time.MarshalJSON uses time.RFC3339) as Unix
// seconds, for the observed run times of `migsim import`.

#include <optional>
#include <string>
#include <string_view>

namespace migsim::k8s {

// "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)" as Unix seconds; nullopt for any other
// text, or a date or time out of range (month 13, hour 24, February 30).
std::optional<double> ParseRfc3339(std::string_view text);

// Unix seconds as "YYYY-MM-DDTHH:MM:SSZ" (fractions dropped).
std::string FormatRfc3339(double unix_s);

}  // namespace migsim::k8s
