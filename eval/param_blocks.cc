// Opening families, the built-in blocks and sectioned parameter files.
#include "eval/param_blocks.h"

#include <sstream>
#include <vector>

namespace vblitz::eval {

namespace {

constexpr const char* kFamilyNames[kFamilyCount] = {"default", "e4", "d4", "flank"};

// The built-in blocks, in parameter-file form (values are the defaults' with a family's emphasis).
constexpr const char* kBuiltInBlocks = R"(
[e4]
# 1.e4: open games; piece activity and attacks on the king count for more
mobility 3 2
bishop_king_zone 16 0
king_shield_hole -15 0
[d4]
# 1.d4: closed games; pawn structure and outposts count for more
knight_outpost 26 12
backward_pawn[0] -15 -12
pawn_ram -8 -5
)";

// `text` with every line outside the wanted section blanked, so that read_params' line numbers
// stay those of the whole file. section -1 is the base (the lines before any header).
std::string section_text(const std::vector<std::string>& lines, const std::vector<int>& section_of,
                         int section) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i)
    out += (section_of[i] == section ? lines[i] : std::string()) + '\n';
  return out;
}

}  // namespace

const char* family_name(Family f) { return kFamilyNames[int(f)]; }

std::optional<Family> parse_family(std::string_view name) {
  for (int f = 0; f < kFamilyCount; ++f)
    if (name == kFamilyNames[f]) return Family(f);
  return std::nullopt;
}

Family family_of_first_move(std::string_view first_move) {
  if (first_move == "e2e4") return Family::kE4;
  if (first_move == "d2d4") return Family::kD4;
  return Family::kFlank;
}

const ParamSet& default_param_set() {
  static const ParamSet set = [] {
    ParamSet s;
    const std::string text = write_params(default_params()) + kBuiltInBlocks;
    if (read_param_set(text, s)) std::abort();  // the built-in text is known to be valid
    return s;
  }();
  return set;
}

std::string write_param_set(const ParamSet& set) {
  const std::string base = write_params(set[Family::kDefault]);
  std::string out = base;
  for (int f = 1; f < kFamilyCount; ++f) {
    out += std::string("[") + kFamilyNames[f] + "]\n";
    std::istringstream a(base), b(write_params(set.blocks[f]));
    for (std::string x, y; std::getline(a, x) && std::getline(b, y);)
      if (x != y) out += y + '\n';
  }
  return out;
}

std::optional<std::string> read_param_set(const std::string& text, ParamSet& set) {
  std::vector<std::string> lines;
  std::vector<int> section_of;
  int section = -1;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::string code = line.substr(0, line.find('#'));
    size_t a = code.find_first_not_of(" \t\r"), b = code.find_last_not_of(" \t\r");
    if (a != std::string::npos && code[a] == '[' && code[b] == ']') {
      auto family = parse_family(code.substr(a + 1, b - a - 1));
      if (!family || *family == Family::kDefault)
        return "line " + std::to_string(lines.size() + 1) + ": unknown block '" + code.substr(a, b - a + 1) +
               "' (blocks: [e4], [d4], [flank])";
      section = int(*family);
      line.clear();
    }
    lines.push_back(line);
    section_of.push_back(section);
  }
  ParamSet result;
  Params base = default_params();
  if (auto err = read_params(section_text(lines, section_of, -1), base)) return err;
  result.blocks.fill(base);
  for (int f = 1; f < kFamilyCount; ++f)
    if (auto err = read_params(section_text(lines, section_of, f), result.blocks[f])) return err;
  set = result;
  return std::nullopt;
}

}  // namespace vblitz::eval
