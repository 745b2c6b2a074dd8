// Search scores: centipawns, with mate scores at the top and bottom of the range.
#pragma once

namespace vblitz::search {

constexpr int kMaxPly = 128;
constexpr int kInfinite = 32001;
constexpr int kMate = 32000;
constexpr int kMateInMaxPly = kMate - kMaxPly;  // scores beyond this are mates

constexpr int mated_in(int ply) { return -kMate + ply; }
constexpr int mate_in(int ply) { return kMate - ply; }
constexpr bool is_mate_score(int score) { return score >= kMateInMaxPly || score <= -kMateInMaxPly; }

// Mate scores are stored in the table relative to the node, and restored relative to the root.
constexpr int score_to_tt(int score, int ply) {
  return score >= kMateInMaxPly ? score + ply : score <= -kMateInMaxPly ? score - ply : score;
}
constexpr int score_from_tt(int score, int ply) {
  return score >= kMateInMaxPly ? score - ply : score <= -kMateInMaxPly ? score + ply : score;
}

// Moves to mate for a mate score (positive: we mate), as UCI's `score mate N` wants.
constexpr int mate_distance(int score) { return score > 0 ? (kMate - score + 1) / 2 : -(kMate + score) / 2; }

}  // namespace vblitz::search
