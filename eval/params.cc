// Term names, defaults and parameter files.
#include "eval/params.h"

#include <charconv>
#include <sstream>

#include "core/text.h"

namespace vblitz::eval {

namespace {

constexpr const char* kNames[] = {
#define VBLITZ_NAME(name, n) #name,
    VBLITZ_EVAL_TERMS(VBLITZ_NAME)
#undef VBLITZ_NAME
};
constexpr int kEntries[] = {
#define VBLITZ_COUNT(name, n) n,
    VBLITZ_EVAL_TERMS(VBLITZ_COUNT)
#undef VBLITZ_COUNT
};

Params make_defaults() {
  Params p;
  const Score material[6] = {{100, 120}, {310, 300}, {320, 320}, {500, 530}, {950, 980}, {0, 0}};
  for (int i = 0; i < 6; ++i) p.material[i] = material[i];
  const int advance_mg[8] = {0, 0, 2, 6, 14, 26, 45, 0}, advance_eg[8] = {0, 0, 6, 14, 28, 50, 85, 0};
  for (int r = 0; r < 8; ++r) p.pawn_advance[r] = {advance_mg[r], advance_eg[r]};
  p.center_pawns_unmoved[0] = {0, 0};
  p.center_pawns_unmoved[1] = {-10, 0};
  p.center_pawns_unmoved[2] = {-35, 0};
  p.pawn_ram[0] = {-6, -4};
  p.eight_pawns[0] = {-8, 0};
  p.doubled_pawn[0] = {-10, -20};
  p.tripled_pawn[0] = {-20, -35};
  p.isolated_pawn[0] = {-15, -18};
  p.isolated_pawn[1] = {-8, -12};
  p.backward_pawn[0] = {-12, -10};
  p.backward_pawn[1] = {-6, -6};
  const int passed_mg[8] = {0, 5, 8, 14, 25, 45, 70, 0}, passed_eg[8] = {0, 10, 15, 25, 45, 80, 130, 0};
  for (int r = 0; r < 8; ++r) p.passed_pawn[r] = {passed_mg[r], passed_eg[r]};
  p.outside_passed_pawn[0] = {5, 30};
  p.pawn_race[0] = {0, 450};
  p.knight_center[0] = {-10, -8};
  p.knight_outpost[0] = {20, 10};
  p.knight_tropism[0] = {-3, -2};
  p.bishop_center[0] = {-5, -4};
  p.bishop_pair[0] = {30, 50};
  p.bad_bishop_pawn[0] = {-3, -5};
  p.bishop_mobility[0] = {3, 3};
  p.bishop_king_zone[0] = {12, 0};
  p.rook_open_file[0] = {25, 10};
  p.rook_open_file[1] = {12, 5};
  p.rook_seventh[0] = {15, 25};
  p.rook_behind_passer[0] = {10, 25};
  p.rook_trapped[0] = {-25, -10};
  p.rook_tropism[0] = {-2, 0};
  p.queen_center[0] = {-3, -5};
  p.queen_tropism[0] = {-3, -2};
  p.queen_king_exposure[0] = {1, 0};
  const int king_file_mg[8] = {10, 20, 5, -10, -10, 0, 20, 10};
  for (int f = 0; f < 8; ++f) p.king_file_preference[f] = {king_file_mg[f], 0};
  p.king_rank[0] = {-25, 0};
  p.king_center[0] = {0, -10};
  p.king_shield_hole[0] = {-12, 0};
  p.king_file[0] = {-30, 0};
  p.king_file[1] = {-20, 0};
  p.king_file[2] = {-12, 0};
  p.king_no_luft[0] = {-15, 0};
  p.lost_castling[0] = {-30, 0};
  p.lost_castling[1] = {-15, 0};
  p.lost_castling[2] = {-10, 0};
  p.mobility[0] = {2, 2};
  const Score king_attack[4] = {{8, 0}, {8, 0}, {12, 0}, {20, 0}};
  for (int i = 0; i < 4; ++i) p.king_attack[i] = king_attack[i];
  const Score safe_check[4] = {{30, 0}, {20, 0}, {40, 0}, {30, 0}};
  for (int i = 0; i < 4; ++i) p.safe_check[i] = safe_check[i];
  const Score threat[4] = {{50, 35}, {35, 25}, {35, 20}, {30, 15}};
  for (int i = 0; i < 4; ++i) p.threat[i] = threat[i];
  p.passed_king_distance[0] = {0, 5};
  p.passed_king_distance[1] = {0, -2};
  const int connected_mg[8] = {0, 0, 4, 6, 10, 20, 35, 0}, connected_eg[8] = {0, 0, 2, 4, 8, 16, 30, 0};
  for (int r = 0; r < 8; ++r) p.connected_pawn[r] = {connected_mg[r], connected_eg[r]};
  p.tempo[0] = {12, 6};
  p.passed_path[0] = {-3, -6};
  p.passed_path[1] = {2, 6};
  return p;
}

bool parse_number(const std::string& text, int& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && value > -100000 && value < 100000;
}

}  // namespace

const char* term_name(Term t) { return kNames[int(t)]; }
int term_entries(Term t) { return kEntries[int(t)]; }

Score* term_values(Params& p, Term t) {
  switch (t) {
#define VBLITZ_CASE(name, n) \
  case Term::name: return p.name;
    VBLITZ_EVAL_TERMS(VBLITZ_CASE)
#undef VBLITZ_CASE
    default: return nullptr;
  }
}
const Score* term_values(const Params& p, Term t) { return term_values(const_cast<Params&>(p), t); }

const Params& default_params() {
  static const Params defaults = make_defaults();
  return defaults;
}

Params apply_style(const Params& base, const Style& style) {
  Params p = base;
  auto scale = [&p](std::initializer_list<Term> terms, int percent) {
    for (Term t : terms)
      for (int i = 0; i < term_entries(t); ++i) {
        Score& v = term_values(p, t)[i];
        v = {v.mg * percent / 100, v.eg * percent / 100};
      }
  };
  scale({Term::king_file_preference, Term::king_rank, Term::king_shield_hole, Term::king_file,
         Term::king_no_luft, Term::lost_castling, Term::bishop_king_zone, Term::queen_king_exposure,
         Term::king_attack, Term::safe_check},
        style.king_safety);
  scale({Term::passed_pawn, Term::outside_passed_pawn, Term::pawn_race, Term::rook_behind_passer,
         Term::passed_king_distance, Term::passed_path},
        style.passed_pawns);
  scale({Term::mobility, Term::bishop_mobility, Term::rook_trapped}, style.mobility);
  scale({Term::connected_pawn, Term::center_pawns_unmoved, Term::pawn_ram, Term::eight_pawns,
         Term::doubled_pawn, Term::tripled_pawn, Term::isolated_pawn, Term::backward_pawn},
        style.pawn_structure);
  return p;
}

std::string write_params(const Params& p) {
  std::ostringstream out;
  out << "# VBlitz evaluation parameters: name[index] middlegame endgame (centipawns)\n";
  for (int t = 0; t < kTermCount; ++t) {
    const Score* v = term_values(p, Term(t));
    for (int i = 0; i < term_entries(Term(t)); ++i) {
      out << term_name(Term(t));
      if (term_entries(Term(t)) > 1) out << '[' << i << ']';
      out << ' ' << v[i].mg << ' ' << v[i].eg << '\n';
    }
  }
  return out.str();
}

std::optional<std::string> read_params(const std::string& text, Params& p) {
  Params result = p;
  std::istringstream in(text);
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    std::string where = "line " + std::to_string(line_number) + ": ";
    std::istringstream words(line.substr(0, line.find('#')));
    std::string name, mg, eg, extra;
    if (!(words >> name)) continue;
    if (!(words >> mg >> eg) || (words >> extra)) return where + "expected 'name middlegame endgame'";
    int index = 0;
    if (size_t open = name.find('['); open != std::string::npos) {
      if (name.back() != ']' || !parse_number(name.substr(open + 1, name.size() - open - 2), index))
        return where + "bad index in " + core::quote(name);
      name = name.substr(0, open);
    }
    int t = 0;
    while (t < kTermCount && name != term_name(Term(t))) ++t;
    if (t == kTermCount) return where + "unknown parameter " + core::quote(name);
    if (index < 0 || index >= term_entries(Term(t)))
      return where + "index " + std::to_string(index) + " out of range for " + core::quote(name);
    Score value;
    if (!parse_number(mg, value.mg) || !parse_number(eg, value.eg))
      return where + "values must be whole numbers, not " + core::quote(mg + " " + eg);
    term_values(result, Term(t))[index] = value;
  }
  p = result;
  return std::nullopt;
}

}  // namespace vblitz::eval
