// King safety from the pawns around each king (Cray Blitz): preferred squares, holes in the
// pawn shield, open and half-open files in the king's zone at three penalty levels, and the
// endgame king's centralization. Cached in a table keyed by the pawn+king key.
#pragma once

#include <cstdint>

#include "core/position.h"
#include "eval/eval_hash.h"
#include "eval/params.h"
#include "eval/trace.h"

namespace vblitz::eval {

struct KingEntry {
  core::Key key = 0;
  Score shelter[core::COLOR_NB];  // square preference, shield holes and files (middlegame terms)
  Score center[core::COLOR_NB];   // endgame centralization
};

// Computes the entry for pos's pawns and kings from scratch, recording terms in `trace`.
void compute_king_safety(const core::Position& pos, const Params& params, KingEntry& entry, Trace* trace);

using KingTable = EvalHashTable<KingEntry>;

}  // namespace vblitz::eval
