// Reading whole files for the loaders a user can point anywhere (books, networks, parameters).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace vblitz::core {

// Reads the regular file `path` whole into `contents` if it holds at most `max_bytes`.
// Otherwise returns why not (missing, not a regular file such as a directory or /dev/zero, too
// large, unreadable, or not enough memory) and leaves `contents` unchanged.
std::optional<std::string> read_file(const std::string& path, uintmax_t max_bytes, std::string& contents);

// A 64-bit fingerprint of a regular file's size and bytes (FNV-1a), to tell whether two
// processes see the same file; 0 when it cannot be read.
uint64_t file_fingerprint(const std::string& path);

// Why `path` cannot be read as an input file, or nothing: missing, or not a regular file (a
// directory, a device such as /dev/zero, a pipe), which would be read without end.
std::optional<std::string> check_input_file(const std::string& path);

}  // namespace vblitz::core
