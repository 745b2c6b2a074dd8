// Cluster functions of a build without MPI: one process, rank 0 of 1.
#include <cstdlib>
#include <iostream>

#include "cluster/cluster.h"

namespace vblitz::cluster {

std::optional<std::string> start(int*, char***) { return std::nullopt; }
void finish() {}
int rank() { return 0; }
int ranks() { return 1; }
bool next_line(std::istream& in, std::string& line) { return bool(std::getline(in, line)); }
bool same_on_every_rank(uint64_t, std::chrono::milliseconds) { return true; }
void sum(std::vector<uint64_t>&, std::chrono::milliseconds) {}
void lost(const std::string& what, std::chrono::milliseconds) { abort_run(what); }

namespace {
Signals last_signals{};
}  // namespace

void start_round(const Signals& signals, const std::vector<char>&, Exchange) { last_signals = signals; }
bool round_done(Signals& sums, std::vector<char>& received) {
  sums = last_signals;
  received.clear();
  return true;
}
std::vector<uint64_t> gather_all(const std::vector<uint64_t>& values, std::chrono::milliseconds) {
  return values;
}
void abort_run(const std::string& message) {
  std::cerr << "vblitz: " << message << std::endl;
  std::exit(1);
}

}  // namespace vblitz::cluster
