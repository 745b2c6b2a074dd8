// The topology through hwloc, and thread placement on it.
#include "search/topology.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "core/text.h"

#ifdef VBLITZ_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace vblitz::search {

namespace {

#ifdef VBLITZ_HAVE_HWLOC
struct TopologyDeleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using HwlocTopology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// The logical index of pu's ancestor of `type`, or 0 when it has none.
int ancestor_index(hwloc_topology_t topo, hwloc_obj_t pu, hwloc_obj_type_t type) {
  const hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(topo, type, pu);
  return a ? int(a->logical_index) : 0;
}

Topology describe(hwloc_topology_t topo, const std::string& source) {
  Topology t;
  t.source = source;
  t.packages = std::max(1, hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE));
  t.numa_nodes = std::max(1, hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE));
  t.l3_groups = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_L3CACHE);
  t.cores = std::max(1, hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE));
  for (int n = 0; n < hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE); ++n)
    t.numa_memory.push_back(
        hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, unsigned(n))->attr->numanode.local_memory);
  const int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  for (int i = 0; i < pus; ++i) {
    const hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, unsigned(i));
    HardwareThread h;
    h.os_index = int(pu->os_index);
    h.core = ancestor_index(topo, pu, HWLOC_OBJ_CORE);
    h.package = ancestor_index(topo, pu, HWLOC_OBJ_PACKAGE);
    h.l3 = ancestor_index(topo, pu, HWLOC_OBJ_L3CACHE);
    const hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
    h.smt_rank = core ? int(pu->sibling_rank) : 0;
    for (int n = 0; n < hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE); ++n) {
      const hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, unsigned(n));
      if (node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index)) {
        h.numa_node = n;
        break;
      }
    }
    t.threads.push_back(h);
  }
  char synthetic[1024];
  if (hwloc_topology_export_synthetic(topo, synthetic, sizeof synthetic, 0) > 0) t.synthetic = synthetic;
  return t;
}
#endif

}  // namespace

std::string Topology::summary() const {
  std::ostringstream out;
  out << packages << (packages == 1 ? " package, " : " packages, ") << numa_nodes
      << (numa_nodes == 1 ? " NUMA node, " : " NUMA nodes, ");
  if (l3_groups) out << l3_groups << (l3_groups == 1 ? " L3 group, " : " L3 groups, ");
  out << cores << (cores == 1 ? " core, " : " cores, ") << hardware_threads() << " hardware threads ("
      << (cores ? hardware_threads() / cores : 1) << " per core)";
  return out.str();
}

std::optional<Topology> load_topology(const std::string& spec, std::string* error) {
#ifndef VBLITZ_HAVE_HWLOC
  // Built without hwloc: this machine as one package of the hardware threads the system reports.
  if (!spec.empty()) {
    if (error) *error = "this build has no hwloc: only this machine's thread count is known";
    return std::nullopt;
  }
  Topology t;
  t.source = "this machine (no hwloc: thread count only)";
  t.packages = t.numa_nodes = 1;
  t.cores = int(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 0; i < t.cores; ++i) t.threads.push_back({i, i, 0, 0, 0, 0});
  return t;
#else
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    if (error) *error = "hwloc cannot start";
    return std::nullopt;
  }
  HwlocTopology topo(raw);
  std::string source = "this machine";
  int set = 0;
  if (spec.rfind("synthetic:", 0) == 0) {
    source = "synthetic: " + spec.substr(10);
    set = hwloc_topology_set_synthetic(raw, spec.substr(10).c_str());
  } else if (spec.rfind("xml:", 0) == 0) {
    source = "xml: " + spec.substr(4);
    set = hwloc_topology_set_xml(raw, spec.substr(4).c_str());
  } else if (!spec.empty()) {
    if (error) *error = "a topology is \"\", synthetic:DESCRIPTION or xml:FILE, not " + core::quote(spec);
    return std::nullopt;
  }
  if (set != 0 || hwloc_topology_load(raw) != 0) {
    if (error) *error = "hwloc cannot load the topology " + source;
    return std::nullopt;
  }
  Topology t = describe(raw, source);
  if (t.threads.empty()) {
    if (error) *error = "the topology " + source + " has no hardware threads";
    return std::nullopt;
  }
  return t;
#endif
}

const Topology& machine_topology() {
  static const Topology topology = [] {
    if (std::optional<Topology> t = load_topology("")) return *t;
    Topology one;
    one.source = "unknown (hwloc failed)";
    one.packages = one.numa_nodes = one.cores = 1;
    one.threads.push_back({});
    return one;
  }();
  return topology;
}

bool parse_binding(const std::string& name, Binding& out) {
  for (Binding b : {Binding::kNone, Binding::kCores, Binding::kAuto})
    if (name == binding_name(b)) {
      out = b;
      return true;
    }
  return false;
}

const char* binding_name(Binding b) {
  switch (b) {
    case Binding::kNone: return "none";
    case Binding::kCores: return "cores";
    case Binding::kAuto: return "auto";
  }
  return "none";
}

namespace {
// The CPUs the process may use, read at the first call: bind_this_thread calls it before it
// binds anything, and binding changes single threads' masks only.
const cpu_set_t& cpus_at_start() {
  static const cpu_set_t started_with = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) CPU_SET(0, &set);
    return set;
  }();
  return started_with;
}
}  // namespace

int usable_cpus() { return std::max(1, CPU_COUNT(&cpus_at_start())); }

int bind_this_thread(int os_index) {
  cpu_set_t set = cpus_at_start();
  if (os_index >= 0) {
    if (os_index >= CPU_SETSIZE) return -1;
    CPU_ZERO(&set);
    CPU_SET(os_index, &set);
  }
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) return -1;
  return sched_getcpu();
}

std::vector<int> network_nodes(const Topology& topology, const std::vector<int>& placement, int count) {
  std::vector<int> nodes(size_t(std::max(count, 0)), -1);
  if (topology.numa_nodes < 2 || placement.empty()) return nodes;
  for (int i = 0; i < count && i < int(placement.size()); ++i)
    nodes[size_t(i)] = topology.threads[size_t(placement[size_t(i)])].numa_node;
  return nodes;
}

bool interleave_over_nodes(void* memory, size_t bytes, int min_nodes) {
#ifdef VBLITZ_HAVE_HWLOC
  if (machine_topology().numa_nodes < min_nodes || !memory || !bytes) return false;
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return false;
  HwlocTopology topo(raw);
  if (hwloc_topology_load(raw) != 0) return false;
  return hwloc_set_area_membind(raw, memory, bytes, hwloc_topology_get_topology_nodeset(raw),
                                HWLOC_MEMBIND_INTERLEAVE, HWLOC_MEMBIND_BYNODESET) == 0;
#else
  (void)memory, (void)bytes, (void)min_nodes;
  return false;
#endif
}

std::vector<int> place_threads(const Topology& topology, int count, Binding binding) {
  if (binding == Binding::kAuto) binding = topology.numa_nodes > 1 ? Binding::kCores : Binding::kNone;
  if (binding == Binding::kNone || count <= 0 || topology.threads.empty()) return {};
  // The order threads take hardware threads in: every core's first hardware thread before any
  // SMT sibling; within one SMT rank, NUMA nodes in turn (the first node of each package, then
  // the second of each, ...), and within a node the L3 groups in turn.
  const auto& hw = topology.threads;
  std::map<int, int> core_in_l3, seen_in_l3, node_in_package, seen_in_package;
  for (const HardwareThread& h : hw)
    if (h.smt_rank == 0) core_in_l3[h.core] = seen_in_l3[h.l3]++;
  for (const HardwareThread& h : hw)
    if (!node_in_package.count(h.numa_node)) node_in_package[h.numa_node] = seen_in_package[h.package]++;
  std::vector<int> order;
  int max_rank = 0;
  for (const HardwareThread& h : hw) max_rank = std::max(max_rank, h.smt_rank);
  for (int rank = 0; rank <= max_rank; ++rank) {
    std::map<std::pair<int, int>, std::vector<int>> by_node;  // (node in package, package) -> threads
    for (int i = 0; i < int(hw.size()); ++i)
      if (hw[size_t(i)].smt_rank == rank)
        by_node[{node_in_package[hw[size_t(i)].numa_node], hw[size_t(i)].package}].push_back(i);
    for (auto& [node, list] : by_node)
      std::stable_sort(list.begin(), list.end(), [&](int a, int b) {
        const HardwareThread &x = hw[size_t(a)], &y = hw[size_t(b)];
        return std::pair(core_in_l3[x.core], x.l3) < std::pair(core_in_l3[y.core], y.l3);
      });
    for (size_t k = 0;; ++k) {
      bool any = false;
      for (auto& [node, list] : by_node)
        if (k < list.size()) {
          order.push_back(list[k]);
          any = true;
        }
      if (!any) break;
    }
  }
  std::vector<int> placed(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) placed[size_t(i)] = order[size_t(i) % order.size()];
  return placed;
}

}  // namespace vblitz::search
