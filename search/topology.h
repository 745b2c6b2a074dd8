// The machine's topology (hwloc): packages, NUMA nodes, L3 groups, cores and their hardware
// threads, and where search threads go on it (docs/benchmarking.md, "Topology").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vblitz::search {

// One hardware thread (hwloc's PU) and what it belongs to; indices count from 0 in hwloc's
// logical order.
struct HardwareThread {
  int os_index = 0;  // the operating system's CPU number (what binding uses)
  int core = 0, package = 0, numa_node = 0, l3 = 0;
  int smt_rank = 0;  // 0 for a core's first hardware thread, 1 for its SMT sibling, ...
};

struct Topology {
  std::string source;  // "this machine", "synthetic: <description>" or "xml: <file>"
  int packages = 0, numa_nodes = 0, l3_groups = 0, cores = 0;
  std::vector<uint64_t> numa_memory;  // bytes per NUMA node (0 where hwloc does not know)
  std::vector<HardwareThread> threads;
  std::string synthetic;  // hwloc's synthetic description of this topology ("" if it has none)

  int hardware_threads() const { return int(threads.size()); }
  // "2 packages, 4 NUMA nodes, 16 L3 groups, 128 cores, 256 hardware threads (2 per core)".
  std::string summary() const;
};

// Loads a topology: "" for this machine, "synthetic:DESCRIPTION" (hwloc's synthetic syntax,
// e.g. "pack:2 numa:2 core:16 pu:2"), or "xml:FILE" (an lstopo/hwloc XML export). On failure
// returns nullopt and the reason in *error.
std::optional<Topology> load_topology(const std::string& spec, std::string* error = nullptr);

// This machine's topology, loaded once (a single package, core and thread when hwloc fails).
const Topology& machine_topology();

enum class Binding {
  kNone,   // threads go where the system puts them
  kCores,  // each thread on its own hardware thread: spread over packages and NUMA nodes, cores
           // before SMT siblings
  kAuto,   // kCores where the machine has more than one NUMA node, else kNone
};
bool parse_binding(const std::string& name, Binding& out);
const char* binding_name(Binding b);

// Binds the calling thread to the CPU with this operating-system number, or with -1 to every CPU
// the process started with. Returns the CPU it runs on afterwards, -1 when the system refused.
int bind_this_thread(int os_index);
// The number of CPUs the process was allowed to run on when it started (its affinity mask).
int usable_cpus();

// The index into topology.threads of the hardware thread for each of `count` search threads,
// or an empty list when the threads are not bound. Threads past the hardware threads wrap round.
std::vector<int> place_threads(const Topology& topology, int count, Binding binding);

// The NUMA node whose copy of the network each of `count` threads reads, given their placement
// (place_threads): its hardware thread's node where the threads are bound on a machine of
// several nodes; -1 (the one shared network) otherwise. A copy costs the network's size (197 KB
// at H=128) per node.
std::vector<int> network_nodes(const Topology& topology, const std::vector<int>& placement, int count);

// Spreads the pages of [memory, memory + bytes) over every NUMA node in turn (interleaved), on
// a machine of at least `min_nodes` nodes, before they are first touched. Returns true if the
// policy is set; false where there are fewer nodes, no hwloc, or the system refused.
bool interleave_over_nodes(void* memory, size_t bytes, int min_nodes = 2);

}  // namespace vblitz::search
