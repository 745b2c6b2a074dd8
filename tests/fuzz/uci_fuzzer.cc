// libFuzzer target over the UCI command parser, the FEN parser, the PGN reader, the Polyglot
// book reader, the parameter file reader, the network file loader, the packed training records and
// the game-chain decoder. Built by
// the `fuzz` preset (clang); `ctest --preset fuzz` runs it for a bounded time.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "book/book_builder.h"
#include "core/game.h"
#include "core/movegen.h"
#include "data/game_chain.h"
#include "data/packed_position.h"
#include "eval/network.h"
#include "eval/param_blocks.h"
#include "uci/uci.h"

namespace {

using namespace vblitz;

// The whole input as a FEN: accepted positions must be consistent and survive a round trip,
// and every legal move must make and unmake cleanly.
void fuzz_fen(const std::string& text) {
  core::StateInfo si;
  core::Position pos;
  if (pos.set(text, si)) return;
  if (!pos.consistency_error().empty()) __builtin_trap();
  core::StateInfo again_si;
  core::Position again;
  if (again.set(pos.fen(), again_si) || again.fen() != pos.fen()) __builtin_trap();
  for (core::Move m : core::MoveList<core::LEGAL>(pos)) {
    core::StateInfo st;
    pos.do_move(m, st);
    pos.undo_move(m);
  }
  if (pos.fen() != again.fen()) __builtin_trap();
}

// The whole input as PGN (every game read, replayed and counted into a book) and as a Polyglot
// book image (probed at the start position).
void fuzz_books(const std::string& text) {
  std::istringstream in(text);
  book::BookBuilder builder({1024, 1});
  book::BuildReport report;
  builder.add_pgn(in, report);
  book::PolyglotBook from_pgn;
  if (from_pgn.load_bytes(book::write_entries(builder.polyglot_entries())) &&
      builder.polyglot_entries().size())
    __builtin_trap();  // a built book always reads back
  book::PolyglotBook raw;
  if (!raw.load_bytes(text)) {
    core::Game start;
    for (const book::BookMove& m : raw.moves(start.position()))
      if (!start.position().is_legal(m.move)) __builtin_trap();
  }
}

// The whole input as a parameter file: an accepted one writes out and reads back the same.
void fuzz_param_file(const std::string& text) {
  eval::ParamSet set = eval::default_param_set();
  if (eval::read_param_set(text, set)) return;
  eval::ParamSet again = eval::default_param_set();
  if (eval::read_param_set(eval::write_param_set(set), again) ||
      eval::write_param_set(again) != eval::write_param_set(set))
    __builtin_trap();
}

// The whole input as a network file, as it is and with its checksum made right (so that the
// checks behind the checksum are reached): an accepted network serializes back to the same
// bytes and evaluates the start position.
void fuzz_network(const std::string& text) {
  std::string fixed = text;
  if (fixed.size() >= 8) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i + 8 < fixed.size(); ++i)
      h = (h ^ static_cast<unsigned char>(fixed[i])) * 0x100000001b3ULL;
    for (int i = 0; i < 8; ++i) fixed[fixed.size() - 8 + size_t(i)] = char(uint8_t(h >> (8 * i)));
  }
  for (const std::string* bytes : {&text, static_cast<const std::string*>(&fixed)}) {
    eval::Network net;
    if (net.parse(*bytes)) continue;
    if (net.serialize() != *bytes) __builtin_trap();
    core::Game start;
    eval::evaluate_network(net, start.position());
  }
}

// The whole input as packed training records: a record that passes its check makes a FEN
// that the position parser reads or rejects cleanly, and packs back to a record that passes.
void fuzz_packed(const std::string& text) {
  for (size_t at = 0; at + data::PackedPosition::kBytes <= text.size(); at += data::PackedPosition::kBytes) {
    data::PackedPosition p;
    std::copy_n(reinterpret_cast<const uint8_t*>(text.data()) + at, p.bytes.size(), p.bytes.begin());
    if (p.check()) continue;
    core::Game game;
    if (game.set_fen(p.fen())) continue;
    if (data::PackedPosition::pack(game.position(), p.white_score(), p.result()).check()) __builtin_trap();
  }
}

// Commands whose cost grows without bound with their arguments (memory, threads, perft or
// bench depth) are left out; everything else goes to one long-lived engine.
bool expensive(const std::string& line) {
  std::string lower;
  for (char c : line) lower += char(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("hash") != std::string::npos || lower.find("threads") != std::string::npos ||
         lower.find("perft") != std::string::npos || lower.find("bench") != std::string::npos;
}

}  // namespace

// The whole input as a game chain of either version (with its magic put in front): the records
// decoded before any fault encode and decode again to the same records.
void fuzz_chain(const std::string& text) {
  for (std::string_view magic : {data::kChainMagic, data::kChainMagicV1}) {
    std::vector<data::PackedPosition> records;
    data::decode_chain(std::string(magic) + text, records);
    std::vector<data::PackedPosition> again;
    if (data::decode_chain(data::encode_chain(records), again) || again != records) __builtin_trap();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::ostringstream sink;
  static uci::Engine engine(sink);
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz_fen(text);
  fuzz_books(text);
  fuzz_param_file(text);
  fuzz_network(text);
  fuzz_packed(text);
  fuzz_chain(text);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (expensive(line)) continue;
    engine.handle(line);
    engine.stop_search();  // a `go` must not outlive its input
  }
  sink.str("");
  return 0;
}
