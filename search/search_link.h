// What a search tells the other processes of a cluster run and hears from them
// (cluster/cluster_search.h). A plain search has no link.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "simd/tt_entry.h"

namespace vblitz::search {

// A table entry as it travels between processes: with its full key (a partial key would store
// it under positions that merely share the table's key bits), 16 bytes.
struct SharedEntry {
  uint64_t key;
  uint16_t move;
  int16_t score;  // as stored: mate scores relative to the node
  int8_t depth;
  uint8_t bound;
  uint16_t unused;
};
static_assert(sizeof(SharedEntry) == 16);

class SearchLink {
 public:
  virtual ~SearchLink() = default;
  // Called by the process's main search thread about every 1024 nodes: moves the exchange on
  // and may set the stop signal the search was started with.
  virtual void poll() = 0;
  // A table store at least min_depth deep, offered to the other processes; any thread calls it.
  virtual void offer(const SharedEntry& entry) = 0;

  static constexpr int kDefaultMinDepth = 6;  // of 4, 6 and 8, the best 2-process time to depth
  int min_depth = kDefaultMinDepth;           // UCI ClusterShareDepth
};

}  // namespace vblitz::search
