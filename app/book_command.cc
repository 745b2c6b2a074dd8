// The book builder and prober behind `vblitz book`.
#include "app/book_command.h"

#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <iostream>

#include "book/book_builder.h"
#include "core/file.h"
#include "core/game.h"
#include "core/text.h"
#include "uci/uci.h"

namespace vblitz::app {

namespace {

constexpr const char* kUsage =
    "usage: vblitz book build GAMES.pgn OUT.bin [--max-ply N] [--min-games N] [--extended OUT.txt]\n"
    "       vblitz book probe BOOK.bin [FEN]\n";

int build(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() < 3) return err << kUsage, 2;
  book::BuildOptions options;
  std::string extended_path;
  for (size_t i = 3; i < args.size(); i += 2) {
    long v = 0;
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--extended" && has_value) {
      extended_path = args[i + 1];
    } else if ((args[i] == "--max-ply" || args[i] == "--min-games") && has_value &&
               uci::parse_int(args[i + 1], 1, 1 << 20, v)) {
      (args[i] == "--max-ply" ? options.max_ply : options.min_games) = int(v);
    } else {
      return err << "bad argument " << core::quote(args[i]) << "\n" << kUsage, 2;
    }
  }
  if (auto error = core::check_input_file(args[1])) return err << *error << '\n', 1;
  std::ifstream pgn(args[1]);
  if (!pgn) return err << "cannot read '" << args[1] << "'\n", 1;
  const auto start = std::chrono::steady_clock::now();
  book::BookBuilder builder(options);
  book::BuildReport report;
  builder.add_pgn(pgn, report);
  for (const std::string& reason : report.skipped) err << "skipped " << reason << '\n';
  const std::vector<book::Entry> entries = builder.polyglot_entries();
  std::ofstream bin(args[2], std::ios::binary);
  bin << book::write_entries(entries);
  if (!bin) return err << "cannot write '" << args[2] << "'\n", 1;
  size_t extended_moves = 0;
  if (!extended_path.empty()) {
    const book::ExtendedBook extended = builder.extended_book();
    extended_moves = extended.size();
    std::ofstream text(extended_path);
    text << extended.write();
    if (!text) return err << "cannot write '" << extended_path << "'\n", 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  out << "games " << report.games << ", used " << report.used << ", skipped " << report.skipped.size()
      << "\nposition-move pairs " << report.positions << ", book entries " << entries.size() << " (min games "
      << options.min_games << ", max ply " << options.max_ply << ")";
  if (!extended_path.empty()) out << ", extended book moves " << extended_moves;
  out << "\ntime " << seconds << " s, peak memory " << usage.ru_maxrss / 1024 << " MB\n";
  return 0;
}

int probe(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() < 2) return err << kUsage, 2;
  book::PolyglotBook book;
  if (auto e = book.load(args[1])) return err << "book: " << *e << '\n', 1;
  std::string fen = core::Position::kStartFen;
  if (args.size() > 2) {
    fen.clear();
    for (size_t i = 2; i < args.size(); ++i) fen += args[i] + ' ';
  }
  core::Game game;
  if (auto e = game.set_fen(fen)) return err << "bad FEN: " << *e << '\n', 2;
  const core::Position& pos = game.position();
  out << std::hex << "key " << book::polyglot_key(pos) << std::dec << '\n';
  for (const book::BookMove& b : book.moves(pos)) out << pos.to_uci(b.move) << ' ' << b.weight << '\n';
  return 0;
}

}  // namespace

int run_book_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && args[0] == "build") return build(args, out, err);
  if (!args.empty() && args[0] == "probe") return probe(args, out, err);
  err << kUsage;
  return 2;
}

}  // namespace vblitz::app
