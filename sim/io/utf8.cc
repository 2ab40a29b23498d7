#include "sim/io/utf8.h"

#include <cstdint>
#include <cstdio>

namespace migsim {

size_t FirstInvalidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t extra = 0;
    uint32_t code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, code = c & 0x07;
    } else {
      return i;
    }
    if (i + extra >= s.size()) return i;  // truncated sequence
    for (size_t k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(s[i + k]);
      if ((next & 0xC0) != 0x80) return i;
      code = (code << 6) | (next & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (code < kMin[extra] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return i;
    i += extra + 1;
  }
  return std::string_view::npos;
}

std::string ByteAtOffset(std::string_view s, size_t at) {
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(s[at]));
  return "byte " + std::string(byte) + " at byte offset " + std::to_string(at);
}

std::string NotUtf8Message(std::string_view s, size_t bad) {
  return "not valid UTF-8 (" + ByteAtOffset(s, bad) + ")";
}

}  // namespace migsim
