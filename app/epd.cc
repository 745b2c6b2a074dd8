// EPD reading for the epdmoves command.
#include "app/epd.h"

#include <fstream>
#include <sstream>
#include <vector>

#include "core/file.h"
#include "core/position.h"
#include "core/san.h"

namespace vblitz::app {

namespace {

// The value of operation `op` ("bm Qg6 Rxf7;" -> "Qg6 Rxf7"), or "" if absent.
std::string operation(const std::string& ops, const std::string& op) {
  std::istringstream in(ops);
  for (std::string part; std::getline(in, part, ';');) {
    size_t start = part.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    part = part.substr(start);
    if (part.rfind(op + " ", 0) == 0) return part.substr(op.size() + 1);
  }
  return "";
}

}  // namespace

int print_epd_moves(const std::string& path, std::ostream& out, std::ostream& errors) {
  if (auto error = core::check_input_file(path)) {
    errors << *error << '\n';
    return 1;
  }
  std::ifstream in(path);
  if (!in) {
    errors << "cannot read " << path << '\n';
    return 1;
  }
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string fields[4];
    for (std::string& f : fields) words >> f;
    std::string ops;
    std::getline(words, ops);
    const std::string fen = fields[0] + ' ' + fields[1] + ' ' + fields[2] + ' ' + fields[3] + " 0 1";
    core::StateInfo si;
    core::Position pos;
    if (auto err = pos.set(fen, si)) {
      errors << path << ':' << number << ": " << *err << '\n';
      continue;
    }
    std::string lists[2];
    bool ok = true;
    for (int k = 0; k < 2; ++k) {
      std::istringstream sans(operation(ops, k == 0 ? "bm" : "am"));
      for (std::string san; sans >> san;) {
        core::Move m = core::parse_san(pos, san);
        if (m == core::Move::none()) {
          errors << path << ':' << number << ": '" << san << "' is not a legal move\n";
          ok = false;
        } else {
          if (!lists[k].empty()) lists[k] += ' ';
          lists[k] += pos.to_uci(m);
        }
      }
    }
    std::string id = operation(ops, "id");
    if (ok && !(lists[0].empty() && lists[1].empty()))
      out << fen << '\t' << lists[0] << '\t' << lists[1] << '\t' << id << '\n';
  }
  return 0;
}

}  // namespace vblitz::app
