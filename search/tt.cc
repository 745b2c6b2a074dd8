// Transposition table storage, indexing and replacement.
#include "search/tt.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "search/topology.h"
#include "simd/tt_probe.h"

namespace vblitz::search {

namespace {
constexpr size_t kCrayPadding = 7 * 1024;      // the cray layout reaches 7 strides of up to 1024 past base
constexpr size_t kHugePage = size_t(2) << 20;  // x86-64 and arm64 transparent huge pages
constexpr int kDraftOffset = -TranspositionTable::kMinDepth + 1;
}  // namespace

void TranspositionTable::Unmap::operator()(std::atomic<uint64_t>* p) const { munmap(p, bytes); }

namespace {

// A fresh zeroed anonymous mapping of `bytes` (a multiple of kHugePage) starting on a
// kHugePage boundary and advised to the kernel as transparent huge pages; nullptr if the memory
// cannot be had. A mapping of its own, not malloc's: memory malloc reuses keeps its small pages.
void* map_on_huge_pages(size_t bytes) {
  const size_t span = bytes + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t first = uintptr_t(raw), start = (first + kHugePage - 1) / kHugePage * kHugePage;
  const uintptr_t end = start + bytes, last = first + span;
  if (start > first) munmap(raw, start - first);
  if (last > end) munmap(reinterpret_cast<void*>(end), last - end);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);  // a hint: small pages otherwise
#endif
  // On a machine of several NUMA nodes every thread probes everywhere: the pages go to the
  // nodes in turn rather than all to the node of the thread that clears the table.
  interleave_over_nodes(reinterpret_cast<void*>(start), bytes);
  return reinterpret_cast<void*>(start);
}

}  // namespace

size_t physical_memory_megabytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? size_t(pages) / (size_t(1 << 20) / size_t(page_size)) : SIZE_MAX;
}

bool TranspositionTable::resize(size_t megabytes) {
  // More than the machine has would be granted lazily and end in the kernel's OOM killer when
  // the table is cleared: refused instead, keeping the current table.
  if (megabytes == 0 || megabytes >= physical_memory_megabytes()) return false;
  size_t slots = (megabytes << 20) / sizeof(uint64_t) / simd::kBucketSlots * simd::kBucketSlots;
  size_t bytes = (slots + kCrayPadding) * sizeof(uint64_t);
  // Whole 2 MB pages, offered to the kernel as transparent huge pages: a probe's address then
  // needs one TLB entry per 2 MB instead of per 4 KB. Measured with Hash 1024: 13% more nodes
  // per second; at 16 MB, which the L3 cache holds, within the noise.
  bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* memory = map_on_huge_pages(bytes);
  if (!memory) return false;
  entries_ = decltype(entries_)(static_cast<std::atomic<uint64_t>*>(memory), Unmap{bytes});
  slots_ = slots;
  megabytes_ = megabytes;
  clear();
  return true;
}

void TranspositionTable::set_layout(Layout layout) {
  layout_ = layout;
  clear();
}

void TranspositionTable::clear() {
  std::memset(static_cast<void*>(entries_.get()), 0, (slots_ + kCrayPadding) * sizeof(uint64_t));
  age_.store(0, std::memory_order_relaxed);
}

uint64_t TranspositionTable::base_index(core::Key key) const {
  // The key's high bits pick the place (any table size, no power of two needed); its low
  // 16 bits are the check stored in the entry.
  if (layout_ == Layout::kBucket)
    return uint64_t((unsigned __int128)key * (slots_ / simd::kBucketSlots) >> 64) * simd::kBucketSlots;
  return uint64_t((unsigned __int128)key * slots_ >> 64);
}

simd::tt::ProbeResult TranspositionTable::probe_slots(core::Key key, Bound new_bound) const {
  uint16_t check = uint16_t(key);
  uint64_t base = base_index(key);
  if (layout_ == Layout::kBucket) {
    // The bucket is read as eight relaxed atomic loads, race-free in the C++ memory model, and
    // the kernel examines the copy (measured: within noise of a direct vector load).
    alignas(64) uint64_t bucket[simd::kBucketSlots];
    for (int k = 0; k < simd::kBucketSlots; ++k)
      bucket[k] = entries_[base + uint64_t(k)].load(std::memory_order_relaxed);
    return simd::probe_bucket(bucket, check, age(), new_bound);
  }
  // The Cray layout's eight strided slots are copied with relaxed atomic loads too (race-free
  // under threads; each slot still costs its own cache line), and the kernel gathers from the
  // copy.
  alignas(64) uint64_t slots[simd::kBucketSlots];
  const uint64_t step = stride(key);
  for (int k = 0; k < simd::kBucketSlots; ++k)
    slots[k] = entries_[base + uint64_t(k) * step].load(std::memory_order_relaxed);
  return simd::probe_cray(slots, 0, 1, check, age(), new_bound);
}

bool TranspositionTable::probe(core::Key key, TTData& out) const {
  simd::tt::ProbeResult r = probe_slots(key, simd::tt::BOUND_EXACT);
  if (r.hit < 0) return false;
  uint64_t e = entries_[base_index(key) + uint64_t(r.hit) * stride(key)].load(std::memory_order_relaxed);
  if (!simd::tt::matches(e, uint16_t(key))) return false;  // overwritten since the probe
  out = {core::Move(simd::tt::move_of(e)), simd::tt::score_of(e), int(simd::tt::draft_of(e)) - kDraftOffset,
         simd::tt::bound_of(e)};
  return true;
}

void TranspositionTable::store(core::Key key, core::Move move, int score, int depth, Bound bound) {
  simd::tt::ProbeResult r = probe_slots(key, bound);
  uint64_t slot = base_index(key) + uint64_t(r.hit >= 0 ? r.hit : r.victim) * stride(key);
  if (r.hit >= 0 && move == core::Move::none()) {
    uint64_t old = entries_[slot].load(std::memory_order_relaxed);
    if (simd::tt::matches(old, uint16_t(key)))
      move = core::Move(simd::tt::move_of(old));  // keep the old move
  }
  depth = std::clamp(depth, kMinDepth, 255 - kDraftOffset);
  entries_[slot].store(
      simd::tt::pack(uint16_t(key), move.raw(), int16_t(score), uint8_t(depth + kDraftOffset), bound, age()),
      std::memory_order_relaxed);
}

bool TranspositionTable::store_shared(core::Key key, core::Move move, int score, int depth, Bound bound) {
  TTData held;
  if (probe(key, held) && held.depth >= depth) return false;
  store(key, move, score, depth, bound);
  return true;
}

int TranspositionTable::hashfull() const {
  const size_t sample = std::min<size_t>(1000, slots_);
  int used = 0;
  for (size_t i = 0; i < sample; ++i) {
    uint64_t e = entries_[i].load(std::memory_order_relaxed);
    used += simd::tt::bound_of(e) != simd::tt::BOUND_NONE && simd::tt::age_of(e) == age();
  }
  return int(used * 1000 / sample);
}

}  // namespace vblitz::search
