#pragma once
// `migsim policies`: list the built-in scheduling policies and their parameters.

namespace migsim {

// `json`: one JSON document (FormatPoliciesJson) instead of the text.
int PoliciesCommand(bool json = false);

}  // namespace migsim
