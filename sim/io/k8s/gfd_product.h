#pragma once
// GPU Feature Discovery's nvidia.com/gpu.product label taken apart:
// "<model>[-MIG-<profile>|-MIG-INVALID][-SHARED]" (k8s-device-plugin, internal/lm/resource.go,
// productLabel: the parts joined with '-', "SHARED" appended when the resource is
// time-sliced and not renamed; a node the single MIG strategy refuses is "-MIG-INVALID").

#include <string>
#include <string_view>

namespace migsim::k8s {

struct Product {
  std::string model;  // "NVIDIA-A100-SXM4-40GB"
  std::string mig;    // "": whole GPUs; "INVALID"; else a profile's resource suffix, "1g.5gb"
  bool shared = false;
};

// Product::mig of a node the single MIG strategy refuses.
inline constexpr std::string_view kInvalidMig = "INVALID";

Product ParseProduct(std::string text);

}  // namespace migsim::k8s
