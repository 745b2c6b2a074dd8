// The engine's UCI options, one declaration each: name, type, default, range or values, one
// line of help (docs/uci.md's table is made from it) and what setting it does.
#include <chrono>

#include "cluster/cluster.h"
#include "core/file.h"
#include "core/text.h"
#include "eval/network.h"
#include "search/move_picker.h"
#include "search/threads.h"
#include "simd/dispatch.h"
#include "uci/options.h"
#include "uci/uci.h"

namespace vblitz::uci {

namespace {

constexpr uintmax_t kMaxParamFileBytes = 1 << 24;  // parameter files are a few KB

using Result = std::optional<std::string>;
constexpr Result kDone = std::nullopt;

Option declare(std::string name, OptionType type, std::string fallback) {
  Option o;
  o.name = std::move(name);
  o.type = type;
  o.default_value = std::move(fallback);
  return o;
}

Option check(std::string name, bool fallback, std::string help, std::function<Result(bool)> set) {
  Option o = declare(std::move(name), OptionType::kCheck, fallback ? "true" : "false");
  o.help = std::move(help);
  o.set = [set = std::move(set)](const OptionValue& v) { return set(v.flag); };
  return o;
}

Option spin(std::string name, long min, long max, long fallback, std::string unit, std::string help,
            std::function<Result(long)> set) {
  Option o = declare(std::move(name), OptionType::kSpin, std::to_string(fallback));
  o.min = min;
  o.max = max;
  o.unit = std::move(unit);
  o.help = std::move(help);
  o.set = [set = std::move(set)](const OptionValue& v) { return set(v.number); };
  return o;
}

Option combo(std::string name, std::string fallback, std::vector<std::string> vars, std::string help,
             std::function<Result(const std::string&)> set) {
  Option o = declare(std::move(name), OptionType::kCombo, std::move(fallback));
  o.vars = std::move(vars);
  o.help = std::move(help);
  o.set = [set = std::move(set)](const OptionValue& v) { return set(v.text); };
  return o;
}

bool empty_path(const std::string& path) { return path.empty() || path == "<empty>"; }

// A string option names a file. In a cluster run every process loads it, so it is accepted only
// when every process reads the same bytes (size and checksum compared over the processes);
// otherwise it is refused on every one, which keeps their searches in step.
Option text(std::string name, std::string help, std::function<Result(const std::string&)> set) {
  Option o = declare(name, OptionType::kString, "<empty>");
  o.help = std::move(help);
  o.set = [name, set = std::move(set)](const OptionValue& v) {
    if (cluster::ranks() > 1 && !empty_path(v.text)) {
      const auto start = std::chrono::steady_clock::now();
      const uint64_t fingerprint = core::file_fingerprint(v.text);
      const auto read =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
      if (!cluster::same_on_every_rank(fingerprint, cluster::kAnswerDeadline + 2 * read))
        return Result(name + ": " + core::quote(v.text) +
                      " differs between the processes (or some cannot read it); refused on every process");
    }
    return set(v.text);
  };
  return o;
}

Option button(std::string name, std::string help, std::function<void()> press) {
  Option o = declare(std::move(name), OptionType::kButton, "");
  o.help = std::move(help);
  o.set = [press = std::move(press)](const OptionValue&) {
    press();
    return kDone;
  };
  return o;
}

}  // namespace

// Loads `path` into `book` (a PolyglotBook or an ExtendedBook); `<empty>` unloads it, and a
// file that cannot be used is reported and leaves no book.
template <typename Book>
void Engine::load_book_file(Book& book, const std::string& path, const char* option, const char* label,
                            const char* unit) {
  Book loaded;
  if (path.empty() || path == "<empty>") {
    book.clear();
  } else if (auto err = loaded.load(path)) {
    book.clear();
    error(std::string(option) + ": " + *err + "; playing without " + (label[0] == 'e' ? "an " : "a ") +
          label);
  } else {
    book = std::move(loaded);
    say(std::string("info string ") + label + " " + path + ": " + std::to_string(book.size()) + " " + unit);
  }
}

std::vector<Option> Engine::make_options() {
  std::vector<Option> o;
  o.push_back(
      spin("Hash", 1, 65536, 16, "a size in MB", "transposition table in MB (any size)", [this](long mb) {
        if (tt_.resize(size_t(mb))) return kDone;
        return Result("could not allocate " + std::to_string(mb) + " MB (this machine has " +
                      std::to_string(search::physical_memory_megabytes()) + " MB); Hash stays " +
                      std::to_string(tt_.megabytes()));
      }));
  o.push_back(spin("Threads", 1, search::ThreadPool::kMaxThreads, 1, "a number",
                   "search threads (Lazy SMP); a node limit counts the nodes of all threads", [this](long n) {
                     pool_.resize(int(n));
                     // OpenMP's team starts now, on the search thread, not inside a search.
                     worker_.start([this] { pool_.warm_up(); });
                     worker_.wait();
                     return kDone;
                   }));
  o.push_back(combo("ThreadBinding", "auto", {"auto", "none", "cores"},
                    "`cores`: each search thread on its own hardware thread, spread over packages and "
                    "NUMA nodes, cores before SMT siblings; `auto`: so where there are several NUMA "
                    "nodes; `none`: where the system puts them",
                    [this](const std::string& v) {
                      search::parse_binding(v, options_.thread_binding);
                      return kDone;
                    }));
  o.push_back(button("Clear Hash", "empties the table and the history", [this] {
    tt_.clear();
    pool_.clear();
  }));
  o.push_back(check("Ponder", false, "the GUI may send `go ponder`", [](bool) { return kDone; }));
  o.push_back(spin("Move Overhead", 0, 5000, 10, "milliseconds",
                   "ms kept back per move for the GUI and network", [this](long ms) {
                     options_.move_overhead = ms;
                     return kDone;
                   }));
  o.push_back(check("UCI_Chess960", false, "Chess960 castling notation (king takes rook)", [this](bool on) {
    chess960_ = on;
    game_.position().set_chess960(on);  // the game and its history stay
    return kDone;
  }));
  o.push_back(
      check("UCI_ShowWDL", false, "`wdl W D L` (permille, logistic model) after each score", [this](bool on) {
        show_wdl_ = on;
        return kDone;
      }));
  o.push_back(check("UCI_LimitStrength", false,
                    "play at the strength of UCI_Elo: a node budget per move and random root bonuses",
                    [this](bool on) {
                      limit_strength_ = on;
                      return kDone;
                    }));
  o.push_back(spin("UCI_Elo", search::kMinElo, search::kMaxElo, search::kMinElo, "Elo",
                   "the strength UCI_LimitStrength plays at, on Stockfish 15.1's UCI_Elo scale",
                   [this](long e) {
                     elo_ = int(e);
                     return kDone;
                   }));
  o.push_back(spin("MultiPV", 1, 256, 1, "a number", "best lines searched and reported (`multipv N`)",
                   [this](long n) {
                     options_.multi_pv = int(n);
                     return kDone;
                   }));
  o.push_back(combo("Kernels", "vector", {"vector", "scalar", "all-vector"},
                    "Highway kernels, their scalar twins, or every kernel vectorized (docs/simd.md)",
                    [this](const std::string& v) {
                      simd::Kernels k{};
                      simd::parse_kernels(v, k);
                      kernels_.set_kernels(k);
                      say("info string " + kernels_.describe());
                      return kDone;
                    }));
  std::vector<std::string> targets = {"best"};
  for (const std::string& t : simd::available_targets()) targets.push_back(t);
  Option target = combo("SimdTarget", "best", targets, "caps Highway's run-time dispatch at one target",
                        [this](const std::string& v) {
                          kernels_.set_target(v);
                          say("info string " + kernels_.describe());
                          return kDone;
                        });
  target.docs_values = "`best` or a Highway target this binary and CPU support (`vblitz --version`)";
  o.push_back(std::move(target));
  o.push_back(combo("TTLayout", "bucket", {"bucket", "cray"},
                    "`bucket` (eight slots in one cache line) or `cray` (Cray Blitz's scattered slots)",
                    [this](const std::string& v) {
                      tt_.set_layout(v == "bucket" ? search::TranspositionTable::Layout::kBucket
                                                   : search::TranspositionTable::Layout::kCray);
                      return kDone;
                    }));
  o.push_back(
      text("ParamFile",
           "the classic evaluation's parameters from a file (`vblitz params` writes one), with "
           "optional `[e4]`/`[d4]`/`[flank]` blocks",
           [this](const std::string& path) {
             eval::ParamSet loaded = eval::default_param_set();
             if (!empty_path(path)) {
               std::string content;
               if (auto err = core::read_file(path, kMaxParamFileBytes, content))
                 return Result("ParamFile: " + *err + "; parameters unchanged");
               if (auto err = eval::read_param_set(content, loaded))
                 return Result("ParamFile " + core::quote(path) + ": " + *err + "; parameters unchanged");
             }
             param_set_ = loaded;
             apply_parameters();
             say("info string parameters " + (empty_path(path) ? std::string("default") : "from " + path));
             return kDone;
           }));
  o.push_back(text("SearchParamFile",
                   "the search's tunable constants from a file of `name value` lines (`vblitz spsa` "
                   "writes one; docs/tuning.md); unnamed ones keep their defaults",
                   [this](const std::string& path) {
                     search::SearchParams loaded;
                     if (!empty_path(path)) {
                       std::string content;
                       if (auto err = core::read_file(path, kMaxParamFileBytes, content))
                         return Result("SearchParamFile: " + *err + "; search parameters unchanged");
                       if (auto err = search::read_search_params(content, loaded))
                         return Result("SearchParamFile " + core::quote(path) + ": " + *err +
                                       "; search parameters unchanged");
                     }
                     options_.params = loaded;
                     say("info string search parameters " +
                         (empty_path(path) ? std::string("default") : "from " + path));
                     return kDone;
                   }));
  o.push_back(combo("ParamBlock", "auto", {"auto", "default", "e4", "d4", "flank"},
                    "`auto`: with `OwnBook`, the block of the family the book line opened (else `default`)",
                    [this](const std::string& v) {
                      forced_family_ = eval::parse_family(v);
                      if (forced_family_) select_param_block();
                      return kDone;
                    }));
  o.push_back(check("OwnBook", false, "play from the Polyglot book in `BookFile`", [this](bool on) {
    own_book_ = on;
    return kDone;
  }));
  o.push_back(text("BookFile", "a Polyglot `.bin` book; a file that cannot be used leaves no book",
                   [this](const std::string& path) {
                     load_book_file(book_, path, "BookFile", "book", "entries");
                     return kDone;
                   }));
  o.push_back(spin("BookDepth", 1, 255, 255, "moves", "use the book for the first N moves of each side",
                   [this](long n) {
                     book_depth_ = int(n);
                     return kDone;
                   }));
  o.push_back(spin("BookVariety", 0, 100, 50, "a percentage",
                   "0 plays the heaviest book move, 100 picks in proportion to the weights", [this](long n) {
                     book_variety_ = int(n);
                     return kDone;
                   }));
  o.push_back(
      text("ExtendedBook",
           "Deep Blue's extended book (`vblitz book build ... --extended`): root bonuses up to half a pawn",
           [this](const std::string& path) {
             load_book_file(extended_book_, path, "ExtendedBook", "extended book", "moves");
             return kDone;
           }));
  const std::pair<const char*, int eval::Style::*> styles[] = {
      {"King Safety", &eval::Style::king_safety},
      {"Passed Pawns", &eval::Style::passed_pawns},
      {"Mobility", &eval::Style::mobility},
      {"Pawn Structure", &eval::Style::pawn_structure}};
  for (const auto& [name, field] : styles)
    o.push_back(spin(name, 0, 200, 100, "a percentage",
                     "style: percent of this group of the classic evaluation",
                     [this, field = field](long percent) {
                       style_.*field = int(percent);
                       apply_parameters();
                       return kDone;
                     }));
  o.push_back(spin("Contempt", -100, 100, 0, "centipawns", "centipawns a draw is worth less to the engine",
                   [this](long cp) {
                     options_.contempt = int(cp);
                     return kDone;
                   }));
  o.push_back(
      spin("Killers", 1, search::kMaxKillers, 2, "a number", "killer moves kept per ply", [this](long n) {
        options_.killer_count = int(n);
        return kDone;
      }));
  o.push_back(check("DrawByPly", false, "Cray Blitz's ply-dependent draw score", [this](bool on) {
    options_.draw_by_ply = on;
    return kDone;
  }));
  o.push_back(check("DelayPenalty", false, "micro-Max's delay penalty", [this](bool on) {
    options_.delay_penalty = on;
    return kDone;
  }));
  o.push_back(combo("EvalMode", search::eval_mode_name(search::kDefaultEvalMode), {"classic", "network"},
                    "`network` (the efficiently updatable network) or `classic` (Cray Blitz's evaluation)",
                    [this](const std::string& v) {
                      options_.eval_mode =
                          v == "classic" ? search::EvalMode::kClassic : search::EvalMode::kNetwork;
                      return kDone;
                    }));
  o.push_back(text("EvalFile", "loads a network file; one that cannot be used leaves the current network",
                   [this](const std::string& path) {
                     if (empty_path(path)) return Result("EvalFile needs a file name; network unchanged");
                     auto loaded = std::make_shared<eval::Network>();
                     if (auto err = eval::read_network(path, *loaded))
                       return Result("EvalFile " + *err + "; network unchanged");
                     options_.network = std::move(loaded);
                     say("info string network " + eval::network_name(*options_.network) + " from " + path);
                     return kDone;
                   }));
  Option share = spin("ClusterShareDepth", 1, 64, search::SearchLink::kDefaultMinDepth, "plies",
                      "table stores at least this deep go to the other processes", [this](long depth) {
                        cluster_search_.min_depth = int(depth);
                        return kDone;
                      });
  share.cluster_only = true;
  o.push_back(std::move(share));
  Option exchange = combo("ClusterExchange", "ring", {"ring", "allgather"},
                          "`ring` (each process sends to the next) or `allgather` (to every other one)",
                          [this](const std::string& v) {
                            cluster_search_.exchange =
                                v == "ring" ? cluster::Exchange::kRing : cluster::Exchange::kAllGather;
                            return kDone;
                          });
  exchange.cluster_only = true;
  o.push_back(std::move(exchange));
  return o;
}

}  // namespace vblitz::uci
