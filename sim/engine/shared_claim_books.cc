#include "sim/engine/shared_claim_books.h"

#include <utility>

namespace migsim {

SharedClaimBooks::SharedClaimBooks(std::vector<dra::SharedClaim> claims)
    : claims_(std::move(claims)), books_(claims_.size()) {
  states_.reserve(claims_.size());
  for (const dra::SharedClaim& c : claims_) states_.push_back({&c.claim, NodeId()});
}

std::vector<double> SharedClaimBooks::GpuHours(size_t namespaces, SimTime now) const {
  std::vector<double> hours(namespaces, 0);
  for (size_t c = 0; c < books_.size(); ++c) {
    const Book& book = books_[c];
    double seconds = book.gpu_seconds;
    if (states_[c].node.valid()) seconds += book.gpus * (now - book.allocated_at).seconds();
    if (seconds > 0) hours[static_cast<size_t>(book.namespace_index)] += seconds / 3600;
  }
  return hours;
}

}  // namespace migsim
