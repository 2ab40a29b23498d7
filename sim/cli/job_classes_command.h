#pragma once
// `migsim job-classes`: list the built-in job classes, their speeds and their sources.

namespace migsim {

// `json`: one JSON document (FormatJobClassesJson) instead of the text.
int JobClassesCommand(bool json = false);

}  // namespace migsim
