// vblitz: the UCI engine when run without a command, else one command of the command line
// (`vblitz --help` lists them; print_help below). Each command's own file documents its flags.
#include <chrono>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "app/book_command.h"
#include "app/build_info.h"
#include "app/epd.h"
#include "app/speed_commands.h"
#include "cluster/cluster.h"
#include "core/game.h"
#include "data/data_command.h"
#include "data/datagen.h"
#include "data/openings.h"
#include "eval/param_blocks.h"
#include "search/threads.h"
#include "search/topology.h"
#include "simd/dispatch.h"
#include "tune/network_trainer.h"
#include "tune/spsa.h"
#include "tune/tune_command.h"
#include "uci/uci.h"

namespace {

// Applies and removes the global flags (--kernels, --simd-target, --eval-mode, --eval-file,
// --thread-binding) from args; false on error.
bool apply_global_flags(std::vector<std::string>& args, vblitz::search::EvalMode& eval_mode,
                        vblitz::search::Binding& binding) {
  using namespace vblitz;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--kernels" && args[i] != "--simd-target" && args[i] != "--eval-mode" &&
        args[i] != "--eval-file" && args[i] != "--thread-binding") {
      rest.push_back(args[i]);
      continue;
    }
    if (i + 1 == args.size()) {
      std::cerr << args[i] << " needs a value\n";
      return false;
    }
    const std::string& value = args[++i];
    simd::Kernels k;
    if (args[i - 1] == "--eval-mode") {
      if (value != "classic" && value != "network") {
        std::cerr << "--eval-mode takes classic or network, not '" << value << "'\n";
        return false;
      }
      eval_mode = value == "classic" ? search::EvalMode::kClassic : search::EvalMode::kNetwork;
    } else if (args[i - 1] == "--thread-binding") {
      if (!search::parse_binding(value, binding)) {
        std::cerr << "--thread-binding takes auto, none or cores, not '" << value << "'\n";
        return false;
      }
    } else if (args[i - 1] == "--eval-file") {
      if (auto error = eval::load_active_network(value)) {
        std::cerr << "--eval-file: " << *error << '\n';
        return false;
      }
    } else if (args[i - 1] == "--kernels") {
      if (!simd::parse_kernels(value, k)) {
        std::cerr << "--kernels takes vector, scalar or all-vector, not '" << value << "'\n";
        return false;
      }
      simd::set_kernels(k);
    } else if (!simd::set_simd_target(value)) {
      std::cerr << "--simd-target takes best or one of:";
      for (const std::string& t : simd::available_targets()) std::cerr << ' ' << t;
      std::cerr << ", not '" << value << "'\n";
      return false;
    }
  }
  args = rest;
  return true;
}

// Parses a tune/ command's arguments with `parse`; on an error prints it and the usage.
template <typename Options, typename Parse>
bool parsed(const std::vector<std::string>& args, Options& options, Parse parse, const std::string& usage) {
  if (auto err = parse(args, options)) {
    std::cerr << *err << '\n' << usage << '\n';
    return false;
  }
  return true;
}

}  // namespace

// `vblitz --help`: every command and flag.
void print_help() {
  std::cout
      << "VBlitz " VBLITZ_VERSION
         " - a vectorized chess engine in the spirit of Cray Blitz\n\n"
         "usage: vblitz [flags] [command ...]\n"
         "Without a command, vblitz is a UCI engine on standard input and output.\n\n"
         "flags (before or after the command):\n"
         "  --kernels vector|scalar|all-vector   Highway kernels or their scalar twins\n"
         "  --simd-target best|TARGET            cap Highway's dispatch (see --version)\n"
         "  --eval-mode classic|network          the evaluation (default network)\n"
         "  --thread-binding auto|none|cores     where search threads run (docs/benchmarking.md)\n"
         "  --eval-file NET.nnue                 load a network file\n"
         "  --help, --version\n\n"
         "commands:\n"
         "  perft DEPTH [FEN]                    move-generation count by root move\n"
         "  bench [DEPTH [THREADS [HASH]]] [--json F]  fixed search; 'Nodes searched' is the signature\n"
         "  speedtest [THREADS [HASH [SECONDS]]] [--json F]\n"
         "                                       the whole machine searching games as in play\n"
         "  sweep [bench|speedtest] [--rounds N] [--depth D] [--threads T] [--seconds S] [--json F]\n"
         "                                       every kernel setting and SIMD target, ratios to scalar\n"
         "  params                               the default evaluation parameters\n"
         "  openings OUT.epd [...]               a balanced opening set (docs/matches.md)\n"
         "  options --markdown                   the UCI options as docs/uci.md's table\n"
         "  epdmoves FILE                        EPD bm/am moves in UCI notation\n"
         "  book build|probe ...                 Polyglot books from PGN (docs/book.md)\n"
         "  datagen OUT [...]                    self-play data (docs/data.md)\n"
         "  data stats|prepare|export|pack|unpack ...  network data (docs/data.md)\n"
         "  train DATA --out NET [...]           fit the network (docs/network.md)\n"
         "  tune DATA --out FILE [...]           fit the classic parameters (docs/tuning.md)\n"
         "  spsa OUTDIR [...]                    tune the search's constants in self-play (docs/tuning.md)\n";
}

// `vblitz --version`: version, commit, build type, compiler and the SIMD targets compiled in.
void print_version() {
  const vblitz::app::BuildInfo b = vblitz::app::build_info();
  std::cout << "VBlitz " << b.version << " (commit " << b.commit << ", " << b.build_type << " build, "
            << b.compiler << ")\nSIMD targets compiled in and supported here:";
  for (const std::string& t : vblitz::simd::available_targets()) std::cout << ' ' << t;
  std::cout << "\n"
            << vblitz::simd::describe() << "\ntopology: " << vblitz::search::machine_topology().summary()
            << '\n';
}

// `datagen` on every process of a cluster run: rank r plays the seed + 1,000,000 r, so its shards
// and run record are its own; rank 0 logs its progress and the cluster's total. One process: the
// plain run.
int run_datagen_on_every_rank(vblitz::data::DatagenOptions options) {
  using namespace vblitz;
  const int rank = cluster::rank(), ranks = cluster::ranks();
  if (ranks > 1 && options.format == data::DataFormat::kText) {
    if (rank == 0) std::cerr << "datagen in a cluster run writes shards: add --format packed or chain\n";
    return 2;
  }
  options.seed += 1000000 * uint64_t(rank);
  std::ostream silent(nullptr);
  long positions = 0;
  const auto start = std::chrono::steady_clock::now();
  const int status = data::run_datagen(options, rank == 0 ? std::cerr : silent, &positions);
  std::vector<uint64_t> totals = {uint64_t(positions), status != 0};
  // Every rank plays as many games: one that takes twice this one's time and a minute more has
  // stopped.
  const auto own =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  cluster::sum(totals, 2 * own + std::chrono::milliseconds(60000));
  if (ranks > 1 && rank == 0)
    std::cerr << "cluster: " << ranks << " processes (seeds " << options.seed << " + 1000000 r), "
              << totals[0] << " new positions in all"
              << (totals[1] ? ", " + std::to_string(totals[1]) + " processes failed" : "") << '\n';
  return totals[1] ? 1 : status;
}

// The command line's job on this process. In a cluster run (mpirun) every rank runs it: the UCI
// loop and perft share their work, rank 0 alone prints; other commands run on one process.
int run(std::vector<std::string> args) {
  using namespace vblitz;
  const bool root = cluster::rank() == 0;
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "--version")) {
    if (root) args[0] == "--version" ? print_version() : print_help();
    return 0;
  }
  search::EvalMode eval_mode = search::kDefaultEvalMode;
  search::Binding binding = search::Binding::kAuto;
  if (!apply_global_flags(args, eval_mode, binding)) return 2;
  std::ostream silent(nullptr);  // what ranks other than 0 print to
  std::ostream& out = root ? std::cout : silent;
  if (args.empty()) {
    // The flags that are options of the engine become its first setoption, as a GUI's would.
    const std::vector<std::string> startup = {
        "setoption name EvalMode value " + std::string(search::eval_mode_name(eval_mode)),
        "setoption name ThreadBinding value " + std::string(search::binding_name(binding))};
    return uci::run_loop(std::cin, out, startup);
  }
  if (cluster::ranks() > 1 && args[0] != "perft" && args[0] != "bench" && args[0] != "datagen") {
    if (root)
      std::cerr << "'" << args[0] << "' runs on one process; cluster runs support the UCI loop, "
                << "bench, perft and datagen (docs/cluster.md)\n";
    return 2;
  }

  const std::string command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());  // the command's arguments
  if (command == "perft") {
    long depth = 0, threads = 1;
    for (size_t i = 1; i + 1 < args.size(); ++i) {
      if (args[i] != "--threads") continue;
      if (!uci::parse_int(args[i + 1], 1, search::ThreadPool::kMaxThreads, threads)) threads = 0;
      args.erase(args.begin() + long(i), args.begin() + long(i) + 2);
      break;
    }
    if (args.size() < 2 || !uci::parse_int(args[1], 1, 64, depth) || threads == 0) {
      std::cerr << "usage: vblitz perft <depth 1-64> [FEN] [--threads 1-1024]\n";
      return 2;
    }
    std::string fen = core::Position::kStartFen;
    if (args.size() > 2) {
      fen.clear();
      for (size_t i = 2; i < args.size(); ++i) fen += args[i] + ' ';
    }
    core::Game game;
    if (auto err = game.set_fen(fen)) {
      std::cerr << "bad FEN: " << *err << '\n';
      return 2;
    }
    out << "info string " << simd::describe() << ", threads " << threads
        << (cluster::ranks() > 1 ? ", processes " + std::to_string(cluster::ranks()) : "") << '\n';
    uci::print_perft(game.position(), int(depth), out, nullptr, int(threads));
    return 0;
  }
  if (command == "epdmoves") {
    if (args.size() != 2) {
      std::cerr << "usage: vblitz epdmoves <file.epd>\n";
      return 2;
    }
    return app::print_epd_moves(args[1], std::cout, std::cerr);
  }
  if (command == "book") return app::run_book_command(rest, std::cout, std::cerr);
  if (command == "tune") return tune::run_tune_command(rest, std::cerr);
  if (command == "data") return data::run_data_command(rest, std::cout, std::cerr);
  if (command == "train") {
    tune::TrainOptions options;
    if (!parsed(rest, options, tune::parse_train_args, tune::train_usage())) return 2;
    return tune::run_train(options, std::cerr);
  }
  if (command == "datagen") {
    data::DatagenOptions options;
    options.eval_mode = eval_mode;
    if (!parsed(rest, options, data::parse_datagen_args, data::datagen_usage())) return 2;
    return run_datagen_on_every_rank(options);
  }
  if (command == "spsa") {
    tune::SpsaOptions options;
    options.eval_mode = eval_mode;
    if (!parsed(rest, options, tune::parse_spsa_args, tune::spsa_usage())) return 2;
    return tune::run_spsa(options, std::cerr);
  }
  if (command == "openings") {
    data::OpeningsOptions options;
    options.eval_mode = eval_mode;
    if (!parsed(rest, options, data::parse_openings_args, data::openings_usage())) return 2;
    return data::run_openings(options, std::cerr);
  }
  if (command == "options") {
    if (args.size() != 2 || args[1] != "--markdown") {
      std::cerr << "usage: vblitz options --markdown\n";
      return 2;
    }
    std::ostream quiet(nullptr);
    uci::Engine engine(quiet);
    std::cout << uci::options_markdown(engine.options());
    return 0;
  }
  if (command == "params") {
    std::cout << eval::write_param_set(eval::default_param_set());
    return 0;
  }
  if (app::is_speed_command(command)) {
    search::Options options;
    options.eval_mode = eval_mode;
    options.thread_binding = binding;
    return app::run_speed_command(command, rest, options, out, std::cerr);
  }
  std::cerr << "unknown command '" << command << "' (vblitz --help lists them)\n";
  return 2;
}

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (auto error = vblitz::cluster::start(&argc, &argv)) {
    std::cerr << "vblitz: " << *error << '\n';
    return 1;
  }
  int code = 1;
  try {
    code = run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::bad_alloc&) {  // a one-shot command's data outgrew memory: say so, no abort
    std::cerr << "vblitz: not enough memory for '" << (argc > 1 ? argv[1] : "") << "'\n";
  } catch (const std::exception& e) {
    std::cerr << "vblitz: " << e.what() << '\n';
  }
  vblitz::cluster::finish();
  return code;
}
