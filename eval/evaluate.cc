// The evaluation proper: material, piece terms, mobility, pawns, king safety, endgame scaling.
#include "eval/evaluate.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <sstream>

#include "eval/kpk.h"
#include "eval/network.h"
#include "eval/pawn_race.h"
#include "simd/slider_attacks.h"
#include "simd/table_scan.h"

namespace vblitz::eval {

using namespace core;

namespace {

constexpr int kPhaseWeight[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
constexpr int kMaxPhase = 24;
constexpr int kEndgameMaterial = 1300;  // Cray Blitz's 13,000 points: below it, no king safety
constexpr int kFullMaterial = 3100;     // a side's pieces at the start, roughly

// Material of a side's pieces (not pawns) in centipawns, from the middlegame values.
int piece_material(const Position& pos, Color c, const Params& p) {
  int m = 0;
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN})
    m += p.material[pt - 1].mg * pos.count(make_piece(c, pt));
  return m;
}

Score scaled(Score s, int num, int den) { return {s.mg * num / den, s.eg * num / den}; }

// Share (in percent) of the king-zone attack that counts, by the number of pieces attacking.
constexpr int kAttackersShare[8] = {0, 0, 50, 75, 88, 94, 97, 99};

// Pieces bearing on the enemy king's zone: each adds its king_attack weight per zone square hit.
struct KingAttack {
  Score weight;
  int attackers = 0;
  void add(const Params& p, PieceType pt, Bitboard attacks, Bitboard zone) {
    const int hits = popcount(attacks & zone);
    if (!hits) return;
    weight += p.king_attack[pt - KNIGHT] * hits;
    ++attackers;
  }
};

// Everything the side's terms need to know about the board.
struct Context {
  const Position& pos;
  const Params& p;
  const PawnEntry& pawns;
  const KingEntry& kings;
  Trace* trace;
  Bitboard attacks[COLOR_NB];  // all squares each side attacks
  int material[COLOR_NB];      // piece material, pawns excluded
};

Bitboard attack_map(const Position& pos, Color c, const PawnEntry& pawns) {
  Bitboard a = pawns.attacks[c] | king_attacks(pos.king_square(c));
  for (Bitboard b = pos.pieces(c, KNIGHT); b;) a |= knight_attacks(pop_lsb(b));
  return a |
         simd::side_slider_attacks(pos.pieces(c, ROOK, QUEEN), pos.pieces(c, BISHOP, QUEEN), pos.pieces());
}

Score score_pieces(const Context& x, Color us) {
  const Position& pos = x.pos;
  const Params& p = x.p;
  const Color them = ~us;
  const Square their_king = pos.king_square(them);
  const Bitboard occupied = pos.pieces(), own = pos.pieces(us);
  const Bitboard their_pawns = pos.pieces(them, PAWN), our_pawns = pos.pieces(us, PAWN);
  const Bitboard their_zone = king_attacks(their_king) | square_bb(their_king);
  Score total;
  uint64_t reach[16];
  size_t pieces = 0;
  KingAttack king_attack;
  Bitboard attacks_by[PIECE_TYPE_NB] = {};  // squares our pieces of each type attack

  for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN})
    record(x.trace, Term::material, us, p.material[pt - 1] * pos.count(make_piece(us, pt)), total);

  for (Bitboard b = pos.pieces(us, KNIGHT); b;) {
    const Square s = pop_lsb(b);
    const Bitboard a = knight_attacks(s);
    reach[pieces++ & 15] = a;
    attacks_by[KNIGHT] |= a;
    king_attack.add(p, KNIGHT, a, their_zone);
    record(x.trace, Term::knight_center, us, p.knight_center[0] * center_distance(s), total);
    record(x.trace, Term::knight_tropism, us, p.knight_tropism[0] * distance(s, their_king), total);
    // Outpost: on the enemy half, off the edge, where no enemy pawn can ever attack it.
    const int rank = relative_rank(us, s);
    if (rank >= RANK_4 && rank <= RANK_6 && file_of(s) != FILE_A && file_of(s) != FILE_H &&
        !(their_pawns & adjacent_files(file_of(s)) & forward_ranks(us, rank_of(s))))
      record(x.trace, Term::knight_outpost, us, p.knight_outpost[0], total);
  }

  const Bitboard bishops = pos.pieces(us, BISHOP);
  if ((bishops & kDarkSquares) && (bishops & ~kDarkSquares))
    record(x.trace, Term::bishop_pair, us, p.bishop_pair[0], total);
  for (Bitboard b = bishops; b;) {
    const Square s = pop_lsb(b);
    const Bitboard a = bishop_attacks(s, occupied);
    reach[pieces++ & 15] = a;
    attacks_by[BISHOP] |= a;
    king_attack.add(p, BISHOP, a, their_zone);
    record(x.trace, Term::bishop_center, us, p.bishop_center[0] * center_distance(s), total);
    const Bitboard same_colour = (kDarkSquares & square_bb(s)) ? kDarkSquares : ~kDarkSquares;
    record(x.trace, Term::bad_bishop_pawn, us, p.bad_bishop_pawn[0] * popcount(our_pawns & same_colour),
           total);
    record(x.trace, Term::bishop_mobility, us, p.bishop_mobility[0] * popcount(a & ~own), total);
    if (a & their_zone) record(x.trace, Term::bishop_king_zone, us, p.bishop_king_zone[0], total);
  }

  for (Bitboard b = pos.pieces(us, ROOK); b;) {
    const Square s = pop_lsb(b);
    const Bitboard a = rook_attacks(s, occupied);
    reach[pieces++ & 15] = a;
    attacks_by[ROOK] |= a;
    king_attack.add(p, ROOK, a, their_zone);
    const Bitboard file = file_bb(s);
    if (!(our_pawns & file))
      record(x.trace, Term::rook_open_file, us, p.rook_open_file[their_pawns & file ? 1 : 0], total);
    if (relative_rank(us, s) == RANK_7 &&
        (relative_rank(us, their_king) == RANK_8 || (their_pawns & rank_bb(s))))
      record(x.trace, Term::rook_seventh, us, p.rook_seventh[0], total);
    if (x.pawns.passed[us] & file & forward_ranks(us, rank_of(s)))
      record(x.trace, Term::rook_behind_passer, us, p.rook_behind_passer[0], total);
    if (!(a & rank_bb(s) & ~own)) record(x.trace, Term::rook_trapped, us, p.rook_trapped[0], total);
    record(x.trace, Term::rook_tropism, us, p.rook_tropism[0] * distance(s, their_king), total);
  }

  // The enemy king's exposure in the middlegame makes a queen worth more (Cray Blitz).
  const int exposure = std::max(0, -x.kings.shelter[them].mg);
  for (Bitboard b = pos.pieces(us, QUEEN); b;) {
    const Square s = pop_lsb(b);
    const Bitboard a = queen_attacks(s, occupied);
    reach[pieces++ & 15] = a;
    attacks_by[QUEEN] |= a;
    king_attack.add(p, QUEEN, a, their_zone);
    record(x.trace, Term::queen_center, us, p.queen_center[0] * center_distance(s), total);
    record(x.trace, Term::queen_tropism, us, p.queen_tropism[0] * distance(s, their_king), total);
    record(x.trace, Term::queen_king_exposure, us, scaled(p.queen_king_exposure[0] * exposure, 1, 16), total);
  }

  // Mobility: squares reached that are neither own pieces nor guarded by enemy pawns.
  int32_t counts[16];
  const size_t n = std::min<size_t>(pieces, 16);
  simd::masked_popcounts(reach, n, ~own & ~x.pawns.attacks[them], counts);
  int squares = 0;
  for (size_t i = 0; i < n; ++i) squares += counts[i];
  record(x.trace, Term::mobility, us, p.mobility[0] * squares, total);

  // King attack: counts only with two or more attackers, more of it the more there are.
  record(x.trace, Term::king_attack, us,
         scaled(king_attack.weight, kAttackersShare[std::min(king_attack.attackers, 7)], 100), total);

  // Threats: enemy pieces attacked by a pawn, rooks and queens by a minor, queens by a rook,
  // and pieces attacked but not defended.
  const Bitboard their_pieces = pos.pieces(them) & ~pos.pieces(them, PAWN, KING);
  const Bitboard their_majors = pos.pieces(them, ROOK, QUEEN), their_queens = pos.pieces(them, QUEEN);
  record(x.trace, Term::threat, us, p.threat[0] * popcount(x.pawns.attacks[us] & their_pieces), total);
  record(x.trace, Term::threat, us,
         p.threat[1] * popcount((attacks_by[KNIGHT] | attacks_by[BISHOP]) & their_majors), total);
  record(x.trace, Term::threat, us, p.threat[2] * popcount(attacks_by[ROOK] & their_queens), total);
  record(x.trace, Term::threat, us, p.threat[3] * popcount(x.attacks[us] & ~x.attacks[them] & their_pieces),
         total);

  // Safe checks: a piece can give check from a square the enemy does not guard.
  const Bitboard safe = ~own & ~x.attacks[them];
  const Bitboard diagonal_checks = bishop_attacks(their_king, occupied),
                 straight_checks = rook_attacks(their_king, occupied);
  const Bitboard checks[4] = {knight_attacks(their_king) & attacks_by[KNIGHT],
                              diagonal_checks & attacks_by[BISHOP], straight_checks & attacks_by[ROOK],
                              (diagonal_checks | straight_checks) & attacks_by[QUEEN]};
  for (int i = 0; i < 4; ++i)
    if (checks[i] & safe) record(x.trace, Term::safe_check, us, p.safe_check[i], total);
  return total;
}

Score score_pawns(const Context& x, Color us) {
  const Position& pos = x.pos;
  const Params& p = x.p;
  const Color them = ~us;
  Score total = x.pawns.score[us];  // traced when the entry was computed
  const Bitboard our_pawns = pos.pieces(us, PAWN), their_pawns = pos.pieces(them, PAWN);

  // Passed pawns: an isolated passer earns nothing while the enemy keeps over 13 pawns of pieces.
  for (Bitboard b = x.pawns.passed[us]; b;) {
    const Square s = pop_lsb(b);
    if ((x.pawns.isolated[us] & square_bb(s)) && x.material[them] > kEndgameMaterial) continue;
    const int rank = relative_rank(us, s);
    record(x.trace, Term::passed_pawn, us, p.passed_pawn[rank], total);
    if (rank < RANK_4) continue;
    // Advanced passers: kings near the stop square, and whether that square is free and safe.
    const int weight = rank - RANK_3;
    const Square stop = s + pawn_push(us);
    record(x.trace, Term::passed_king_distance, us,
           p.passed_king_distance[0] * (weight * std::min(distance(stop, pos.king_square(them)), 5)), total);
    record(x.trace, Term::passed_king_distance, us,
           p.passed_king_distance[1] * (weight * std::min(distance(stop, pos.king_square(us)), 5)), total);
    if (pos.pieces() & square_bb(stop))
      record(x.trace, Term::passed_path, us, p.passed_path[0] * weight, total);
    else if (!(x.attacks[them] & square_bb(stop)))
      record(x.trace, Term::passed_path, us, p.passed_path[1] * weight, total);
  }
  // Outside passed pawn: a passer at least three files from every enemy pawn.
  for (Bitboard b = x.pawns.passed[us]; b;) {
    const Square s = pop_lsb(b);
    Bitboard near = file_bb(s);
    for (int d = 1; d <= 2; ++d) {
      if (file_of(s) - d >= 0) near |= file_bb(File(file_of(s) - d));
      if (file_of(s) + d <= 7) near |= file_bb(File(file_of(s) + d));
    }
    if (their_pawns && !(their_pawns & near)) {
      record(x.trace, Term::outside_passed_pawn, us, p.outside_passed_pawn[0], total);
      break;
    }
  }
  // Rams and all eight pawns: the blocked positions Cray Blitz avoided, scored against the
  // side to move (the program's side at the root).
  if (pos.side_to_move() == us) {
    const Bitboard rams = our_pawns & (us == WHITE ? their_pawns >> 8 : their_pawns << 8);
    record(x.trace, Term::pawn_ram, us, p.pawn_ram[0] * popcount(rams), total);
    if (popcount(our_pawns) == 8) record(x.trace, Term::eight_pawns, us, p.eight_pawns[0], total);
  }
  return total;
}

Score score_king(const Context& x, Color us) {
  const Position& pos = x.pos;
  const Params& p = x.p;
  const Color them = ~us;
  Score safety = x.kings.shelter[us];  // traced when the entry was computed
  const Square ksq = pos.king_square(us);

  // Luft: a back-rank king whose squares in front are all blocked or guarded.
  if (relative_rank(us, ksq) == RANK_1) {
    const Bitboard front = king_attacks(ksq) & rank_bb(relative_square(us, make_square(FILE_A, RANK_2)));
    if (!(front & ~pos.pieces(us) & ~x.attacks[them]))
      record(x.trace, Term::king_no_luft, us, p.king_no_luft[0], safety);
  }
  // Castling given up: king moved > king rook moved > queen rook moved (Cray Blitz).
  const bool kingside = pos.can_castle(castling_right(us, true)),
             queenside = pos.can_castle(castling_right(us, false));
  if (!kingside && !queenside) {
    const File f = file_of(ksq);
    if (relative_rank(us, ksq) != RANK_1 || (f >= FILE_D && f <= FILE_F))
      record(x.trace, Term::lost_castling, us, p.lost_castling[0], safety);
  } else if (!kingside || !queenside) {
    record(x.trace, Term::lost_castling, us, p.lost_castling[kingside ? 2 : 1], safety);
  }
  // Deep Blue: king safety counts in proportion to the attacker's material; Cray Blitz: not at
  // all once the attacker is down to 13 pawns' worth of pieces.
  // (The trace keeps the unscaled terms; the report shows the scaling as its own line.)
  const int m = x.material[them];
  const Score total =
      m <= kEndgameMaterial ? Score() : scaled(safety, std::min(m, kFullMaterial), kFullMaterial);
  return total + x.kings.center[us];
}

// King and pawn against king (the caller checks the material): true if the pawn's side wins.
bool kpk_pawn_side_wins(const Position& pos) {
  const Color strong = pos.pieces(WHITE, PAWN) ? WHITE : BLACK;
  return kpk_win(relative_square(strong, pos.king_square(strong)),
                 relative_square(strong, lsb(pos.pieces(PAWN))),
                 relative_square(strong, pos.king_square(~strong)), pos.side_to_move() == strong);
}

// Known drawish endings: the factor (of 16) to keep of the score.
int endgame_scale(const Position& pos, int white_minus_black_material) {
  if (pos.has_insufficient_material()) return 0;
  const bool only_bishops = !(pos.pieces(KNIGHT) | pos.pieces(ROOK) | pos.pieces(QUEEN));
  const Bitboard wb = pos.pieces(WHITE, BISHOP), bb = pos.pieces(BLACK, BISHOP);
  // Opposite-coloured bishops: drawish unless one side is two pawns up.
  if (only_bishops && popcount(wb) == 1 && popcount(bb) == 1 &&
      bool(wb & kDarkSquares) != bool(bb & kDarkSquares) && std::abs(white_minus_black_material) < 200)
    return 8;
  // King and rook pawn(s), perhaps with the wrong bishop, against a king in the corner.
  for (Color strong : {WHITE, BLACK}) {
    const Color weak = ~strong;
    if (pos.pieces(weak) != pos.pieces(weak, KING) || !pos.pieces(strong, PAWN)) continue;
    if (pos.pieces(strong) & ~pos.pieces(strong, PAWN, KING) & ~pos.pieces(strong, BISHOP)) continue;
    if (popcount(pos.pieces(strong, BISHOP)) > 1) continue;
    for (File f : {FILE_A, FILE_H}) {
      if (pos.pieces(strong, PAWN) & ~file_bb(f)) continue;
      const Square corner = relative_square(strong, make_square(f, RANK_8));
      const Bitboard bishop = pos.pieces(strong, BISHOP);
      const bool wrong_bishop =
          !bishop || bool(bishop & kDarkSquares) != bool(square_bb(corner) & kDarkSquares);
      if (wrong_bishop && distance(pos.king_square(weak), corner) <= 1) return 0;
    }
  }
  return 16;
}

}  // namespace

int network_endgame_score(const Position& pos, int score) {
  const Bitboard pieces = pos.pieces() & ~pos.pieces(PAWN, KING);  // minor and major pieces
  // No rule below applies with four or more (the common case).
  if (popcount(pieces) > 3) return score;
  if (!pieces && popcount(pos.pieces(PAWN)) == 1) {
    return kpk_pawn_side_wins(pos) ? score : 0;
  }
  const Params& p = default_params();
  const int npm[2] = {piece_material(pos, WHITE, p), piece_material(pos, BLACK, p)};
  const int white_minus_black =
      npm[WHITE] - npm[BLACK] + p.material[0].mg * (pos.count(W_PAWN) - pos.count(B_PAWN));
  int scale = endgame_scale(pos, white_minus_black);
  // The side the score favours, without pawns and at most a minor piece ahead, rarely wins
  // (KRvKB, KRvKN, KRBvKR), whatever its advantage looks like; a queen against minor pieces
  // alone does (KQvKBB).
  const Color strong = score > 0 ? pos.side_to_move() : ~pos.side_to_move();
  const int bishop = p.material[BISHOP - 1].mg;
  const bool queen_against_minors = pos.pieces(strong, QUEEN) && !pos.pieces(~strong, ROOK, QUEEN);
  if (!pos.pieces(strong, PAWN) && npm[strong] - npm[~strong] <= bishop && !queen_against_minors)
    scale = std::min(scale, npm[strong] < p.material[ROOK - 1].mg ? 0 : npm[~strong] <= bishop ? 1 : 4);
  // Two knights cannot force mate against a bare king.
  if (pos.pieces(strong) == (pos.pieces(strong, KNIGHT, KING)) && popcount(pos.pieces(strong, KNIGHT)) == 2 &&
      pos.pieces(~strong) == pos.pieces(~strong, KING))
    scale = 0;
  return score * scale / 16;
}

int piece_value(PieceType pt) { return pt >= PAWN && pt <= QUEEN ? default_params().material[pt - 1].mg : 0; }

int Evaluator::phase(const Position& pos) {
  int phase = 0;
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) phase += kPhaseWeight[pt] * popcount(pos.pieces(pt));
  return std::min(phase, kMaxPhase);
}

int Evaluator::evaluate_white(const Position& pos, Trace* trace) {
  PawnEntry pawn_entry;
  KingEntry king_entry;
  const PawnEntry* pawns = &pawn_entry;
  const KingEntry* kings = &king_entry;
  if (trace) {
    compute_pawns(pos, params_, pawn_entry, trace);
    compute_king_safety(pos, params_, king_entry, trace);
  } else {
    pawns = &pawns_.probe(pos.pawn_key(), [&](PawnEntry& e) { compute_pawns(pos, params_, e, nullptr); });
    kings = &kings_.probe(pos.pawn_king_key(),
                          [&](KingEntry& e) { compute_king_safety(pos, params_, e, nullptr); });
  }
  Context x{pos, params_, *pawns, *kings, trace, {}, {}};
  for (Color c : {WHITE, BLACK}) {
    x.attacks[c] = attack_map(pos, c, *pawns);
    x.material[c] = piece_material(pos, c, params_);
  }
  Score total;
  for (Color c : {WHITE, BLACK}) {
    Score side = score_pieces(x, c) + score_pawns(x, c) + score_king(x, c);
    total += c == WHITE ? side : -side;
  }
  // Pawn races: with kings and pawns only, a race to queen won for certain.
  if (const auto winner = pawn_race_winner(pos, pawns->passed)) {
    Score race;
    record(x.trace, Term::pawn_race, *winner, params_.pawn_race[0], race);
    total += *winner == WHITE ? race : -race;
  }
  Score tempo;
  record(x.trace, Term::tempo, pos.side_to_move(), params_.tempo[0], tempo);
  total += pos.side_to_move() == WHITE ? tempo : -tempo;
  const int ph = phase(pos);
  int score = (total.mg * ph + total.eg * (kMaxPhase - ph)) / kMaxPhase;
  // King and pawn against king: the exact result from the bitbase. A win scores more than a
  // rook but less than a queen (Cray Blitz), growing as the pawn advances; a draw is 0.
  if (pos.pieces() == (pos.pieces(KING) | pos.pieces(PAWN)) && popcount(pos.pieces(PAWN)) == 1) {
    const Color strong = pos.pieces(WHITE, PAWN) ? WHITE : BLACK;
    const Square pawn = lsb(pos.pieces(PAWN));
    const int value = kpk_pawn_side_wins(pos) ? 600 + 10 * relative_rank(strong, pawn) : 0;
    return strong == WHITE ? value : -value;
  }
  const int material_diff = x.material[WHITE] - x.material[BLACK] +
                            params_.material[0].mg * (pos.count(W_PAWN) - pos.count(B_PAWN));
  return score * endgame_scale(pos, material_diff) / 16;
}

int Evaluator::evaluate(const Position& pos) {
  const int white = cache_
                        .probe(pos.key(),
                               [&](EvalEntry& e) {
                                 e.key = pos.key();
                                 e.white = evaluate_white(pos);
                               })
                        .white;
#ifndef NDEBUG
  Trace fresh;  // debug builds: the cached score (evaluation, pawn and king hashes) equals a fresh one
  assert(white == evaluate_white(pos, &fresh));
#endif
  return pos.side_to_move() == WHITE ? white : -white;
}

std::string eval_report(const Position& pos, bool network_active, const Params& params, const Network& net) {
  Evaluator evaluator(params);
  Trace trace;
  const int total = evaluator.evaluate_white(pos, &trace);
  const int ph = Evaluator::phase(pos);
  auto taper = [ph](Score s) { return (s.mg * ph + s.eg * (kMaxPhase - ph)) / kMaxPhase; };
  std::ostringstream out;
  char line[160];
  std::snprintf(line, sizeof line, "%-22s | %13s | %13s | %6s\n", "term", "White mg  eg", "Black mg  eg",
                "total");
  out << line;
  for (int t = 0; t < kTermCount; ++t) {
    const Score w = trace.term[t][WHITE], b = trace.term[t][BLACK];
    if (w == Score() && b == Score()) continue;
    std::snprintf(line, sizeof line, "%-22s | %6d %6d | %6d %6d | %6d\n", term_name(Term(t)), w.mg, w.eg,
                  b.mg, b.eg, taper(w) - taper(b));
    out << line;
  }
  int traced = 0;
  for (int t = 0; t < kTermCount; ++t) traced += taper(trace.term[t][WHITE]) - taper(trace.term[t][BLACK]);
  out << "Phase: " << ph << "/24 (24 = all pieces on the board)\n";
  out << "Scaling (king safety by the attacker's material, drawish endings): " << total - traced << '\n';
  const int network = evaluate_network(net, pos);
  const int white = pos.side_to_move() == WHITE ? 1 : -1;
  const int white_network = white * network, white_known = white * network_endgame_score(pos, network);
  out << "Classic evaluation: " << total << " (white side)\n";
  out << "Network evaluation: " << white_network << " (white side), " << network_name(net) << '\n';
  if (white_known != white_network)
    out << "Network evaluation in a known ending: " << white_known << " (white side)\n";
  out << "Final evaluation: " << (network_active ? white_known : total) << " (white side)";
  return out.str();
}

}  // namespace vblitz::eval
