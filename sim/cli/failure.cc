#include "sim/cli/failure.h"

#include <iostream>

namespace migsim {

int Fail(const Status& status, int code) {
  std::cerr << "migsim: " << status.ToString() << "\n";
  return code;
}

}  // namespace migsim
