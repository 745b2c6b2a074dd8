// Pawn structure (Cray Blitz's pawn features that depend on pawns alone), cached in a pawn
// hash table keyed by the pawn key. Each evaluator owns its tables, so parallel searches never
// share them.
#pragma once

#include <cstdint>
#include <vector>

#include "core/position.h"
#include "eval/params.h"
#include "eval/trace.h"

namespace vblitz::eval {

struct PawnEntry {
  core::Key key = 0;
  Score score[core::COLOR_NB];              // structure terms of each side (positive = good)
  core::Bitboard passed[core::COLOR_NB];    // passed pawns
  core::Bitboard isolated[core::COLOR_NB];  // isolated pawns (an isolated passer gets no bonus early)
  core::Bitboard attacks[core::COLOR_NB];   // squares the pawns attack
};

// Computes the entry for the pawns of pos from scratch, recording each term in `trace`.
void compute_pawns(const core::Position& pos, const Params& params, PawnEntry& entry, Trace* trace);

class PawnTable {
 public:
  explicit PawnTable(size_t entries = 1 << 14) : table_(entries) {}
  // The entry for pos's pawns, from the table or freshly computed.
  const PawnEntry& probe(const core::Position& pos, const Params& params);
  void clear();
  uint64_t probes = 0, hits = 0;

 private:
  std::vector<PawnEntry> table_;
};

}  // namespace vblitz::eval
