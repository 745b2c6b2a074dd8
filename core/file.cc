#include "core/file.h"

#include <filesystem>
#include <fstream>
#include <new>
#include <system_error>

#include "core/text.h"

namespace vblitz::core {

std::optional<std::string> check_input_file(const std::string& path) {
  const std::string quoted = quote(path);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return "cannot read " + quoted;
  if (!std::filesystem::is_regular_file(status)) return quoted + " is not a regular file";
  return std::nullopt;
}

uint64_t file_fingerprint(const std::string& path) {
  if (check_input_file(path)) return 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return 0;
  uint64_t hash = 0xcbf29ce484222325ULL, size = 0;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const std::streamsize n = in.gcount();
    for (std::streamsize i = 0; i < n; ++i) hash = (hash ^ uint8_t(buffer[i])) * 0x100000001b3ULL;
    size += uint64_t(n);
  }
  return (hash ^ size) | 1;  // never 0
}

std::optional<std::string> read_file(const std::string& path, uintmax_t max_bytes, std::string& contents) {
  const std::string quoted = quote(path);
  if (auto error = check_input_file(path)) return error;
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return "cannot read " + quoted + ": " + ec.message();
  if (size > max_bytes)
    return quoted + " is too large: " + std::to_string(size) + " bytes, at most " + std::to_string(max_bytes);
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read " + quoted;
  std::string bytes;
  try {
    bytes.resize(size_t(size));
  } catch (const std::bad_alloc&) {
    return "not enough memory to read " + quoted + " (" + std::to_string(size) + " bytes)";
  }
  // A file that shrank while it was read is reported; one that grew is read to its old size.
  if (!in.read(bytes.data(), std::streamsize(size)))
    return "cannot read " + quoted + ": it changed while read";
  contents = std::move(bytes);
  return std::nullopt;
}

}  // namespace vblitz::core
