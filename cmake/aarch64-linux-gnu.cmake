# Cross-compiling VBlitz for 64-bit ARM with Debian's cross toolchain and multiarch libraries
# (g++-aarch64-linux-gnu, libhwy-dev:arm64, libgtest-dev:arm64, libbenchmark-dev:arm64; see
# .ci/install-cross-deps.sh). Tests run under qemu-user; QEMU_CPU picks the emulated CPU, so
# one build is tested on NEON and on SVE at every vector length (docs/portability.md).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Libraries and packages from the arm64 multiarch paths; the header-only ones (nlohmann/json)
# are architecture-independent and live under /usr/share and /usr/include.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu)
set(CMAKE_PREFIX_PATH /usr/lib/aarch64-linux-gnu/cmake /usr/share/cmake)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# -L: where qemu finds the arm64 loader and shared libraries.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
