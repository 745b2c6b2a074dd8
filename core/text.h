// Small text helpers shared by every layer.
#pragma once

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace vblitz::core {

// `s` in lower case (ASCII), for case-insensitive names, options and moves.
inline std::string to_lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// The whole of `text` as a decimal integer in [lo, hi]; nullopt for anything else (empty, signs
// or digits followed by other characters, out of range), as command-line flags want.
inline std::optional<long> parse_long(const std::string& text, long lo, long hi) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE || v < lo || v > hi) return std::nullopt;
  return v;
}

}  // namespace vblitz::core
