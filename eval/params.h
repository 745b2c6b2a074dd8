// The evaluation's weights: one named table. The single list VBLITZ_EVAL_TERMS drives the
// table's fields, the defaults, parameter files, the `eval` trace and (later) the tuner.
#pragma once

#include <optional>
#include <string>

namespace vblitz::eval {

// A middlegame/endgame pair of centipawn values; the evaluation tapers between them.
struct Score {
  int mg = 0, eg = 0;
  constexpr Score operator+(Score o) const { return {mg + o.mg, eg + o.eg}; }
  constexpr Score operator-(Score o) const { return {mg - o.mg, eg - o.eg}; }
  constexpr Score operator-() const { return {-mg, -eg}; }
  constexpr Score operator*(int k) const { return {mg * k, eg * k}; }
  Score& operator+=(Score o) { return *this = *this + o; }
  Score& operator-=(Score o) { return *this = *this - o; }
  constexpr bool operator==(const Score&) const = default;
};

// X(name, entries): every term, in the order of parameter files and traces.
#define VBLITZ_EVAL_TERMS(X)                                                                           \
  X(material, 6)             /* pawn, knight, bishop, rook, queen, king (0) */                         \
  X(pawn_advance, 8)         /* by rank from the pawn's side */                                        \
  X(center_pawns_unmoved, 3) /* 0, 1 or 2 of the d- and e-pawns on their first squares */              \
  X(pawn_ram, 1)             /* pawns face to face (Bratko, after Levy 1984) */                        \
  X(eight_pawns, 1)          /* all eight pawns still on the board (Thompson's Belle) */               \
  X(doubled_pawn, 1)                                                                                   \
  X(tripled_pawn, 1)                                                                                   \
  X(isolated_pawn, 2) /* no enemy pawn in front (open), enemy pawn in front */                         \
  X(backward_pawn, 2) /* open, closed */                                                               \
  X(passed_pawn, 8)   /* by rank; grows as the enemy pieces come off */                                \
  X(outside_passed_pawn, 1)                                                                            \
  X(pawn_race, 1)     /* kings and pawns only: a race to queen won for certain */                      \
  X(knight_center, 1) /* per step closer to the centre */                                              \
  X(knight_outpost, 1)                                                                                 \
  X(knight_tropism, 1) /* per step closer to the enemy king */                                         \
  X(bishop_center, 1)                                                                                  \
  X(bishop_pair, 1)                                                                                    \
  X(bad_bishop_pawn, 1)  /* per own pawn on the bishop's colour */                                     \
  X(bishop_mobility, 1)  /* per square reached: open diagonals */                                      \
  X(bishop_king_zone, 1) /* diagonal into the enemy king's zone */                                     \
  X(rook_open_file, 2)   /* open, half-open (a levering enemy pawn counts half) */                     \
  X(rook_seventh, 1)                                                                                   \
  X(rook_behind_passer, 1)                                                                             \
  X(rook_trapped, 1) /* no horizontal move */                                                          \
  X(rook_tropism, 1)                                                                                   \
  X(queen_center, 1)                                                                                   \
  X(queen_tropism, 1)                                                                                  \
  X(queen_king_exposure, 1)  /* per point of enemy king danger, in 1/16 */                             \
  X(king_file_preference, 8) /* middlegame, by file: the knight files are best */                      \
  X(king_rank, 1)            /* middlegame, per rank off the back rank */                              \
  X(king_center, 1)          /* endgame, per step from the centre */                                   \
  X(king_shield_hole, 1)                                                                               \
  X(king_file, 3) /* open, own pawn gone but enemy pawn there, half-open for them*/                    \
  X(king_no_luft, 1)                                                                                   \
  X(lost_castling, 3) /* king moved, king rook moved, queen rook moved */                              \
  X(mobility, 1)      /* per square knights, bishops, rooks and queens reach */                        \
  X(king_attack, 4)   /* per king-zone square hit: knight, bishop, rook, queen */                      \
  X(safe_check, 4)    /* a knight, bishop, rook or queen can check on a square they do not guard */    \
  X(threat, 4)        /* pieces attacked by a pawn, rook/queen by a minor, queen by a rook, hanging */ \
  X(passed_king_distance, 2) /* endgame, per step from the stop square: their king, ours */            \
  X(connected_pawn, 8)       /* by rank: defended by a pawn or beside one */                           \
  X(tempo, 1)                /* the side to move */                                                    \
  X(passed_path, 2)          /* stop square blocked, stop square free and safe (per rank) */

// The table: one array of Scores per term (scalar terms have one entry).
struct Params {
#define VBLITZ_FIELD(name, n) Score name[n];
  VBLITZ_EVAL_TERMS(VBLITZ_FIELD)
#undef VBLITZ_FIELD
};

enum class Term {
#define VBLITZ_ENUM(name, n) name,
  VBLITZ_EVAL_TERMS(VBLITZ_ENUM)
#undef VBLITZ_ENUM
      count
};
constexpr int kTermCount = int(Term::count);

const char* term_name(Term t);
int term_entries(Term t);
Score* term_values(Params& p, Term t);
const Score* term_values(const Params& p, Term t);

// The hand-set defaults (Cray Blitz's terms; values ours).
const Params& default_params();

// HIARCS-style playing styles: percentages applied to groups of terms.
struct Style {
  int king_safety = 100;     // shelter, files, luft, castling, king-zone attacks, queen vs exposed king
  int passed_pawns = 100;    // passed and outside passed pawns, rooks behind them
  int mobility = 100;        // mobility, bishop diagonals, trapped rooks
  int pawn_structure = 100;  // centre pawns, rams, eight pawns, doubled, tripled, isolated, backward
};

// `base` with each group of terms scaled by the style's percentage.
Params apply_style(const Params& base, const Style& style);

// Writes every entry as "name[i] mg eg" lines (scalars without the index).
std::string write_params(const Params& p);
// Reads a parameter file's text over `p` (entries not named keep their value). On an
// unknown name, bad number or bad index returns "line N: reason" and leaves `p` unchanged.
std::optional<std::string> read_params(const std::string& text, Params& p);

}  // namespace vblitz::eval
