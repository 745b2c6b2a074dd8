// The default network file, embedded at build time from eval/networks/ (eval/CMakeLists.txt).
#pragma once

#include <cstddef>

namespace vblitz::eval {
extern const unsigned char kDefaultNetworkBytes[];
extern const size_t kDefaultNetworkSize;
}  // namespace vblitz::eval
