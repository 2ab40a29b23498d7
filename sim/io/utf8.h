#pragma once
// UTF-8 validity: every text migsim reads must be UTF-8, since names and messages taken from
// it end up in JSON outputs and terminals.

#include <cstddef>
#include <string>
#include <string_view>

namespace migsim {

// The offset of the first byte of the first sequence in `s` that is not well-formed UTF-8
// (an invalid or truncated sequence, an overlong form, a surrogate, a code point past
// U+10FFFF), or std::string_view::npos when all of `s` is UTF-8 (ASCII included).
size_t FirstInvalidUtf8(std::string_view s);

// "byte 0xc7 at byte offset 29": the byte of `s` at `at`, for messages. REQUIRES: at < s.size().
std::string ByteAtOffset(std::string_view s, size_t at);

// "not valid UTF-8 (byte 0xc7 at byte offset 29)": the message for the first invalid
// sequence of `s`, which starts at `bad`. REQUIRES: bad < s.size().
std::string NotUtf8Message(std::string_view s, size_t bad);

// True when `s` is well-formed UTF-8.
inline bool IsValidUtf8(std::string_view s) {
  return FirstInvalidUtf8(s) == std::string_view::npos;
}

}  // namespace migsim
