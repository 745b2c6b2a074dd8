// Small text helpers shared by every layer.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace vblitz::core {

// `s` in lower case (ASCII), for case-insensitive names, options and moves.
inline std::string to_lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

}  // namespace vblitz::core
