#pragma once
// `migsim policies`: list the built-in scheduling policies and their parameters.

namespace migsim {

int PoliciesCommand();

}  // namespace migsim
