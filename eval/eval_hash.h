// A direct-mapped cache of evaluation entries keyed by a 64-bit Zobrist key: the pawn hash
// (pawn key) and the king-safety hash (pawn+king key). Each evaluator owns its tables, so
// parallel searches never share them.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "core/zobrist.h"

namespace vblitz::eval {

template <class Entry>
class EvalHashTable {
 public:
  // The size is rounded down to a power of two, so that a slot is found with a mask: the
  // division of `key % size` took tens of cycles in every evaluation, before the load could start.
  explicit EvalHashTable(size_t entries = 1 << 14)
      : table_(std::bit_floor(std::max<size_t>(entries, 1))), mask_(table_.size() - 1) {}

  // The entry for `key`: from the table, or filled by compute(entry) (which sets entry.key).
  template <class Compute>
  const Entry& probe(core::Key key, Compute compute) {
    ++probes;
    Entry& e = table_[key & mask_];
    if (e.key == key && e.key) {
      ++hits;
      return e;
    }
    compute(e);
    return e;
  }
  // Starts loading key's slot into the cache (call as soon as the key is known).
  void prefetch(core::Key key) const { __builtin_prefetch(&table_[key & mask_]); }
  void clear() {
    for (Entry& e : table_) e.key = 0;
    probes = hits = 0;
  }
  uint64_t probes = 0, hits = 0;

 private:
  std::vector<Entry> table_;
  core::Key mask_;
};

}  // namespace vblitz::eval
