// The match: its command line, the openings, the games on worker threads, and the standing.
#include "match/runner.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "book/pgn.h"
#include "core/game.h"
#include "core/text.h"

namespace vblitz::match {

namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

std::optional<std::string> parse_int(const std::string& key, const std::string& text, long lo, long hi,
                                     long& out) {
  const auto v = core::parse_long(text, lo, hi);
  if (!v)
    return key + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not " +
           core::quote(text);
  out = *v;
  return std::nullopt;
}

std::optional<std::string> parse_bool(const std::string& key, const std::string& text, bool& out) {
  if (text == "true") return out = true, std::nullopt;
  if (text == "false") return out = false, std::nullopt;
  return key + " takes true or false, not " + core::quote(text);
}

// A time control: "inf", "B" or "B+I" in seconds (decimals allowed).
std::optional<std::string> parse_time_control(const std::string& text, Limit& limit) {
  if (text == "inf") {
    limit.clock = false;
    return std::nullopt;
  }
  const size_t plus = text.find('+');
  const auto base = core::parse_double(text.substr(0, plus), 0, 1e7);
  const auto increment = plus == std::string::npos ? std::optional<double>(0)
                                                   : core::parse_double(text.substr(plus + 1), 0, 1e6);
  if (!base || !increment || *base <= 0)
    return "tc takes inf, SECONDS or SECONDS+INCREMENT (e.g. 10+0.1), not " + core::quote(text);
  limit.clock = true;
  limit.base_ms = std::llround(*base * 1000);
  limit.increment_ms = std::llround(*increment * 1000);
  return std::nullopt;
}

// One engine's settings (from -engine, then -each for what -engine does not set).
std::optional<std::string> apply_engine_settings(const KeyValues& settings, EngineConfig& config,
                                                 Limit& limit, std::string& time_control) {
  std::map<std::string, bool> seen;
  for (const auto& [key, value] : settings) {
    if (key.rfind("option.", 0) == 0) {
      const std::string name = key.substr(7);
      if (name.empty()) return std::string("option. needs a name (option.Hash=64)");
      auto same = std::find_if(config.options.begin(), config.options.end(),
                               [&](const auto& o) { return o.first == name; });
      if (same == config.options.end()) config.options.emplace_back(name, value);
      continue;  // the first setting of a name wins: -engine's come before -each's
    }
    if (key == "arg") {  // each adds one argument, in order (cutechess's arg=)
      config.args.push_back(value);
      continue;
    }
    if (seen[key]) continue;
    seen[key] = true;
    long number = 0;
    if (key == "cmd") {
      config.cmd = value;
    } else if (key == "name") {
      config.name = value;
    } else if (key == "args") {
      std::istringstream words(value);
      for (std::string w; words >> w;) config.args.push_back(w);
    } else if (key == "proto") {
      if (value != "uci" && value != "xboard") return "proto " + core::quote(value) + ": uci or xboard";
      config.protocol = value == "xboard" ? Protocol::kXboard : Protocol::kUci;
    } else if (key == "tc") {
      if (auto e = parse_time_control(value, limit)) return e;
      time_control = value;
    } else if (key == "nodes") {
      if (auto e = parse_int("nodes", value, 1, 1L << 50, number)) return e;
      limit.nodes = uint64_t(number);
    } else if (key == "depth") {
      if (auto e = parse_int("depth", value, 1, 255, number)) return e;
      limit.depth = int(number);
    } else if (key == "ponder") {
      if (auto e = parse_bool("ponder", value, config.ponder)) return e;
    } else if (key == "timemargin") {
      if (auto e = parse_int("timemargin", value, 0, 1000000, number)) return e;
      limit.margin_ms = number;
    } else {
      return "unknown engine setting " + core::quote(key + "=" + value);
    }
  }
  return std::nullopt;
}

// Splits "key=value" tokens up to the next flag; false for a token without '='.
std::optional<std::string> take_key_values(const std::vector<std::string>& args, size_t& i,
                                           const std::string& flag, KeyValues& out) {
  while (i + 1 < args.size() &&
         !(args[i + 1].size() > 1 && args[i + 1][0] == '-' && args[i + 1].find('=') == std::string::npos)) {
    const std::string& token = args[++i];
    if (token == "ponder") {  // cutechess's bare word for ponder=true
      out.emplace_back("ponder", "true");
      continue;
    }
    const size_t eq = token.find('=');
    if (eq == std::string::npos || eq == 0)
      return flag + " takes key=value settings, not " + core::quote(token);
    out.emplace_back(token.substr(0, eq), token.substr(eq + 1));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> parse_arguments(const std::vector<std::string>& args, MatchOptions& o) {
  std::vector<KeyValues> engines;
  KeyValues each;
  bool games_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    KeyValues kv;
    const auto value = [&](std::string& out) -> std::optional<std::string> {
      if (i + 1 >= args.size()) return flag + " needs a value";
      out = args[++i];
      return std::nullopt;
    };
    long number = 0;
    std::string text;
    if (flag == "-engine") {
      if (auto e = take_key_values(args, i, flag, kv)) return e;
      engines.push_back(kv);
    } else if (flag == "-each") {
      if (auto e = take_key_values(args, i, flag, kv)) return e;
      each.insert(each.end(), kv.begin(), kv.end());
    } else if (flag == "-openings") {
      if (auto e = take_key_values(args, i, flag, kv)) return e;
      for (const auto& [k, v] : kv) {
        if (k == "file") {
          o.openings_file = v;
        } else if (k == "format") {
          if (v != "epd" && v != "fen") return "-openings format " + core::quote(v) + ": epd or fen";
        } else if (k == "order") {
          if (v != "random" && v != "sequential")
            return "-openings order " + core::quote(v) + ": random or sequential";
          o.random_order = v == "random";
        } else {
          return "-openings: unknown setting " + core::quote(k);
        }
      }
    } else if (flag == "-rounds" || flag == "-games" || flag == "-concurrency" || flag == "-srand" ||
               flag == "-ratinginterval") {
      if (auto e = value(text)) return e;
      const long hi = flag == "-srand" ? std::numeric_limits<long>::max() : flag == "-games" ? 2 : 1000000;
      const long lo = flag == "-srand" || flag == "-ratinginterval" ? 0 : 1;
      if (auto e = parse_int(flag, text, lo, hi, number)) return e;
      if (flag == "-rounds") o.rounds = int(number);
      if (flag == "-games") o.games_per_round = int(number), games_given = true;
      if (flag == "-concurrency") o.concurrency = int(number);
      if (flag == "-srand") o.seed = uint64_t(number);
      if (flag == "-ratinginterval") o.rating_interval = int(number);
    } else if (flag == "-repeat") {
      o.repeat = true;
    } else if (flag == "-recover") {
      o.recover = true;
    } else if (flag == "-draw" || flag == "-resign") {
      if (auto e = take_key_values(args, i, flag, kv)) return e;
      Adjudication& a = o.adjudication;
      (flag == "-draw" ? a.draw : a.resign) = true;
      for (const auto& [k, v] : kv) {
        if (k == "twosided" && flag == "-resign") {
          if (auto e = parse_bool(flag + " twosided", v, a.resign_two_sided)) return e;
          continue;
        }
        if (k != "movenumber" && k != "movecount" && k != "score")
          return flag + ": unknown setting " + core::quote(k);
        if (k == "movenumber" && flag == "-resign") return "-resign has no movenumber";
        if (auto e = parse_int(flag + " " + k, v, 0, 100000, number)) return e;
        int& field = k == "movenumber"  ? a.draw_move_number
                     : k == "movecount" ? (flag == "-draw" ? a.draw_move_count : a.resign_move_count)
                                        : (flag == "-draw" ? a.draw_score : a.resign_score);
        field = int(number);
      }
    } else if (flag == "-sprt") {
      if (auto e = take_key_values(args, i, flag, kv)) return e;
      Sprt s;
      for (const auto& [k, v] : kv) {
        if (k == "model") {
          if (v != "logistic") return "-sprt model " + core::quote(v) + ": only logistic is computed";
          continue;
        }
        const auto number = core::parse_double(v, -1e4, 1e4);
        if (!number) return "-sprt " + k + " takes a number, not " + core::quote(v);
        const double d = *number;
        if (k == "elo0")
          s.elo0 = d;
        else if (k == "elo1")
          s.elo1 = d;
        else if (k == "alpha")
          s.alpha = d;
        else if (k == "beta")
          s.beta = d;
        else
          return "-sprt: unknown setting " + core::quote(k);
      }
      if (!(s.alpha > 0 && s.alpha < 0.5 && s.beta > 0 && s.beta < 0.5 && s.elo1 > s.elo0))
        return "-sprt wants 0 < alpha, beta < 0.5 and elo0 < elo1";
      o.sprt = s;
    } else if (flag == "-pgnout") {
      if (auto e = take_key_values(args, i, flag, kv)) return e;
      for (const auto& [k, v] : kv) {
        if (k != "file") return "-pgnout: unknown setting " + core::quote(k);
        o.pgn_file = v;
      }
    } else if (flag == "-log") {
      if (auto e = take_key_values(args, i, flag, kv)) return e;
      for (const auto& [k, v] : kv) {
        bool engine_lines = false;
        if (k == "file")
          o.log_file = v;
        else if (k == "level") {
          if (v != "warn" && v != "info") return "-log level " + core::quote(v) + ": warn or info";
        } else if (k == "engine") {
          if (auto e = parse_bool("-log engine", v, engine_lines)) return e;
          if (engine_lines) return "-log engine=true: the engines' lines are not logged";
        } else {
          return "-log: unknown setting " + core::quote(k);
        }
      }
    } else {
      return "unknown flag " + core::quote(flag);
    }
  }
  if (engines.size() != 2) return "a match needs two -engine flags, not " + std::to_string(engines.size());
  for (int e = 0; e < 2; ++e) {
    KeyValues settings = engines[size_t(e)];
    settings.insert(settings.end(), each.begin(), each.end());
    o.time_control[e] = "inf";
    if (auto error = apply_engine_settings(settings, o.engines[e], o.limits[e], o.time_control[e]))
      return "engine " + std::to_string(e + 1) + ": " + *error;
    if (o.engines[e].cmd.empty()) return "engine " + std::to_string(e + 1) + " has no cmd=";
    if (o.engines[e].name.empty()) o.engines[e].name = o.engines[e].cmd;
    const Limit& l = o.limits[e];
    if (!l.clock && !l.nodes && !l.depth)
      return "engine " + std::to_string(e + 1) + " has no limit: give tc=, nodes= or depth=";
    if (o.engines[e].protocol == Protocol::kXboard && (l.nodes || o.engines[e].ponder))
      return "engine " + std::to_string(e + 1) + ": an xboard engine plays on tc= or depth=, without ponder";
  }
  if (o.openings_file.empty()) return "-openings file=FILE is required";
  if (!games_given) o.games_per_round = 1;
  if (o.repeat && o.games_per_round != 2) return "-repeat plays each opening twice: give -games 2";
  return std::nullopt;
}

std::optional<std::string> read_openings(const std::string& path, std::vector<std::string>& fens) {
  std::ifstream in(path);
  if (!in) return "cannot read " + core::quote(path);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string w; words >> w && fields.size() < 6;) fields.push_back(w);
    if (fields.empty()) continue;
    if (fields.size() < 4)
      return core::quote(path) + " line " + std::to_string(number) + ": not a FEN or EPD line";
    std::string fen = fields[0] + ' ' + fields[1] + ' ' + fields[2] + ' ' + fields[3];
    const bool counters = fields.size() == 6 && core::parse_long(fields[4], 0, 100000) &&
                          core::parse_long(fields[5], 1, 100000);
    fen += counters ? ' ' + fields[4] + ' ' + fields[5] : std::string(" 0 1");
    core::Game game;
    if (auto error = game.set_fen(fen))
      return core::quote(path) + " line " + std::to_string(number) + ": " + *error;
    fens.push_back(fen);
  }
  if (fens.empty()) return core::quote(path) + " holds no openings";
  return std::nullopt;
}

namespace {

// The standing line of the first engine: "Elo: 12.34 +/- 5.67, LOS: 88.1 %, DrawRatio: 40.0 %".
std::string elo_line(const MatchSummary& s) {
  MatchNumbers m = match_numbers(s.pairs);
  m.elo += 0.0;  // never "-0.00"
  if (m.elo == 0) m.elo = 0;
  const int64_t pairs = s.pairs[0] + s.pairs[1] + s.pairs[2] + s.pairs[3] + s.pairs[4];
  std::ostringstream line;
  line << std::fixed << std::setprecision(2) << "Elo: " << m.elo << " +/- " << m.elo_error
       << ", LOS: " << std::setprecision(1) << 100 * m.los
       << " %, DrawRatio: " << (pairs ? 100.0 * double(s.pairs[2]) / double(pairs) : 0.0) << " %";
  return line.str();
}

std::string games_line(const MatchSummary& s) {
  const double points = double(s.wins) + 0.5 * double(s.draws);
  std::ostringstream line;
  line << "Games: " << s.games << ", Wins: " << s.wins << ", Losses: " << s.losses << ", Draws: " << s.draws
       << ", Points: " << std::fixed << std::setprecision(1) << points << " (" << std::setprecision(2)
       << (s.games ? 100 * points / s.games : 0.0) << " %)";
  return line.str();
}

std::string pentanomial_line(const MatchSummary& s) {
  std::ostringstream line;
  line << "Ptnml(0-2): [" << s.pairs[0] << ", " << s.pairs[1] << ", " << s.pairs[2] << ", " << s.pairs[3]
       << ", " << s.pairs[4] << "]";
  return line.str();
}

std::string pgn_time_control(const Limit& l) {
  if (!l.clock) return "-";
  std::ostringstream t;
  t << double(l.base_ms) / 1000;
  if (l.increment_ms) t << '+' << double(l.increment_ms) / 1000;
  return t.str();
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y.%m.%d", std::gmtime(&now));
  return text;
}

}  // namespace

std::optional<MatchSummary> run_match(const MatchOptions& o, std::ostream& out, std::string* error) {
  std::vector<std::string> openings;
  if (auto e = read_openings(o.openings_file, openings)) {
    if (error) *error = *e;
    return std::nullopt;
  }
  if (o.random_order) {  // Fisher-Yates with the seed's own generator: the same order everywhere
    std::mt19937_64 rng(o.seed);
    for (size_t i = openings.size() - 1; i > 0; --i)
      std::swap(openings[i], openings[size_t(rng() % (i + 1))]);
  }
  std::ofstream pgn, log;
  if (!o.pgn_file.empty()) {
    pgn.open(o.pgn_file, std::ios::app);
    if (!pgn) {
      if (error) *error = "cannot write " + core::quote(o.pgn_file);
      return std::nullopt;
    }
  }
  if (!o.log_file.empty()) {
    log.open(o.log_file, std::ios::app);
    if (!log) {
      if (error) *error = "cannot write " + core::quote(o.log_file);
      return std::nullopt;
    }
  }

  const int total = o.rounds * o.games_per_round;
  std::vector<std::optional<GameResult>> results(static_cast<size_t>(total));
  std::atomic<int> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards everything below and the output streams
  MatchSummary summary;
  std::string failure;
  const std::string names[2] = {o.engines[0].name, o.engines[1].name};
  const double lower = o.sprt ? sprt_lower_bound(o.sprt->alpha, o.sprt->beta) : 0;
  const double upper = o.sprt ? sprt_upper_bound(o.sprt->alpha, o.sprt->beta) : 0;

  const auto fail = [&](const std::string& why) {
    std::lock_guard<std::mutex> lock(mutex);
    if (failure.empty()) failure = why;
    stop = true;
  };
  // Games g and g^1 of one round share an opening with colours swapped (-games 2 -repeat).
  const auto record = [&](int g, const GameResult& r, bool first_is_white) {
    std::lock_guard<std::mutex> lock(mutex);
    results[size_t(g)] = r;
    const int first_points = r.result == "1/2-1/2" ? 1 : (r.result == "1-0") == first_is_white ? 2 : 0;
    if (r.result == "*") return;
    ++summary.games;
    (first_points == 2 ? summary.wins : first_points == 1 ? summary.draws : summary.losses) += 1;
    summary.failures += r.engine_failed[0] || r.engine_failed[1];
    summary.time_losses += r.pgn_termination == "time forfeit";
    for (int side = 0; side < 2; ++side)  // side 0 is White; engine 0 is White when first_is_white
      summary.failures_of[(side == 0) == first_is_white ? 0 : 1] += r.engine_failed[side];
    if (r.pgn_termination == "time forfeit")  // the side that lost is the one on time
      ++summary.time_losses_of[(r.result == "1-0") == first_is_white ? 1 : 0];
    summary.ponder_hits += r.ponder_hits;
    summary.ponder_misses += r.ponder_misses;
    out << "Finished game " << g + 1 << " (" << names[first_is_white ? 0 : 1] << " vs "
        << names[first_is_white ? 1 : 0] << "): " << r.result << " {" << r.termination << "}\n";
    if (log.is_open() && (r.engine_failed[0] || r.engine_failed[1] || r.pgn_termination == "time forfeit"))
      log << "game " << g + 1 << ": " << r.result << " {" << r.termination << "}\n";
    if (pgn.is_open()) {
      const std::string& fen = openings[size_t((o.repeat ? g / 2 : g) % int(openings.size()))];
      pgn << book::write_pgn({{"Event", "vblitz-match"},
                              {"Site", "?"},
                              {"Date", today()},
                              {"Round", std::to_string(g / o.games_per_round + 1)},
                              {"White", names[first_is_white ? 0 : 1]},
                              {"Black", names[first_is_white ? 1 : 0]},
                              {"Result", r.result},
                              {"TimeControl", pgn_time_control(o.limits[first_is_white ? 0 : 1])},
                              {"PlyCount", std::to_string(r.moves.size())},
                              {"Termination", r.pgn_termination},
                              {"TerminationDetails", r.termination}},
                             fen, r.moves, r.result, r.comments);
      pgn.flush();
    }
    // A pair is complete when both of its games are: its points go into the pentanomial.
    const int pair = g / 2;
    if (2 * pair + 1 < total && results[size_t(2 * pair)] && results[size_t(2 * pair + 1)] &&
        results[size_t(2 * pair)]->result != "*" && results[size_t(2 * pair + 1)]->result != "*") {
      int points = 0;
      for (int k = 0; k < 2; ++k) {
        const GameResult& game = *results[size_t(2 * pair + k)];
        const bool white = k == 0;  // the first engine is white in the pair's first game
        points += game.result == "1/2-1/2" ? 1 : (game.result == "1-0") == white ? 2 : 0;
      }
      ++summary.pairs[size_t(points)];
      if (o.sprt) {
        summary.llr = sprt_llr(summary.pairs, o.sprt->elo0, o.sprt->elo1);
        if (*summary.llr <= lower || *summary.llr >= upper) {
          summary.stopped_by_sprt = true;
          stop = true;
        }
      }
    }
    if (o.rating_interval > 0 && summary.games % o.rating_interval == 0) {
      out << "Score of " << names[0] << " vs " << names[1] << ": " << summary.wins << " - " << summary.losses
          << " - " << summary.draws << " [" << std::fixed << std::setprecision(3)
          << (double(summary.wins) + 0.5 * double(summary.draws)) / summary.games << "] " << summary.games
          << '\n'
          << elo_line(summary) << '\n'
          << pentanomial_line(summary) << '\n';
      if (summary.llr)
        out << "LLR: " << std::setprecision(2) << *summary.llr << " (" << lower << ", " << upper << ")\n";
    }
    out.flush();
  };

  // The games to play: all of them, or after an interrupt those already begun and, with pairs
  // (-repeat), the partner of a pair's first game.
  std::atomic<int> end{total};
  const auto end_at = [&](int g) {
    if (o.interrupt && *o.interrupt && end.load() == total) {
      std::lock_guard<std::mutex> lock(mutex);
      if (end.load() == total) {
        const int first_not_begun = std::min(g, total);  // every game below g was taken before
        end = o.repeat ? std::min(total, (first_not_begun + 1) / 2 * 2) : first_not_begun;
        summary.interrupted = end < total;
      }
    }
    return end.load();
  };
  const auto worker = [&] {
    Engine engines[2] = {Engine(o.engines[0]), Engine(o.engines[1])};
    const auto start = [&](int e) -> bool {
      engines[e].stop_process();
      if (auto why = engines[e].start()) {
        fail(names[e] + ": " + *why);
        return false;
      }
      return true;
    };
    if (!start(0) || !start(1)) return;
    while (!stop) {
      const int g = next++;
      if (g >= end_at(g)) break;
      const bool first_is_white = g % 2 == 0;
      for (int e = 0; e < 2; ++e)
        if (!engines[e].new_game(std::chrono::milliseconds(o.hang_ms))) {
          if (!o.recover) return fail(names[e] + " did not answer ucinewgame and isready");
          if (!start(e)) return;
        }
      const std::string& fen = openings[size_t((o.repeat ? g / 2 : g) % int(openings.size()))];
      Engine& white = engines[first_is_white ? 0 : 1];
      Engine& black = engines[first_is_white ? 1 : 0];
      const Limit limits[2] = {o.limits[first_is_white ? 0 : 1], o.limits[first_is_white ? 1 : 0]};
      const GameResult r = play_game(white, black, limits, fen, o.adjudication, o.hang_ms);
      record(g, r, first_is_white);
      for (int side = 0; side < 2; ++side) {
        if (!r.engine_failed[side]) continue;
        const int e = (side == 0) == first_is_white ? 0 : 1;
        if (!o.recover) return fail(names[e] + ": " + r.termination + " in game " + std::to_string(g + 1));
        if (!start(e)) return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min(o.concurrency, total); ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();

  out << "--------------------------------------------------\n"
      << "Results of " << names[0] << " vs " << names[1] << " (" << o.time_control[0]
      << (o.limits[0].nodes ? " nodes " + std::to_string(o.limits[0].nodes) : "") << ", " << o.openings_file
      << "):\n"
      << elo_line(summary) << '\n'
      << games_line(summary) << '\n'
      << pentanomial_line(summary) << '\n';
  if (summary.llr)
    out << "LLR: " << std::fixed << std::setprecision(2) << *summary.llr << " (" << lower << ", " << upper
        << ") [" << o.sprt->elo0 << ", " << o.sprt->elo1 << "]"
        << (summary.stopped_by_sprt ? ", stopped by the SPRT" : "") << '\n';
  if (summary.interrupted) out << "Interrupted: " << summary.games << " of " << total << " games played\n";
  if (summary.ponder_hits || summary.ponder_misses)
    out << "Ponder hits: " << summary.ponder_hits << " of " << summary.ponder_hits + summary.ponder_misses
        << '\n';
  // Always printed, so a record made from the summary (perf/ledger.py) knows there were none.
  const auto by_engine = [&](const int(&counts)[2]) {
    return " (" + names[0] + " " + std::to_string(counts[0]) + ", " + names[1] + " " +
           std::to_string(counts[1]) + ")";
  };
  out << "Engine failures: " << summary.failures << by_engine(summary.failures_of)
      << ", time losses: " << summary.time_losses << by_engine(summary.time_losses_of) << '\n';
  out << "--------------------------------------------------" << std::endl;
  if (!failure.empty()) {
    if (error) *error = failure;
    return std::nullopt;
  }
  return summary;
}

}  // namespace vblitz::match
