// Reading tuning data and linearizing the evaluation around the starting parameters.
#include "tune/tuning_set.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/file.h"
#include "core/game.h"
#include "core/text.h"
#include "eval/evaluate.h"

namespace vblitz::tune {

namespace {

constexpr int kPerturbation = 16;  // centipawns; large enough that rounding costs little

std::vector<std::pair<eval::Term, int>> entries() {
  std::vector<std::pair<eval::Term, int>> list;
  for (int t = 0; t < eval::kTermCount; ++t)
    for (int i = 0; i < eval::term_entries(eval::Term(t)); ++i) list.emplace_back(eval::Term(t), i);
  return list;
}

int& scalar(eval::Params& p, int index) {
  static const auto list = entries();
  eval::Score& s = eval::term_values(p, list[size_t(index / 2)].first)[list[size_t(index / 2)].second];
  return index % 2 ? s.eg : s.mg;
}

}  // namespace

int parameter_count() { return int(2 * entries().size()); }

std::string parameter_name(int index) {
  static const auto list = entries();
  const auto [term, i] = list[size_t(index / 2)];
  std::string name = eval::term_name(term);
  if (eval::term_entries(term) > 1) {  // appended piecewise: GCC 12 misreads "[" + std::string
    name += '[';
    name += std::to_string(i);
    name += ']';
  }
  return name + (index % 2 ? ".eg" : ".mg");
}

std::vector<double> to_vector(const eval::Params& p) {
  eval::Params copy = p;
  std::vector<double> v(static_cast<size_t>(parameter_count()));
  for (int j = 0; j < parameter_count(); ++j) v[size_t(j)] = scalar(copy, j);
  return v;
}

eval::Params to_params(const std::vector<double>& v) {
  eval::Params p;
  for (int j = 0; j < parameter_count(); ++j) scalar(p, j) = int(std::lround(v[size_t(j)]));
  return p;
}

std::optional<double> parse_data_line(const std::string& line, std::string& fen) {
  // Bare "1" and "0" count only inside brackets: at the end of a line they are a FEN's move number.
  auto result_of = [](const std::string& text, bool bracketed = false) -> std::optional<double> {
    if (text == "1-0" || text == "1.0" || (bracketed && text == "1")) return 1.0;
    if (text == "0-1" || text == "0.0" || (bracketed && text == "0")) return 0.0;
    if (text == "1/2-1/2" || text == "0.5") return 0.5;
    return std::nullopt;
  };
  std::optional<double> result;
  size_t cut = std::string::npos;
  if (size_t c9 = line.find(" c9 \""); c9 != std::string::npos) {
    size_t end = line.find('"', c9 + 5);
    if (end != std::string::npos) result = result_of(line.substr(c9 + 5, end - c9 - 5));
    cut = c9;
  } else if (size_t open = line.rfind('['); open != std::string::npos) {
    size_t close = line.find(']', open);
    if (close != std::string::npos) result = result_of(line.substr(open + 1, close - open - 1), true);
    cut = open;
  } else if (size_t space = line.find_last_of(' '); space != std::string::npos) {
    result = result_of(line.substr(space + 1));
    cut = space;
  }
  if (!result) return std::nullopt;
  fen = line.substr(0, cut);
  while (!fen.empty() && (fen.back() == ' ' || fen.back() == ';')) fen.pop_back();
  return result;
}

std::optional<std::string> read_data_file(const std::string& path,
                                          std::vector<std::pair<std::string, double>>& out, int& bad_lines) {
  if (auto error = core::check_input_file(path)) return error;
  std::ifstream in(path);
  if (!in) return "cannot read " + core::quote(path);
  bad_lines = 0;
  std::string fen;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (auto r = parse_data_line(line, fen))
      out.emplace_back(fen, *r);
    else
      ++bad_lines;
  }
  if (out.empty()) return "no positions in " + core::quote(path);
  return std::nullopt;
}

TuningSet build_tuning_set(const std::vector<std::pair<std::string, double>>& positions,
                           const eval::Params& start) {
  const int n = int(positions.size()), count = parameter_count();
  std::vector<int> base(size_t(n), 0);
  std::vector<std::vector<Coefficient>> per_position(static_cast<size_t>(n));
  std::vector<char> ok(size_t(n), 0);
#pragma omp parallel
  {
    eval::Params params = start;
    eval::Evaluator evaluator(params);
    eval::Trace trace;  // with a trace the evaluation skips its hashes, so perturbations count
#pragma omp for schedule(dynamic, 256)
    for (int i = 0; i < n; ++i) {
      core::Game game;
      if (game.set_fen(positions[size_t(i)].first)) continue;
      const core::Position& pos = game.position();
      auto evaluate = [&] {
        trace = eval::Trace{};  // (it accumulates; only the score matters here)
        return evaluator.evaluate_white(pos, &trace);
      };
      const int e0 = evaluate();
      for (int j = 0; j < count; ++j) {
        int& value = scalar(params, j);
        value += kPerturbation;
        const int e1 = evaluate();
        value -= kPerturbation;
        if (e1 != e0) per_position[size_t(i)].push_back({uint16_t(j), float(e1 - e0) / kPerturbation});
      }
      base[size_t(i)] = e0;
      ok[size_t(i)] = 1;
    }
  }
  TuningSet set;
  set.start = to_vector(start);
  set.first.push_back(0);
  for (int i = 0; i < n; ++i) {
    if (!ok[size_t(i)]) {
      ++set.skipped_lines;
      continue;
    }
    set.base_eval.push_back(float(base[size_t(i)]));
    set.result.push_back(float(positions[size_t(i)].second));
    set.coefficients.insert(set.coefficients.end(), per_position[size_t(i)].begin(),
                            per_position[size_t(i)].end());
    set.first.push_back(uint32_t(set.coefficients.size()));
  }
  return set;
}

}  // namespace vblitz::tune
