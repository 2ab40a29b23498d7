#include "sim/io/k8s/gfd_product.h"

#include <utility>

namespace migsim::k8s {
namespace {

constexpr std::string_view kSharedSuffix = "-SHARED";
constexpr std::string_view kMigPart = "-MIG-";

}  // namespace

Product ParseProduct(std::string text) {
  Product p;
  if (text.ends_with(kSharedSuffix)) {
    p.shared = true;
    text.resize(text.size() - kSharedSuffix.size());
  }
  if (const size_t m = text.rfind(kMigPart); m != std::string::npos) {
    p.mig = text.substr(m + kMigPart.size());
    text.resize(m);
  }
  p.model = std::move(text);
  return p;
}

}  // namespace migsim::k8s
