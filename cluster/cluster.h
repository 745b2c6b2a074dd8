// The processes of a cluster run: an MPI job started as `mpirun -np K vblitz` from a build with
// VBLITZ_MPI (docs/cluster.md). A build without it, or a run without mpirun, is one process
// of rank 0, and every function here is then trivial.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace vblitz::cluster {

// Starts MPI with the thread level the engine needs (the protocol thread and the search thread
// both communicate). Returns why not when the library cannot provide it. Call it first in main.
std::optional<std::string> start(int* argc, char*** argv);
// Ends MPI; every rank calls it once, last. Every rank first waits for the others to arrive,
// at most kAnswerDeadline (a rank that stopped ends the run: see lost()).
void finish();

int rank();
int ranks();

// How long a collective of the protocol (a line's broadcast, a file option's check, the end of
// the run) may wait for every rank before the run ends with lost(). A rank that waits for a
// collective answers a ping meanwhile, so the message can name the ranks that stopped.
constexpr std::chrono::milliseconds kAnswerDeadline{5000};

// Rank 0 reads its next line from `in`, and every rank returns that line; false on every rank
// when rank 0's input has ended. A rank waiting for a line sleeps between polls, leaving its
// core to the search, and waits as long as rank 0's input does; rank 0 waits for the others to
// take the line at most kAnswerDeadline. Lines longer than 2 MB arrive cut to 2 MB.
bool next_line(std::istream& in, std::string& line);

// True on every rank when `value` is the same on every rank. Collective on the protocol thread,
// like next_line: every rank calls it for the same line. Waits at most `deadline` (a file
// option's caller adds twice what reading the file took it, which another rank may need too).
bool same_on_every_rank(uint64_t value, std::chrono::milliseconds deadline = kAnswerDeadline);

// Adds `values` element by element over all ranks; every rank gets the sums. Every rank calls
// it with the same number of values, in the same order of calls. Waits at most `deadline` for
// the others (a shared job's caller gives its own time on the job plus a margin).
void sum(std::vector<uint64_t>& values, std::chrono::milliseconds deadline);

// Ends the run because a collective (`what`) did not complete within `waited`: rank 0 pings
// every rank, prints `info string error: cluster: rank R did not answer ...` naming those that
// do not answer within a second (on standard output, where the UCI answers go, and on standard
// error), and every process ends with a non-zero exit. A rank other than 0 waits a few seconds
// longer than rank 0 before it gives up, so rank 0's message comes first.
[[noreturn]] void lost(const std::string& what, std::chrono::milliseconds waited);

// The exchange of a cluster search (cluster/cluster_search.h), on every rank's search thread, in
// rounds: a round adds up every rank's signals and passes a block of bytes (table entries) from
// each rank either to the next in a ring, taking the previous rank's, or to every other rank
// (an all-gather). Rounds are collective: every rank starts the same rounds in the same order,
// one at a time, with the same exchange, and waits for each to complete.
constexpr size_t kSignals = 2;  // this rank's nodes; whether it asks every rank to stop
using Signals = std::array<uint64_t, kSignals>;
enum class Exchange { kRing, kAllGather };
constexpr size_t kMaxRoundBytes = 64 << 10;  // ring: a larger block is cut to this
constexpr size_t kMaxGatherBytes = 1 << 10;  // all-gather: a larger block is cut to this

// Starts a round with this rank's signals and block.
void start_round(const Signals& signals, const std::vector<char>& block, Exchange exchange);
// True once the round started last has completed here; `sums` then holds the sums of every
// rank's signals and `received` the previous rank's block (ring) or every other rank's blocks,
// rank after rank (all-gather).
bool round_done(Signals& sums, std::vector<char>& received);
// Every rank's `values` (the same count on every rank), rank after rank; every rank gets them
// all. Collective, like a round; waits sleeping, at most `deadline`: empty when some rank did
// not take part by then.
std::vector<uint64_t> gather_all(const std::vector<uint64_t>& values, std::chrono::milliseconds deadline);

// Ends every process of the run at once, after `message` on standard error: for a rank that
// stopped answering, when the collectives can no longer complete.
[[noreturn]] void abort_run(const std::string& message);

}  // namespace vblitz::cluster
