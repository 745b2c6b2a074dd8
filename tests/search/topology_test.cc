// Thread placement on topologies hwloc builds from synthetic descriptions of real machines and
// from XML exports of them: every core's first hardware thread before any SMT sibling, NUMA nodes
// and packages filled evenly, wrap-round past the hardware threads; XML and synthetic forms and
// this machine and its own synthetic description give the same placement.
#include "search/topology.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#ifdef VBLITZ_HAVE_HWLOC
#include <hwloc.h>
#endif

#include "tests/test_support.h"

namespace vblitz::search {
namespace {

#ifdef VBLITZ_HAVE_HWLOC

// Synthetic descriptions of machines people benchmark on.
const std::pair<const char*, const char*> kMachines[] = {
    {"2-socket AMD EPYC 7742, NPS4 (128 cores, 16 CCX a socket)", "pack:2 numa:4 l3:4 core:4 pu:2"},
    {"2-socket Intel Xeon 8380 (80 cores)", "pack:2 numa:1 l3:1 core:40 pu:2"},
    {"Ampere Altra Q80-30 (80 cores, no SMT)", "pack:1 numa:1 l3:1 core:80 pu:1"},
    {"4-socket Xeon, 2 sub-NUMA clusters a socket", "pack:4 numa:2 l3:1 core:12 pu:2"},
    {"desktop, 8 cores with SMT", "pack:1 numa:1 l3:1 core:8 pu:2"},
};
const int kThreadCounts[] = {1, 2, 8, 64, 256};

Topology load(const std::string& spec) {
  std::string error;
  const std::optional<Topology> t = load_topology(spec, &error);
  EXPECT_TRUE(t) << spec << ": " << error;
  return t ? *t : Topology();
}

// Writes the synthetic topology as hwloc XML (what `lstopo out.xml` writes on a real machine).
std::string export_xml(const std::string& synthetic, const std::string& path) {
  hwloc_topology_t topo;
  hwloc_topology_init(&topo);
  hwloc_topology_set_synthetic(topo, synthetic.c_str());
  hwloc_topology_load(topo);
  EXPECT_EQ(hwloc_topology_export_xml(topo, path.c_str(), 0), 0) << path;
  hwloc_topology_destroy(topo);
  return "xml:" + path;
}

TEST(Topology, SyntheticMachinesAreDescribedAsBuilt) {
  const Topology epyc = load(std::string("synthetic:") + kMachines[0].second);
  EXPECT_EQ(epyc.packages, 2);
  EXPECT_EQ(epyc.numa_nodes, 8);
  EXPECT_EQ(epyc.l3_groups, 32);
  EXPECT_EQ(epyc.cores, 128);
  EXPECT_EQ(epyc.hardware_threads(), 256);
  EXPECT_EQ(epyc.summary(),
            "2 packages, 8 NUMA nodes, 32 L3 groups, 128 cores, 256 hardware threads (2 per core)");
  std::set<int> os;
  for (const HardwareThread& h : epyc.threads) os.insert(h.os_index);
  EXPECT_EQ(os.size(), 256u);
  std::string error;
  EXPECT_FALSE(load_topology("synthetic:pack:2 frobnicate:3", &error));
  EXPECT_NE(error.find("cannot load"), std::string::npos) << error;
  EXPECT_FALSE(load_topology("numa:4", &error));
  EXPECT_NE(error.find("synthetic:DESCRIPTION"), std::string::npos) << error;
}

TEST(Topology, ThreadsSpreadOverPackagesAndNodesCoresBeforeSiblings) {
  int checked = 0;
  for (const auto& [name, synthetic] : kMachines) {
    const Topology t = load(std::string("synthetic:") + synthetic);
    const int hw = t.hardware_threads();
    for (int count : kThreadCounts) {
      EXPECT_TRUE(place_threads(t, count, Binding::kNone).empty());
      const std::vector<int> placed = place_threads(t, count, Binding::kCores);
      ASSERT_EQ(int(placed.size()), count) << name;
      std::map<int, int> uses, per_node, per_package;
      std::set<int> cores;
      for (int i = 0; i < count; ++i) {
        const HardwareThread& h = t.threads[size_t(placed[size_t(i)])];
        ++uses[placed[size_t(i)]];
        if (i < std::min(count, t.cores)) {
          EXPECT_EQ(h.smt_rank, 0) << name << ", thread " << i << " of " << count;
          EXPECT_TRUE(cores.insert(h.core).second) << name << ": core " << h.core << " twice";
          ++per_node[h.numa_node];
          ++per_package[h.package];
        }
      }
      // Each hardware thread used floor or ceil(count / hw) times: none twice before all once.
      for (const auto& [index, n] : uses) EXPECT_LE(n, (count + hw - 1) / hw) << name;
      if (count >= hw) {
        EXPECT_EQ(int(uses.size()), hw) << name;
      }
      // The first threads (up to one a core) fill NUMA nodes and packages evenly.
      const int spread = std::min(count, t.cores);
      for (const auto& [node, n] : per_node)
        EXPECT_LE(n, (spread + t.numa_nodes - 1) / t.numa_nodes) << name << ", node " << node;
      for (const auto& [package, n] : per_package)
        EXPECT_LE(n, (spread + t.packages - 1) / t.packages) << name << ", package " << package;
      EXPECT_EQ(int(per_node.size()), std::min(spread, t.numa_nodes)) << name << ", " << count;
      // auto binds where the machine has more than one NUMA node.
      EXPECT_EQ(place_threads(t, count, Binding::kAuto), t.numa_nodes > 1 ? placed : std::vector<int>())
          << name;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 25);
}

// Each thread reads the network copy of the NUMA node its hardware thread is on, where the
// threads are bound on a machine of several nodes; otherwise all read the one shared network.
// Placed threads spread over the nodes, so T threads use min(T, nodes) copies.
TEST(Topology, EachBoundThreadReadsItsNodesNetworkCopy) {
  int checked = 0;
  for (const auto& [name, synthetic] : kMachines) {
    const Topology t = load(std::string("synthetic:") + synthetic);
    for (int count : kThreadCounts) {
      const std::vector<int> placed = place_threads(t, count, Binding::kCores);
      const std::vector<int> nodes = network_nodes(t, placed, count);
      ASSERT_EQ(int(nodes.size()), count) << name;
      std::set<int> copies;
      for (int i = 0; i < count; ++i) {
        const int expected = t.numa_nodes > 1 ? t.threads[size_t(placed[size_t(i)])].numa_node : -1;
        EXPECT_EQ(nodes[size_t(i)], expected) << name << ", thread " << i << " of " << count;
        copies.insert(nodes[size_t(i)]);
      }
      EXPECT_EQ(int(copies.size()), t.numa_nodes > 1 ? std::min(count, t.numa_nodes) : 1)
          << name << ", " << count;
      // Unbound threads share the one network.
      EXPECT_EQ(network_nodes(t, place_threads(t, count, Binding::kNone), count),
                std::vector<int>(size_t(count), -1));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 25);
}

// The table's pages are interleaved over the nodes where there are several; here (one node) the
// mechanism is checked by asking for it on one node and reading the policy back from the kernel.
TEST(Topology, InterleavingSetsThePolicyTheKernelReportsBack) {
  const size_t bytes = size_t(4) << 20;
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  EXPECT_EQ(interleave_over_nodes(memory, bytes), machine_topology().numa_nodes > 1);
  errno = 0;
  const bool set = interleave_over_nodes(memory, bytes, 1);
  if (!set && (errno == EPERM || errno == ENOSYS)) {  // a container that forbids mbind
    munmap(memory, bytes);
    GTEST_SKIP() << "the system refuses memory policies: " << std::strerror(errno);
  }
  ASSERT_TRUE(set) << std::strerror(errno);
  hwloc_topology_t topo;
  ASSERT_EQ(hwloc_topology_init(&topo), 0);
  ASSERT_EQ(hwloc_topology_load(topo), 0);
  hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
  hwloc_membind_policy_t policy = HWLOC_MEMBIND_DEFAULT;
  ASSERT_EQ(hwloc_get_area_membind(topo, memory, bytes, nodes, &policy, HWLOC_MEMBIND_BYNODESET), 0);
  EXPECT_EQ(policy, HWLOC_MEMBIND_INTERLEAVE);
  EXPECT_TRUE(hwloc_bitmap_isequal(nodes, hwloc_topology_get_topology_nodeset(topo)));
  hwloc_bitmap_free(nodes);
  hwloc_topology_destroy(topo);
  munmap(memory, bytes);
}

TEST(Topology, XmlExportsAndSyntheticDescriptionsPlaceAlike) {
  for (const auto& [name, synthetic] : kMachines) {
    const Topology from_synthetic = load(std::string("synthetic:") + synthetic);
    const std::string path = vblitz::test::temp_dir() + "/vblitz_topology.xml";
    const Topology from_xml = load(export_xml(synthetic, path));
    std::remove(path.c_str());
    EXPECT_EQ(from_xml.summary(), from_synthetic.summary()) << name;
    for (int count : kThreadCounts)
      EXPECT_EQ(place_threads(from_xml, count, Binding::kCores),
                place_threads(from_synthetic, count, Binding::kCores))
          << name << ", " << count << " threads";
  }
}

TEST(Topology, ThisMachineAndItsSyntheticDescriptionPlaceAlike) {
  const Topology here = load("");
  ASSERT_FALSE(here.synthetic.empty());
  const Topology described = load("synthetic:" + here.synthetic);
  EXPECT_EQ(described.summary(), here.summary());
  for (int count : kThreadCounts) {
    const std::vector<int> a = place_threads(here, count, Binding::kCores),
                           b = place_threads(described, count, Binding::kCores);
    ASSERT_EQ(a.size(), b.size());
    // The same cores and SMT ranks in the same order (operating-system numbers may differ).
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(here.threads[size_t(a[i])].core, described.threads[size_t(b[i])].core) << count;
      EXPECT_EQ(here.threads[size_t(a[i])].smt_rank, described.threads[size_t(b[i])].smt_rank) << count;
    }
  }
}

#else

TEST(Topology, WithoutHwlocThisMachineIsOnePackage) {
  const std::optional<Topology> here = load_topology("");
  ASSERT_TRUE(here);
  EXPECT_EQ(here->packages, 1);
  EXPECT_TRUE(place_threads(*here, 4, Binding::kAuto).empty());
  EXPECT_FALSE(load_topology("synthetic:pack:2 core:2 pu:1"));
}

#endif

TEST(Topology, BindingNamesRoundTrip) {
  for (Binding b : {Binding::kNone, Binding::kCores, Binding::kAuto}) {
    Binding parsed = Binding::kNone;
    EXPECT_TRUE(parse_binding(binding_name(b), parsed));
    EXPECT_EQ(parsed, b);
  }
  Binding parsed;
  EXPECT_FALSE(parse_binding("numa", parsed));
}

}  // namespace
}  // namespace vblitz::search
