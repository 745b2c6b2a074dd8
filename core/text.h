// Small text helpers shared by every layer.
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// `text` in single quotes for a message that names or refuses it: at most `max` characters,
// each byte outside printable ASCII shown as \xNN, and when cut, "..." and its length in bytes:
// quote("e2e4") is 'e2e4'; a 1 MB token gives its first 80 characters and "...' (1048576 bytes)".
inline std::string quote(std::string_view text, size_t max = 80) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string r = "'";
  size_t taken = 0, shown = 0;
  for (; taken < text.size(); ++taken) {
    const auto c = static_cast<unsigned char>(text[taken]);
    const bool printable = c >= 0x20 && c < 0x7f;
    const size_t width = printable ? 1 : 4;
    if (shown + width > max) break;
    if (printable) {
      r += char(c);
    } else {
      r += "\\x";
      r += kHex[c >> 4];
      r += kHex[c & 15];
    }
    shown += width;
  }
  if (taken < text.size()) return r + "...' (" + std::to_string(text.size()) + " bytes)";
  return r + "'";
}

// The whole of `text` as a finite decimal number in [lo, hi]; nullopt for anything else ("",
// "nan", "inf", "0.5abc", out of range), as command-line flags want.
inline std::optional<double> parse_double(const std::string& text, double lo, double hi) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v) || v < lo || v > hi) return std::nullopt;
  return v;
}

// Reads a command's arguments of the form FIRST --flag value --flag value ...: FIRST (which may
// not start with "--") into `first`, then `take(flag, value)` for each pair, which returns an
// error or nullopt. Returns the first error: `missing_first`, a flag without a value, or take's.
using FlagTaker =
    std::function<std::optional<std::string>(const std::string& flag, const std::string& value)>;
inline std::optional<std::string> parse_flag_pairs(const std::vector<std::string>& args,
                                                   const std::string& missing_first, std::string& first,
                                                   const FlagTaker& take) {
  if (args.empty() || args[0].rfind("--", 0) == 0) return missing_first;
  first = args[0];
  for (size_t i = 1; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return args[i] + " needs a value";
    if (auto error = take(args[i], args[i + 1])) return error;
  }
  return std::nullopt;
}

}  // namespace vblitz::core
