#pragma once
// A 64-bit digest of bytes (FNV-1a): cheap, deterministic across machines and builds, for
// telling whether two texts or definitions are the same — not for security.

#include <cstdint>
#include <string_view>

namespace migsim {

inline constexpr uint64_t kFnvOffset = 14695981039346656037ull;

// The FNV-1a 64 digest of `bytes`, continued from `digest` (kFnvOffset to start), so that
// several pieces can be digested in turn.
inline uint64_t Fnv1a64(std::string_view bytes, uint64_t digest = kFnvOffset) {
  for (const char c : bytes) digest = (digest ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return digest;
}

}  // namespace migsim
