// UCI command handling. Every malformed line is answered with "info string error: <reason>"
// and leaves the engine's position and options as they were.
#include "uci/uci.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "core/perft.h"
#include "simd/dispatch.h"

#ifndef VBLITZ_VERSION
#define VBLITZ_VERSION "dev"
#endif

namespace vblitz::uci {

namespace {

constexpr size_t kMaxLineLength = 1 << 20;

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Splits "command rest of line" into its first word and the remainder.
std::pair<std::string_view, std::string_view> first_word(std::string_view line) {
  size_t start = line.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {{}, {}};
  size_t end = line.find_first_of(" \t\r\n", start);
  if (end == std::string_view::npos) return {line.substr(start), {}};
  return {line.substr(start, end - start), line.substr(end + 1)};
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

}  // namespace

bool parse_int(std::string_view text, long lo, long hi, long& value) {
  long v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi) return false;
  value = v;
  return true;
}

void print_perft(core::Position& pos, int depth, std::ostream& out) {
  auto start = std::chrono::steady_clock::now();
  uint64_t total = 0;
  for (auto [move, nodes] : core::perft_divide(pos, depth)) {
    out << pos.to_uci(move) << ": " << nodes << '\n';
    total += nodes;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << "\nNodes searched: " << total << '\n';
  out << "Time (ms): " << std::llround(seconds * 1000) << '\n';
  out << "Nodes/second: " << std::llround(total / std::max(seconds, 1e-9)) << std::endl;
}

void Engine::say(const std::string& text) { out_ << text << std::endl; }

bool Engine::handle(std::string_view line) {
  if (line.size() > kMaxLineLength) {
    error("line of " + std::to_string(line.size()) + " characters is too long");
    return true;
  }
  auto [command, args] = first_word(line);
  if (command.empty()) return true;
  if (command == "quit") return false;
  if (command == "uci")
    cmd_uci();
  else if (command == "isready")
    say("readyok");
  else if (command == "ucinewgame")
    game_.set_fen(core::Position::kStartFen, chess960_);
  else if (command == "position")
    cmd_position(args);
  else if (command == "go")
    cmd_go(args);
  else if (command == "setoption")
    cmd_setoption(args);
  else if (command == "d")
    cmd_display();
  else if (command == "perft")
    cmd_perft(args);
  else if (command == "stop" || command == "ponderhit") {
    // Nothing runs in the background yet, so there is nothing to stop.
  } else
    error("unknown command '" + std::string(command.substr(0, 64)) + "'");
  return true;
}

void Engine::cmd_uci() {
  say("id name VBlitz " VBLITZ_VERSION);
  say("id author the VBlitz developers");
  say("option name UCI_Chess960 type check default false");
  say("option name Kernels type combo default vector var vector var scalar var all-vector");
  std::string targets = "option name SimdTarget type combo default best var best";
  for (const std::string& t : simd::available_targets()) targets += " var " + t;
  say(targets);
  say("uciok");
}

void Engine::cmd_position(std::string_view args) {
  std::vector<std::string> words = split_words(args);
  if (words.empty()) return error("position needs 'startpos' or 'fen <FEN>'");
  size_t i = 1;
  std::string fen;
  if (words[0] == "startpos") {
    fen = core::Position::kStartFen;
  } else if (words[0] == "fen") {
    for (; i < words.size() && words[i] != "moves"; ++i) fen += words[i] + ' ';
  } else {
    return error("position needs 'startpos' or 'fen <FEN>', not '" + words[0].substr(0, 64) + "'");
  }
  if (i < words.size() && words[i] != "moves")
    return error("unexpected '" + words[i].substr(0, 64) + "' after position startpos");
  core::Game next;
  if (auto err = next.set_fen(fen, chess960_)) return error("bad FEN: " + *err);
  std::vector<std::string> moves;
  if (i < words.size()) moves.assign(words.begin() + long(i) + 1, words.end());
  if (auto err = next.play(moves)) return error("position: " + *err);
  game_ = std::move(next);
}

void Engine::cmd_go(std::string_view args) {
  std::vector<std::string> words = split_words(args);
  if (words.size() >= 1 && words[0] == "perft") {
    if (words.size() != 2) return error("usage: go perft <depth>");
    return cmd_perft(words[1]);
  }
  error("only 'go perft <depth>' is available: this build has no search yet");
}

void Engine::cmd_perft(std::string_view depth_text) {
  std::string text(depth_text);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  long depth = 0;
  if (!parse_int(text, 1, 64, depth)) return error("perft depth must be a number from 1 to 64");
  core::Position pos = game_.position();
  print_perft(pos, int(depth), out_);
}

void Engine::cmd_setoption(std::string_view args) {
  std::vector<std::string> words = split_words(args);
  size_t value_at = 0;
  std::string name;
  if (words.empty() || words[0] != "name") return error("usage: setoption name <name> [value <value>]");
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "value") {
      value_at = i + 1;
      break;
    }
    name += (name.empty() ? "" : " ") + words[i];
  }
  std::string value;
  for (size_t i = value_at; value_at && i < words.size(); ++i) value += (value.empty() ? "" : " ") + words[i];
  std::string key = lower(name);
  if (key == "kernels") {
    simd::Kernels k;
    if (!simd::parse_kernels(value, k))
      return error("Kernels takes vector, scalar or all-vector, not '" + value + "'");
    simd::set_kernels(k);
    return say("info string " + simd::describe());
  }
  if (key == "simdtarget") {
    if (!simd::set_simd_target(value)) {
      std::string choices = "best";
      for (const std::string& t : simd::available_targets()) choices += ", " + t;
      return error("SimdTarget takes one of " + choices + ", not '" + value.substr(0, 64) + "'");
    }
    return say("info string " + simd::describe());
  }
  if (key == "uci_chess960") {
    std::string v = lower(value);
    if (v != "true" && v != "false") return error("UCI_Chess960 takes true or false, not '" + value + "'");
    chess960_ = v == "true";
    core::Game next;
    if (!next.set_fen(game_.position().fen(), chess960_)) game_ = std::move(next);
    return;
  }
  error("unknown option '" + name.substr(0, 64) + "'");
}

void Engine::cmd_display() {
  const core::Position& pos = game_.position();
  std::ostringstream board;
  for (int r = 7; r >= 0; --r) {
    board << " +---+---+---+---+---+---+---+---+\n";
    for (int f = 0; f < 8; ++f)
      board << " | "
            << " PNBRQK  pnbrqk"[pos.piece_on(core::make_square(core::File(f), core::Rank(r)))];
    board << " | " << r + 1 << '\n';
  }
  board << " +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n";
  out_ << board.str() << "\nFen: " << pos.fen() << std::hex << std::uppercase << std::setfill('0')
       << "\nKey: " << std::setw(16) << pos.key() << "\nPawn key: " << std::setw(16) << pos.pawn_key()
       << "\nPawn+king key: " << std::setw(16) << pos.pawn_king_key() << "\nMaterial key: " << std::setw(16)
       << pos.material_key() << std::dec << "\nCheckers:";
  for (core::Bitboard b = pos.checkers(); b;) {
    core::Square s = core::pop_lsb(b);
    out_ << ' ' << char('a' + core::file_of(s)) << char('1' + core::rank_of(s));
  }
  out_ << std::endl;
}

int run_loop(std::istream& in, std::ostream& out) {
  Engine engine(out);
  out << "info string VBlitz " VBLITZ_VERSION " " << simd::describe() << std::endl;
  for (std::string line; std::getline(in, line);)
    if (!engine.handle(line)) break;
  return 0;
}

}  // namespace vblitz::uci
