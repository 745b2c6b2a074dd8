// The evaluation trace: each term's contribution for White and Black, for the `eval` command
// (and the tuner's coefficients later). Evaluation without a trace records nothing.
#pragma once

#include "core/types.h"
#include "eval/params.h"

namespace vblitz::eval {

struct Trace {
  Score term[kTermCount][core::COLOR_NB] = {};
  void add(Term t, core::Color c, Score s) { term[int(t)][c] += s; }
};

// Adds s to `total` for colour c, and to the trace when one is kept.
inline void record(Trace* trace, Term t, core::Color c, Score s, Score& total) {
  total += s;
  if (trace) trace->add(t, c, s);
}

}  // namespace vblitz::eval
