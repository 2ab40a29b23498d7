#pragma once
// `migsim job-classes`: list the built-in job classes, their speeds and their sources.

namespace migsim {

int JobClassesCommand();

}  // namespace migsim
