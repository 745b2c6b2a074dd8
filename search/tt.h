// The transposition table: eight 8-byte entries per probe (simd/tt_entry.h gives the bit
// layout), probed by the SIMD kernels. Two layouts:
//  - bucket (default): the eight slots are one 64-byte cache line;
//  - cray: Cray Blitz's eight slots at base + k * stride, stride from ten middle key bits.
// Lock-free: each entry is one 64-bit word written and read as a relaxed atomic (the bucket
// layout copies its eight words with atomic loads before the kernel looks at them), so a
// reader sees a whole entry or an older one; the stored move is verified legal before use.
// Never cleared between moves: entries carry the search's age and older ones go first.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/types.h"
#include "core/zobrist.h"
#include "simd/tt_entry.h"

namespace vblitz::search {

using simd::tt::Bound;

struct TTData {
  core::Move move;
  int score;  // as stored: mate scores relative to the node
  int depth;
  Bound bound;
};

// This machine's physical memory in MB (SIZE_MAX if it cannot be told).
size_t physical_memory_megabytes();

class TranspositionTable {
 public:
  enum class Layout { kBucket, kCray };
  static constexpr int kMinDepth = -7;  // deepest quiescence draft that is stored

  TranspositionTable() { resize(16); }

  // Allocates `megabytes` (any value >= 1) and clears it. False, with the table unchanged,
  // if the memory cannot be had or is not less than the machine's physical memory.
  bool resize(size_t megabytes);
  size_t megabytes() const { return megabytes_; }
  void set_layout(Layout layout);
  // Empties every slot (ucinewgame, Clear Hash).
  void clear();
  // Starts a new search: entries written before it count as old.
  void new_search() { age_.store(uint8_t((age() + 1) % simd::tt::kAgeCycle), std::memory_order_relaxed); }

  // Looks the key up; true and `out` filled if found.
  bool probe(core::Key key, TTData& out) const;
  // Starts loading key's bucket into the cache (call as soon as the key is known).
  void prefetch(core::Key key) const { __builtin_prefetch(&entries_[base_index(key)]); }
  // Stores an entry, over the same key or over the victim Cray Blitz's rules choose.
  void store(core::Key key, core::Move move, int score, int depth, Bound bound);
  // Stores an entry another process found (a cluster run) as store() does, unless the table
  // already holds the key at least as deep. True if it was stored.
  bool store_shared(core::Key key, core::Move move, int score, int depth, Bound bound);
  // Per mille of sampled slots holding entries of the current search.
  int hashfull() const;

 private:
  // The eight slots' indices for a key (bucket: consecutive; cray: strided).
  uint64_t base_index(core::Key key) const;
  uint64_t stride(core::Key key) const { return layout_ == Layout::kBucket ? 1 : 1 + ((key >> 16) & 1023); }
  simd::tt::ProbeResult probe_slots(core::Key key, Bound new_bound) const;

  struct Unmap {
    size_t bytes;  // the mapping's length (value-initialized to 0 with no table)
    void operator()(std::atomic<uint64_t>* p) const;
  };
  std::unique_ptr<std::atomic<uint64_t>[], Unmap> entries_;
  size_t slots_ = 0;  // usable slots (a multiple of 8); the cray layout has padding beyond
  size_t megabytes_ = 0;
  Layout layout_ = Layout::kBucket;
  // The search's age, atomic because `stop` may probe the table (search::quick_move, on the
  // protocol thread) while the search thread starts a new search.
  std::atomic<uint8_t> age_{0};
  uint8_t age() const { return age_.load(std::memory_order_relaxed); }
};

static_assert(sizeof(std::atomic<uint64_t>) == 8 && std::atomic<uint64_t>::is_always_lock_free);

}  // namespace vblitz::search
