// What a result says about where it came from: the build (version, commit, compiler, flags)
// and the machine (CPU model, hardware threads, memory, SIMD targets). `vblitz --version` and
// the JSON results (app/json_report.h) print these.
#pragma once

#include <cstddef>
#include <string>

namespace vblitz::app {

struct BuildInfo {
  std::string version;     // "0.1.0"
  std::string commit;      // short hash, "-dirty" when built from a changed tree, or "unknown"
  std::string build_type;  // "Release", "Debug", ...
  std::string compiler;    // "gcc 12.2.0", "clang 14.0.6"
  std::string flags;       // the C++ flags of the build type and the -march baseline
};
BuildInfo build_info();

struct MachineInfo {
  std::string cpu_model;  // /proc/cpuinfo's "model name" (or "unknown")
  int hardware_threads = 1;
  size_t memory_mb = 0;  // physical memory
  std::string os;        // uname: system, release and machine
};
MachineInfo machine_info();

}  // namespace vblitz::app
