// Build and machine descriptions.
#include "app/build_info.h"

#include <sys/utsname.h>

#include <fstream>
#include <thread>

#include "search/tt.h"
#include "vblitz_commit.h"

namespace vblitz::app {

BuildInfo build_info() {
  BuildInfo b;
  b.version = VBLITZ_VERSION;
  b.commit = VBLITZ_COMMIT;
  b.build_type = VBLITZ_BUILD_TYPE;
#if defined(__clang__)
  b.compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
  b.compiler = "gcc " __VERSION__;
#else
  b.compiler = "unknown";
#endif
  b.flags = VBLITZ_CXX_FLAGS;
  return b;
}

namespace {

// The value of the first "model name" line of /proc/cpuinfo, or "unknown".
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const size_t start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

}  // namespace

MachineInfo machine_info() {
  MachineInfo m;
  m.cpu_model = cpu_model();
  m.hardware_threads = std::max(1u, std::thread::hardware_concurrency());
  m.memory_mb = search::physical_memory_megabytes();
  utsname names{};
  if (uname(&names) == 0) m.os = std::string(names.sysname) + ' ' + names.release + ' ' + names.machine;
  return m;
}

}  // namespace vblitz::app
