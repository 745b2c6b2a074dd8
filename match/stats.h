// A match's numbers as the usual match runners report them: the score, Elo with its 95%
// interval from the pentanomial counts (game pairs with both colours of one opening), the
// likelihood of superiority, and the log-likelihood ratio of a sequential test (GSPRT).
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace vblitz::match {

// Game pairs by the first engine's points in the pair: 0, 0.5, 1, 1.5, 2.
using Pentanomial = std::array<int64_t, 5>;

struct MatchNumbers {
  double score = 0.5;             // the first engine's points a game
  double elo = 0, elo_error = 0;  // Elo and the half-width of its 95% interval
  double los = 0.5;               // likelihood of superiority
};

// The numbers of `pairs` (at least one pair with a non-zero spread, else an interval of 0).
MatchNumbers match_numbers(const Pentanomial& pairs);

// The log-likelihood ratio of H1 (elo1) against H0 (elo0), both logistic Elo, from the pairs
// (the normal approximation of the generalized SPRT), and its bounds.
double sprt_llr(const Pentanomial& pairs, double elo0, double elo1);
double sprt_lower_bound(double alpha, double beta);  // ln(beta / (1 - alpha))
double sprt_upper_bound(double alpha, double beta);  // ln((1 - beta) / alpha)

// Score as Elo (logistic), and back.
double elo_of_score(double score);
double score_of_elo(double elo);

}  // namespace vblitz::match
