// Evaluation: colour symmetry over the perft suites, terms' signs on hand-made positions,
// drawish endings, parameter files, and scalar/vector kernels giving identical scores.
#include <gtest/gtest.h>

#include "eval/evaluate.h"
#include "eval/param_blocks.h"
#include "eval/pawn_race.h"
#include "eval/pawns.h"
#include "simd/dispatch.h"
#include "tests/test_support.h"

namespace vblitz::eval {
namespace {

int white_score(const std::string& fen) {
  core::StateInfo si;
  core::Position pos;
  EXPECT_FALSE(pos.set(fen, si)) << fen;
  Evaluator e;
  return e.evaluate_white(pos);
}

// The trace of one term for White minus Black, middlegame and endgame.
Score term(const std::string& fen, Term t) {
  core::StateInfo si;
  core::Position pos;
  EXPECT_FALSE(pos.set(fen, si)) << fen;
  Evaluator e;
  Trace trace;
  e.evaluate_white(pos, &trace);
  return trace.term[int(t)][core::WHITE] - trace.term[int(t)][core::BLACK];
}

TEST(Eval, ColourFlippedPositionsScoreTheOpposite) {
  int checked = 0;
  for (const std::string& fen : test::suite_fens()) {
    core::StateInfo si;
    core::Position pos;
    ASSERT_FALSE(pos.set(fen, si));
    EXPECT_EQ(white_score(fen), -white_score(pos.flipped_fen())) << fen;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

// One evaluator with its caches (evaluation, pawn and king hashes) warm from many positions,
// and positions seen again, scores every position as a fresh evaluator computing from scratch.
TEST(Eval, CachedScoresEqualScoresFromScratch) {
  Evaluator cached;
  int checked = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::string& fen : test::suite_fens()) {
      core::StateInfo si;
      core::Position pos;
      ASSERT_FALSE(pos.set(fen, si));
      const int fresh = Evaluator().evaluate(pos);
      ASSERT_EQ(cached.evaluate(pos), fresh) << fen;
      ASSERT_EQ(cached.evaluate(pos), fresh) << fen;  // now from the cache
      ++checked;
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(Eval, LeftRightMirrorsScoreTheSameWithoutCastling) {
  const char* fens[] = {"r5k1/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/R5K1 w - - 0 1",
                        "8/5pk1/6p1/7p/P6P/6P1/5PK1/8 w - - 0 1",
                        "2r3k1/pb3pp1/1p5p/8/3N4/1B6/PP3PPP/3R2K1 b - - 0 1"};
  for (const char* fen : fens) {
    // Mirror files: reverse each rank of the placement.
    std::string f(fen), placement = f.substr(0, f.find(' ')), mirrored;
    size_t start = 0;
    while (start <= placement.size()) {
      size_t end = placement.find('/', start);
      std::string rank = placement.substr(start, end == std::string::npos ? std::string::npos : end - start);
      mirrored += std::string(rank.rbegin(), rank.rend()) + (end == std::string::npos ? "" : "/");
      if (end == std::string::npos) break;
      start = end + 1;
    }
    EXPECT_EQ(white_score(fen), white_score(mirrored + f.substr(f.find(' ')))) << fen;
  }
}

TEST(Eval, TermSignsOnHandMadePositions) {
  // Doubled and isolated pawns are penalties; passed pawns and rooks on open files bonuses.
  EXPECT_LT(term("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", Term::doubled_pawn).eg, 0);
  EXPECT_LT(term("4k3/pp6/8/8/8/8/P1P5/4K3 w - - 0 1", Term::isolated_pawn).mg, 0);
  EXPECT_GT(term("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", Term::passed_pawn).eg, 0);
  EXPECT_GT(term("4k3/pp6/8/8/8/8/P7/3RK3 w - - 0 1", Term::rook_open_file).mg, 0);
  EXPECT_GT(term("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::bishop_pair).mg, 0);
  EXPECT_GT(term("4k3/8/3p4/2pN4/2P5/8/8/4K3 w - - 0 1", Term::knight_outpost).mg, 0);
  EXPECT_GT(term("1r4k1/R7/8/8/8/8/8/6K1 w - - 0 1", Term::rook_seventh).eg, 0);
  // A king whose shield has gone suffers; one behind intact pawns does not.
  EXPECT_LT(term("r1bq1rk1/pppp1ppp/2n2n2/4p3/4P3/5N1P/PPPP1P2/RNBQ1RK1 w - - 0 1", Term::king_file).mg, 0);
}

// Attack, threat and pawn terms counted by hand on small positions, against the default weights.
TEST(Eval, AttacksThreatsAndConnectedPawnsCountedByHand) {
  const Params& p = default_params();
  // A pawn attacks an undefended knight: threat by a pawn, and a hanging piece.
  EXPECT_EQ(term("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", Term::threat), p.threat[0] + p.threat[3]);
  // A knight attacks an undefended rook: a minor on a major, and a hanging piece.
  EXPECT_EQ(term("4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1", Term::threat), p.threat[1] + p.threat[3]);
  // One piece on the king's zone counts nothing; a knight (f7, h7) and a queen (f7) count half.
  EXPECT_EQ(term("6k1/5ppp/8/6N1/8/8/8/3QK3 w - - 0 1", Term::king_attack), Score());
  const Score two = p.king_attack[0] * 2 + p.king_attack[3];
  EXPECT_EQ(term("6k1/5ppp/8/3Q2N1/8/8/8/4K3 w - - 0 1", Term::king_attack),
            (Score{two.mg * 50 / 100, two.eg * 50 / 100}));
  // The queen can check on d8; not when a knight guards d8.
  EXPECT_EQ(term("6k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1", Term::safe_check), p.safe_check[3]);
  EXPECT_EQ(term("6k1/5ppp/4n3/8/8/8/8/3QK3 w - - 0 1", Term::safe_check), Score());
  // Two pawns side by side on the fourth rank are both connected.
  EXPECT_EQ(term("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", Term::connected_pawn),
            p.connected_pawn[core::RANK_4] * 2);
  // The tempo goes to the side to move.
  EXPECT_EQ(term("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Term::tempo), p.tempo[0]);
  EXPECT_EQ(term("4k3/8/8/8/8/8/8/4K3 b - - 0 1", Term::tempo), -p.tempo[0]);
}

TEST(Eval, DrawishEndingsAreScaledDown) {
  // Wrong bishop and rook pawn against the king in the corner: a dead draw.
  EXPECT_EQ(white_score("7k/8/6KP/8/8/8/8/1B6 w - - 0 1"), 0);
  EXPECT_GT(white_score("7k/8/6KP/8/8/8/8/2B5 w - - 0 1"), 300);  // the right bishop wins
  // King and rook pawn against a king in front of it.
  EXPECT_EQ(white_score("k7/8/8/8/P7/8/8/4K3 w - - 0 1"), 0);
  // Insufficient material.
  EXPECT_EQ(white_score("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"), 0);
  // Opposite-coloured bishops halve the score of a one-pawn edge.
  int opposite = white_score("4k1b1/8/8/8/3P4/8/8/2B1K3 w - - 0 1");  // g8 light, c1 dark
  int same = white_score("4kb2/8/8/8/3P4/8/8/2B1K3 w - - 0 1");
  EXPECT_GT(opposite, 0);
  EXPECT_LT(opposite, same);
}

TEST(Eval, KingAndPawnAgainstKingIsExact) {
  // Wins: the king in front of its pawn on the sixth rank, whoever moves; a pawn outside the
  // defending king's square.
  EXPECT_GT(white_score("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"), 500);
  EXPECT_GT(white_score("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"), 500);
  EXPECT_GT(white_score("8/8/8/8/8/k7/7P/7K b - - 0 1"), 500);
  // Draws: the defending king in front of the pawn; a rook pawn with the king in the corner.
  EXPECT_EQ(white_score("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"), 0);
  EXPECT_EQ(white_score("k7/8/8/8/8/8/P7/7K w - - 0 1"), 0);
  EXPECT_EQ(white_score("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"), 0);
  // The same positions for Black score the opposite.
  EXPECT_LT(white_score("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1"), -500);
  EXPECT_EQ(white_score("4k3/4p3/4K3/8/8/8/8/8 b - - 0 1"), 0);
}

// The network's score (side to move's view) as the search uses it: with known endings applied.
int known(const std::string& fen, int score) {
  core::StateInfo si;
  core::Position pos;
  EXPECT_FALSE(pos.set(fen, si)) << fen;
  return network_endgame_score(pos, score);
}

TEST(Eval, KnownEndingsCorrectTheNetworksScore) {
  // Rules that do not depend on which side the score favours.
  for (int score : {-700, -150, 150, 700}) {
    // King and pawn against king: a draw is 0, a win keeps the network's score.
    EXPECT_EQ(known("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", score), 0);
    EXPECT_EQ(known("k7/8/8/8/8/8/P7/7K b - - 0 1", score), 0);
    EXPECT_EQ(known("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", score), score);
    EXPECT_EQ(known("8/8/8/8/4p3/4k3/8/4K3 w - - 0 1", score), score);
    // Two knights against a bare king, a lone minor piece against a minor piece: draws.
    EXPECT_EQ(known("8/5k2/8/8/8/8/1N2K1N1/8 w - - 0 1", score), 0);
    EXPECT_EQ(known("8/5k2/8/8/2n5/8/4KB2/8 b - - 0 1", score), 0);
    // Rook and bishop against a rook: a quarter, whoever the score favours.
    EXPECT_EQ(known("8/4k3/8/2r5/8/2BR4/4K3/8 b - - 0 1", score), score * 4 / 16);
    // The rook pawn with the wrong bishop against the king in the corner.
    EXPECT_EQ(known("7k/8/6KP/8/8/8/8/1B6 w - - 0 1", score), 0);
    // Pawns on both sides, and any position with four or more pieces, keep the score.
    EXPECT_EQ(known("4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1", score), score);
    EXPECT_EQ(known("r3k3/8/8/8/8/8/8/RN1BK3 w - - 0 1", score), score);  // KRNBvKR
    EXPECT_EQ(known("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", score), score);
  }
  // Scores for the side with more material (White, to move, in each position).
  for (int score : {150, 700}) {
    EXPECT_EQ(known("8/8/4k3/8/2b5/8/3RK3/8 w - - 0 1", score), score / 16);    // KRvKB
    EXPECT_EQ(known("4k1b1/8/8/8/3P4/8/8/2B1K3 w - - 0 1", score), score / 2);  // opposite bishops
    EXPECT_EQ(known("8/5k2/8/8/3B4/8/3NK3/8 w - - 0 1", score), score);         // KBNvK wins
    EXPECT_EQ(known("4k3/8/8/8/8/8/3QK3/7r w - - 0 1", score), score);          // KQvKR wins
    EXPECT_EQ(known("4k3/8/8/8/8/8/3QK3/5bb1 w - - 0 1", score), score);        // KQvKBB wins
    EXPECT_EQ(known("4kb2/8/8/8/3P4/8/8/2B1K3 w - - 0 1", score), score);       // same bishops
    EXPECT_EQ(known("4k3/8/8/8/8/8/4PPPP/4K3 w - - 0 1", score), score);        // pawns only
  }
  // A score for the side without pawns and with less material: it cannot win.
  EXPECT_EQ(known("4k3/8/8/8/8/8/4PPPP/4K3 w - - 0 1", -300), 0);
  EXPECT_EQ(known("8/5k2/8/8/3B4/8/3NK3/8 w - - 0 1", -300), 0);
  EXPECT_EQ(known("4k1b1/8/8/8/3P4/8/8/2B1K3 w - - 0 1", -300), 0);
  // Colour-flipped positions with the same score for the side to move give the same result.
  int checked = 0;
  for (const std::string& fen : test::suite_fens()) {
    core::StateInfo si;
    core::Position pos;
    ASSERT_FALSE(pos.set(fen, si));
    for (int score : {-333, 333}) EXPECT_EQ(known(fen, score), known(pos.flipped_fen(), score)) << fen;
    checked += known(fen, 333) != 333;
  }
  EXPECT_GT(checked, 0);  // the suites hold some of these endings
}

TEST(Eval, KernelsGiveIdenticalScores) {
  std::vector<std::string> fens = test::suite_fens();
  std::vector<int> scalar;
  simd::set_kernels(simd::Kernels::kScalar);
  for (const std::string& fen : fens) scalar.push_back(white_score(fen));
  simd::set_kernels(simd::Kernels::kAllVector);
  for (const std::string& target : simd::available_targets()) {
    ASSERT_TRUE(simd::set_simd_target(target));
    for (size_t i = 0; i < fens.size(); ++i)
      ASSERT_EQ(white_score(fens[i]), scalar[i]) << target << " " << fens[i];
  }
  simd::set_kernels(simd::Kernels::kVector);
  simd::set_simd_target("best");
}

TEST(Params, FileRoundTripsAndBadFilesAreRejected) {
  Params changed = default_params();
  changed.passed_pawn[6] = {77, 199};
  changed.mobility[0] = {-3, 4};
  Params read = default_params();
  ASSERT_FALSE(read_params(write_params(changed), read));
  EXPECT_EQ(write_params(read), write_params(changed));

  struct Bad {
    const char* text;
    const char* reason;
  } bads[] = {{"no_such_term 1 2\n", "line 1: unknown parameter 'no_such_term'"},
              {"# comment\nmaterial[9] 1 2\n", "line 2: index 9 out of range"},
              {"material[0] 1\n", "line 1: expected"},
              {"bishop_pair ten 2\n", "line 1: values must be whole numbers"},
              {"material[x] 1 2\n", "line 1: bad index"}};
  for (const Bad& bad : bads) {
    Params p = default_params();
    auto err = read_params(bad.text, p);
    ASSERT_TRUE(err.has_value()) << bad.text;
    EXPECT_NE(err->find(bad.reason), std::string::npos) << *err;
    EXPECT_EQ(write_params(p), write_params(default_params()));  // unchanged
  }
}

TEST(ParamBlocks, FamiliesBlocksAndSectionedFilesRoundTrip) {
  EXPECT_EQ(family_of_first_move("e2e4"), Family::kE4);
  EXPECT_EQ(family_of_first_move("d2d4"), Family::kD4);
  EXPECT_EQ(family_of_first_move("c2c4"), Family::kFlank);
  EXPECT_EQ(family_of_first_move("g1f3"), Family::kFlank);
  const ParamSet& defaults = default_param_set();
  EXPECT_EQ(write_params(defaults[Family::kDefault]), write_params(default_params()));
  EXPECT_NE(write_params(defaults[Family::kE4]), write_params(default_params()));
  EXPECT_NE(write_params(defaults[Family::kD4]), write_params(defaults[Family::kE4]));
  // Written with its sections, the set reads back the same.
  ParamSet read;
  ASSERT_FALSE(read_param_set(write_param_set(defaults), read));
  for (int f = 0; f < kFamilyCount; ++f)
    EXPECT_EQ(write_params(read.blocks[f]), write_params(defaults.blocks[f]));
  // A file without sections gives every block its base; a block starts from the file's base.
  ASSERT_FALSE(read_param_set("bishop_pair 1 2\n[flank]\nmobility 5 5\n", read));
  EXPECT_EQ(read[Family::kE4].bishop_pair[0], (Score{1, 2}));
  EXPECT_EQ(read[Family::kFlank].bishop_pair[0], (Score{1, 2}));
  EXPECT_EQ(read[Family::kFlank].mobility[0], (Score{5, 5}));
  EXPECT_EQ(read[Family::kD4].mobility[0], default_params().mobility[0]);
  // Errors name the line in the whole file and leave the set as it was.
  ParamSet kept = read;
  auto err = read_param_set("bishop_pair 1 2\n[d4]\nmobility 5\n", kept);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->rfind("line 3: ", 0), 0u) << *err;
  err = read_param_set("[default]\n", kept);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("unknown block '[default]'"), std::string::npos) << *err;
  EXPECT_EQ(write_param_set(kept), write_param_set(read));
}

// The race's verdict for a pure pawn ending, with passed pawns found by the pawn structure code.
std::optional<core::Color> race(const std::string& fen) {
  core::StateInfo si;
  core::Position pos;
  EXPECT_FALSE(pos.set(fen, si)) << fen;
  PawnEntry entry;
  compute_pawns(pos, default_params(), entry, nullptr);
  return pawn_race_winner(pos, entry.passed);
}

TEST(PawnRace, SquareOfTheKingAndWhoQueensFirst) {
  using core::BLACK;
  using core::WHITE;
  // Rule of the square: Kf5 to move is outside a5's square, Ke5 to move is inside.
  EXPECT_EQ(race("8/8/8/P4k2/8/8/8/7K b - - 0 1"), WHITE);
  EXPECT_EQ(race("8/8/8/P3k3/8/8/8/7K b - - 0 1"), std::nullopt);
  // The same king counts one step more when it is not its move.
  EXPECT_EQ(race("8/8/8/P3k3/8/8/8/7K w - - 0 1"), WHITE);
  // A double step from the second rank: a2 needs five moves.
  EXPECT_EQ(race("8/8/8/8/8/5k2/P7/7K w - - 0 1"), std::nullopt);
  EXPECT_EQ(race("8/8/8/8/8/6k1/P7/7K w - - 0 1"), WHITE);
  EXPECT_EQ(race("8/7k/8/8/8/8/P7/7K w - - 0 1"), WHITE);
  // A piece in the way, or any piece on the board: no verdict.
  EXPECT_EQ(race("8/K7/8/P4k2/8/8/8/8 b - - 0 1"), std::nullopt);
  EXPECT_EQ(race("8/8/8/P4k2/8/8/8/6NK b - - 0 1"), std::nullopt);
  // Both run, two moves apart: the first wins.
  EXPECT_EQ(race("8/7k/P7/8/7p/8/8/K7 w - - 0 1"), WHITE);
  EXPECT_EQ(race("8/7k/P7/8/7p/8/8/K7 b - - 0 1"), WHITE);
  // One move apart, queening with check (a8=Q+ against Kh8) and covering h1: the first wins.
  EXPECT_EQ(race("7k/8/8/P7/7p/8/8/K7 w - - 0 1"), WHITE);
  // One move apart, the new queen covering the other queening square (a8 sees h1): the first wins.
  EXPECT_EQ(race("8/7k/8/P7/7p/8/8/K7 w - - 0 1"), WHITE);
  // One move apart, no check and g1 uncovered: Q against Q, no verdict.
  EXPECT_EQ(race("8/7k/8/P7/6p1/8/8/K7 w - - 0 1"), std::nullopt);
  // Black to move queens first there, with check on a1 but a8 uncovered: a check alone gains
  // one tempo and decides nothing.
  EXPECT_EQ(race("8/7k/8/P7/6p1/8/8/K7 b - - 0 1"), std::nullopt);
  // Black's c-pawn on the second rank against a8=Q, and h1 defended by Black's king: draws.
  EXPECT_EQ(race("8/P7/7K/8/8/2p5/1k6/8 w - - 0 1"), std::nullopt);
  EXPECT_EQ(race("4K3/P7/8/8/8/8/7p/6k1 w - - 0 1"), std::nullopt);
  // A capture on the board (b3xc2), or the side to move in check: no verdict.
  EXPECT_EQ(race("8/8/7P/8/k7/1p6/1PP5/7K b - - 0 1"), std::nullopt);
  EXPECT_EQ(race("7k/P7/8/8/4p3/3K4/7p/8 w - - 0 1"), std::nullopt);
  // Black's a-pawn outruns White's king with nothing to stop it.
  EXPECT_EQ(race("K7/8/8/8/p6p/8/8/6k1 b - - 0 1"), BLACK);
  // The verdict reaches the evaluation, from the winner's side.
  EXPECT_GT(white_score("8/7k/P7/8/7p/8/8/K7 w - - 0 1"), 300);
  EXPECT_LT(white_score("K7/8/8/8/p6p/8/8/6k1 b - - 0 1"), -500);
}

}  // namespace
}  // namespace vblitz::eval
