// Pawn structure (Cray Blitz's pawn features that depend on pawns alone), cached in a pawn
// hash table keyed by the pawn key. Each evaluator owns its tables, so parallel searches never
// share them.
#pragma once

#include <cstdint>

#include "core/position.h"
#include "eval/eval_hash.h"
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

using PawnTable = EvalHashTable<PawnEntry>;

}  // namespace vblitz::eval
