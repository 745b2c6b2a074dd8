// Cluster functions on MPI (Open MPI here). Input lines and job reductions travel on their own
// communicators, so the protocol thread and the search thread never match each other's calls.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cluster/cluster.h"

namespace vblitz::cluster {
namespace {

MPI_Comm lines = MPI_COMM_NULL;       // rank 0's input lines, on the protocol thread
MPI_Comm reductions = MPI_COMM_NULL;  // sums of a job (perft), on the search thread
MPI_Comm pings = MPI_COMM_NULL;       // rank 0 asks which ranks still answer (lost())
int my_rank = 0, rank_count = 1;
constexpr long long kMaxLine = 2 << 20;
constexpr int kRingTag = 1, kPingTag = 2, kPongTag = 3;

// The round in flight: its signal sums and the ring's send and receive, or the all-gather's
// blocks (MPI needs the buffers until they complete).
struct Round {
  MPI_Request requests[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  Exchange exchange = Exchange::kRing;
  Signals sums{};
  std::vector<char> sending, receiving;
} round;

// An all-gather block: the length of the bytes used, then the bytes, padded to a fixed size.
constexpr size_t kGatherSlot = sizeof(uint32_t) + kMaxGatherBytes;

// Answers rank 0's ping, if one is waiting: a rank that waits for a collective is alive.
// A matched probe, so the protocol and search threads never take the same message.
void answer_ping() {
  int waiting = 0;
  MPI_Message message;
  MPI_Improbe(0, kPingTag, pings, &waiting, &message, MPI_STATUS_IGNORE);
  if (!waiting) return;
  char byte = 0;
  MPI_Mrecv(&byte, 1, MPI_CHAR, &message, MPI_STATUS_IGNORE);
  MPI_Send(&byte, 1, MPI_CHAR, 0, kPongTag, pings);
}

// Waits for a non-blocking operation, sleeping between polls (MPI's own waits spin a core) and
// answering pings. With a deadline, false when it passes first (the operation is then left
// incomplete).
bool wait_sleeping(MPI_Request& request, std::optional<std::chrono::milliseconds> deadline = std::nullopt) {
  const auto start = std::chrono::steady_clock::now();
  for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done;) {
    if (deadline && std::chrono::steady_clock::now() - start > *deadline) return false;
    answer_ping();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// The deadline this rank keeps for a collective: rank 0's, or a few seconds more, so that rank
// 0, which can name the lost ranks and owns the UCI output, gives up first.
std::chrono::milliseconds my_deadline(std::chrono::milliseconds deadline) {
  return my_rank == 0 ? deadline : deadline + std::chrono::milliseconds(3000);
}

// Waits for a collective of the protocol; ends the run when it does not complete in time.
void wait_or_lose(MPI_Request& request, const std::string& what, std::chrono::milliseconds deadline) {
  if (!wait_sleeping(request, my_deadline(deadline))) lost(what, my_deadline(deadline));
}

// MPI's errors (a broken connection to a rank) end the run through the same path, with MPI's
// own words, instead of MPI's default abort without a word from VBlitz.
void on_mpi_error(MPI_Comm*, int* code, ...) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(*code, text, &length);
  abort_run("cluster: MPI error: " + std::string(text, size_t(std::max(0, length))));
}

// When a process of the run dies, Open MPI's mpirun ends the others with SIGTERM (SIGKILL a few
// seconds later) before any of them hears of it. Rank 0 owns the UCI output: it says there why
// the engine goes, then ends at once (only async-signal-safe calls here).
extern "C" void on_terminate(int) {
  static const char kMessage[] =
      "info string error: cluster: the run was ended by SIGTERM (mpirun ends every process when "
      "one dies; its message on standard error names the rank)\n";
  static const char kPrefix[] = "vblitz: rank 0: ";
  ssize_t ignored = write(STDOUT_FILENO, kMessage, sizeof kMessage - 1);
  ignored = write(STDERR_FILENO, kPrefix, sizeof kPrefix - 1);
  ignored = write(STDERR_FILENO, kMessage + 19, sizeof kMessage - 20);  // without "info string "
  (void)ignored;
  _exit(128 + SIGTERM);
}

}  // namespace

std::optional<std::string> start(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    MPI_Finalize();
    return "this MPI library does not provide MPI_THREAD_MULTIPLE, which cluster mode needs (the "
           "protocol and search threads both communicate)";
  }
  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(on_mpi_error, &handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
  MPI_Comm_dup(MPI_COMM_WORLD, &lines);  // a duplicate keeps the error handler
  MPI_Comm_dup(MPI_COMM_WORLD, &reductions);
  MPI_Comm_dup(MPI_COMM_WORLD, &pings);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &rank_count);
  if (my_rank == 0) std::signal(SIGTERM, on_terminate);
  return std::nullopt;
}

void finish() {
  MPI_Request request;
  MPI_Ibarrier(lines, &request);  // MPI_Finalize would wait for a stopped rank for ever
  wait_or_lose(request, "the end of the run", kAnswerDeadline);
  MPI_Comm_free(&lines);
  MPI_Comm_free(&reductions);
  MPI_Comm_free(&pings);
  MPI_Finalize();
}

int rank() { return my_rank; }
int ranks() { return rank_count; }

bool next_line(std::istream& in, std::string& line) {
  long long length = -1;  // -1: rank 0's input has ended
  if (my_rank == 0 && std::getline(in, line)) length = std::min<long long>(kMaxLine, (long long)line.size());
  MPI_Request request;
  MPI_Ibcast(&length, 1, MPI_LONG_LONG, 0, lines, &request);
  // Rank 0 waits for the others to take the line; they wait for rank 0's input, however long.
  if (my_rank == 0)
    wait_or_lose(request, "an input line", kAnswerDeadline);
  else
    wait_sleeping(request);
  if (length < 0) return false;
  line.resize(size_t(length));
  if (length > 0) {
    MPI_Ibcast(line.data(), int(length), MPI_CHAR, 0, lines, &request);
    wait_or_lose(request, "an input line", kAnswerDeadline);
  }
  return true;
}

bool same_on_every_rank(uint64_t value, std::chrono::milliseconds deadline) {
  uint64_t least[2] = {value, ~value};  // the least value and the complement of the greatest
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, least, 2, MPI_UINT64_T, MPI_MIN, lines, &request);
  wait_or_lose(request, "a file option's check", deadline);
  return least[0] == ~least[1];
}

void sum(std::vector<uint64_t>& values, std::chrono::milliseconds deadline) {
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_UINT64_T, MPI_SUM, reductions,
                 &request);
  wait_or_lose(request, "a shared job's sums", deadline);
}

void start_round(const Signals& signals, const std::vector<char>& block, Exchange exchange) {
  round.exchange = exchange;
  round.sums = signals;
  MPI_Iallreduce(MPI_IN_PLACE, round.sums.data(), int(kSignals), MPI_UINT64_T, MPI_SUM, reductions,
                 &round.requests[0]);
  if (exchange == Exchange::kAllGather) {
    const uint32_t used = uint32_t(std::min(block.size(), kMaxGatherBytes));
    round.sending.assign(kGatherSlot, 0);
    std::memcpy(round.sending.data(), &used, sizeof used);
    std::copy_n(block.begin(), used, round.sending.begin() + sizeof used);
    round.receiving.resize(kGatherSlot * size_t(rank_count));
    MPI_Iallgather(round.sending.data(), int(kGatherSlot), MPI_CHAR, round.receiving.data(), int(kGatherSlot),
                   MPI_CHAR, reductions, &round.requests[1]);
    round.requests[2] = MPI_REQUEST_NULL;
    return;
  }
  round.sending.assign(block.begin(), block.begin() + long(std::min(block.size(), kMaxRoundBytes)));
  round.receiving.resize(kMaxRoundBytes);
  const int next = (my_rank + 1) % rank_count, previous = (my_rank + rank_count - 1) % rank_count;
  MPI_Isend(round.sending.data(), int(round.sending.size()), MPI_CHAR, next, kRingTag, reductions,
            &round.requests[1]);
  MPI_Irecv(round.receiving.data(), int(kMaxRoundBytes), MPI_CHAR, previous, kRingTag, reductions,
            &round.requests[2]);
}

bool round_done(Signals& sums, std::vector<char>& received) {
  int done = 0;
  MPI_Status statuses[3];
  MPI_Testall(3, round.requests, &done, statuses);
  if (!done) return false;
  sums = round.sums;
  received.clear();
  if (round.exchange == Exchange::kAllGather) {
    for (int r = 0; r < rank_count; ++r) {
      if (r == my_rank) continue;
      const char* slot = round.receiving.data() + size_t(r) * kGatherSlot;
      uint32_t used = 0;
      std::memcpy(&used, slot, sizeof used);
      received.insert(received.end(), slot + sizeof used,
                      slot + sizeof used + std::min<size_t>(used, kMaxGatherBytes));
    }
    return true;
  }
  int bytes = 0;
  MPI_Get_count(&statuses[2], MPI_CHAR, &bytes);
  received.assign(round.receiving.begin(), round.receiving.begin() + bytes);
  return true;
}

std::vector<uint64_t> gather_all(const std::vector<uint64_t>& values, std::chrono::milliseconds deadline) {
  std::vector<uint64_t> all(values.size() * size_t(rank_count));
  MPI_Request request;
  MPI_Iallgather(values.data(), int(values.size()), MPI_UINT64_T, all.data(), int(values.size()),
                 MPI_UINT64_T, reductions, &request);
  if (!wait_sleeping(request, deadline)) return {};  // the run ends next (abort_run)
  return all;
}

void lost(const std::string& what, std::chrono::milliseconds waited) {
  std::string who = "a rank";
  if (my_rank == 0) {  // which ranks answer a ping within a second?
    std::vector<char> bytes(size_t(rank_count), 1), answers(size_t(rank_count), 0);
    std::vector<MPI_Request> sent(size_t(rank_count), MPI_REQUEST_NULL),
        heard(size_t(rank_count), MPI_REQUEST_NULL);
    for (int r = 1; r < rank_count; ++r) {
      MPI_Isend(&bytes[size_t(r)], 1, MPI_CHAR, r, kPingTag, pings, &sent[size_t(r)]);
      MPI_Irecv(&answers[size_t(r)], 1, MPI_CHAR, r, kPongTag, pings, &heard[size_t(r)]);
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    std::vector<int> silent;
    for (int r = 1; r < rank_count; ++r)
      for (int done = 0; MPI_Test(&heard[size_t(r)], &done, MPI_STATUS_IGNORE), !done;) {
        if (std::chrono::steady_clock::now() > until) {
          silent.push_back(r);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    if (!silent.empty()) {
      who = silent.size() == 1 ? "rank" : "ranks";
      for (size_t i = 0; i < silent.size(); ++i)
        who += (i == 0 ? " " : i + 1 == silent.size() ? " and " : ", ") + std::to_string(silent[i]);
    }
  }
  const std::string why = "cluster: " + who + " did not answer " + what + " within " +
                          std::to_string(waited.count()) + " ms (stopped or gone); the run ends";
  if (my_rank == 0) std::cout << "info string error: " << why << std::endl;
  abort_run(why);
}

void abort_run(const std::string& message) {
  std::cerr << "vblitz: rank " << my_rank << ": " << message << std::endl;
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);  // MPI_Abort does not return; should it, the process ends anyway
}

}  // namespace vblitz::cluster
