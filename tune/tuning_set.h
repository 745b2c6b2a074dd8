// Tuning data: labelled positions turned into a linear model of the evaluation. Each position
// keeps its static evaluation at the starting parameters and the coefficient of every
// parameter (how many centipawns the evaluation moves per centipawn of that parameter, found by
// perturbing it), so the loss of any parameter vector is a cheap sparse dot product.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/params.h"

namespace vblitz::tune {

// The parameter table as one vector: entry e of the table is scalars 2e (middlegame) and
// 2e+1 (endgame), in the order of VBLITZ_EVAL_TERMS.
std::vector<double> to_vector(const eval::Params& p);
eval::Params to_params(const std::vector<double>& v);  // rounded to whole centipawns
int parameter_count();
std::string parameter_name(int index);  // e.g. "passed_pawn[6].eg"

// The result of a data line from White's side: "FEN [1.0]" (also [0.5], [0.0], [1], [0]),
// `FEN c9 "1-0";` (EPD), or a bare trailing 1.0/0.5/0.0. The FEN part is returned in `fen`.
std::optional<double> parse_data_line(const std::string& line, std::string& fen);

struct Coefficient {
  uint16_t index;
  float value;
};

struct TuningSet {
  std::vector<float> base_eval;  // White's view, at `start`
  std::vector<float> result;     // 1, 0.5 or 0 (or a soft label in [0, 1])
  std::vector<uint32_t> first;   // coefficients of position i: [first[i], first[i + 1])
  std::vector<Coefficient> coefficients;
  std::vector<double> start;  // the parameters the model is linearized at
  int skipped_lines = 0;

  size_t size() const { return result.size(); }
  // The model's evaluation (White's view) of position i under parameters w.
  double evaluate(size_t i, const std::vector<double>& w) const {
    double e = base_eval[i];
    for (uint32_t k = first[i]; k < first[i + 1]; ++k)
      e += coefficients[k].value * (w[coefficients[k].index] - start[coefficients[k].index]);
    return e;
  }
};

// Builds the set from (FEN, result) pairs at parameters `start`, on all OpenMP threads.
// Positions whose FEN does not parse are counted in skipped_lines.
TuningSet build_tuning_set(const std::vector<std::pair<std::string, double>>& positions,
                           const eval::Params& start);

// Reads a data file (see parse_data_line); unreadable lines are counted, not fatal. Returns
// the reason if the file cannot be read or holds no position.
std::optional<std::string> read_data_file(const std::string& path,
                                          std::vector<std::pair<std::string, double>>& out, int& bad_lines);

}  // namespace vblitz::tune
