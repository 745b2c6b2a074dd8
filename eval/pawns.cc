// Pawn structure: advancement, centre pawns, doubled/tripled, isolated, backward, connected,
// passed and outside passed pawns. Terms that depend on more than the pawns are scored in evaluate.cc.
#include "eval/pawns.h"

namespace vblitz::eval {

using namespace core;

namespace {

void score_side(const Position& pos, const Params& p, Color us, PawnEntry& e, Trace* trace) {
  const Color them = ~us;
  const Bitboard ours = pos.pieces(us, PAWN), theirs = pos.pieces(them, PAWN);
  Score& total = e.score[us];

  int unmoved = 0;
  for (Square s : {SQ_D2, SQ_E2}) unmoved += bool(ours & square_bb(relative_square(us, s)));
  record(trace, Term::center_pawns_unmoved, us, p.center_pawns_unmoved[unmoved], total);

  for (int f = FILE_A; f <= FILE_H; ++f) {
    int n = popcount(ours & file_bb(File(f)));
    if (n == 2) record(trace, Term::doubled_pawn, us, p.doubled_pawn[0], total);
    if (n >= 3) record(trace, Term::tripled_pawn, us, p.tripled_pawn[0], total);
  }

  for (Bitboard b = ours; b;) {
    const Square s = pop_lsb(b);
    const int rank = relative_rank(us, s);
    record(trace, Term::pawn_advance, us, p.pawn_advance[rank], total);
    const Bitboard ahead = forward_ranks(us, rank_of(s));
    const bool opposed = theirs & ahead & file_bb(s);
    const Bitboard neighbours = ours & adjacent_files(file_of(s));
    if (!neighbours) {
      e.isolated[us] |= square_bb(s);
      record(trace, Term::isolated_pawn, us, p.isolated_pawn[opposed], total);
    } else if (!(neighbours & ~ahead)) {
      // No neighbour can come level to defend it, and an enemy pawn guards its advance.
      const Square stop = s + pawn_push(us);
      if (pawn_attacks(us, stop) & theirs)
        record(trace, Term::backward_pawn, us, p.backward_pawn[opposed], total);
    }
    const bool phalanx = neighbours & rank_bb(s), supported = pawn_attacks(them, s) & ours;
    if (phalanx || supported) record(trace, Term::connected_pawn, us, p.connected_pawn[rank], total);
    if (!(theirs & passed_pawn_span(us, s))) e.passed[us] |= square_bb(s);
  }
}

}  // namespace

void compute_pawns(const Position& pos, const Params& params, PawnEntry& entry, Trace* trace) {
  entry.key = pos.pawn_key();
  for (Color c : {WHITE, BLACK}) {
    entry.score[c] = Score();
    entry.passed[c] = entry.isolated[c] = 0;
  }
  for (Color c : {WHITE, BLACK}) score_side(pos, params, c, entry, trace);
  entry.attacks[WHITE] = pawn_attacks_bb<WHITE>(pos.pieces(WHITE, PAWN));
  entry.attacks[BLACK] = pawn_attacks_bb<BLACK>(pos.pieces(BLACK, PAWN));
}

}  // namespace vblitz::eval
