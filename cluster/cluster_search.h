// One search shared by the processes (ranks) of a cluster run: Lazy SMP across processes, after
// Stockfish's cluster branch and Texel's lazy cluster (docs/cluster.md). Every rank searches the
// same root with its own threads and table; rank 0 keeps the limits and the clock, the others
// search until rank 0 is done. While they search, the ranks' main threads run the exchange's
// rounds (cluster/cluster.h) from their time checks: each round adds up the ranks' node counts
// and stop requests and passes this rank's deepest recent table stores, with full keys, to the
// next rank in a ring, where they go through the table. The first round in which a rank asks to
// stop ends the search on every rank (rank 0 asks once its own search is over, any rank once it
// completed a `go depth` limit); then every rank's result is gathered and the move voted.
// With one process it is exactly the thread pool's search.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <vector>

#include "cluster/cluster.h"
#include "search/search_link.h"
#include "search/threads.h"

namespace vblitz::search {

// One rank's part of the last cluster search.
struct RankShare {
  uint64_t nodes = 0;
  uint64_t sent = 0, received = 0, stored = 0;  // table entries: sent on, received, stored here
  uint64_t rounds = 0;                          // exchange rounds completed
};

class ClusterSearch final : public SearchLink {
 public:
  ClusterSearch(TranspositionTable& tt, ThreadPool& pool) : tt_(tt), pool_(pool) {}

  // Searches pos as this rank's part of the cluster's search. Every rank calls it with the same
  // arguments (rank 0 reads the commands and hands them on). Rank 0 obeys `limits` and `stop`
  // and reports with the cluster's nodes; the other ranks search without limits and without
  // reports until rank 0 is done. Every rank returns the voted result with the cluster's nodes.
  Result run(const core::Position& pos, const Limits& limits, const std::atomic<bool>& stop,
             const Searcher::ReportFn& report);
  // Every rank's share of the last search (rank by rank).
  const std::vector<RankShare>& shares() const { return shares_; }
  // Whether `stop` on rank 0 ended the last search (the same answer on every rank).
  bool stopped() const { return stopped_; }
  // Whether a rank stopped answering during the last search: its rounds or the vote did not
  // complete within kRankDeadline of this rank's own search. run() then returned this rank's
  // own result; the caller answers with it and ends the run (cluster::abort_run), since no
  // collective can complete any more.
  bool lost_rank() const { return lost_rank_; }
  static constexpr std::chrono::milliseconds kRankDeadline{2000};
  ThreadPool& pool() { return pool_; }

  void poll() override;
  void offer(const SharedEntry& entry) override;

  cluster::Exchange exchange = cluster::Exchange::kRing;  // UCI ClusterExchange, the same on every rank

 private:
  // Starts the next round with this rank's nodes, its stop request and the entries offered.
  void start_round();
  // Stores the entries of a round's received block; true if the round ended the search.
  void take_round(const std::vector<char>& block);
  // After this rank's own search: runs rounds until the one that ends the search.
  void finish_rounds();  // sets lost_rank_ when the deadline passes first
  // Gathers every rank's result and share; the move voted (every rank computes the same).
  Result vote(const core::Position& pos, const Result& mine);

  TranspositionTable& tt_;
  ThreadPool& pool_;
  std::vector<RankShare> shares_;
  bool stopped_ = false;
  bool lost_rank_ = false;

  static constexpr size_t kOutbox = 64;  // entries sent per round at most
  static_assert(kOutbox * sizeof(SharedEntry) <= cluster::kMaxGatherBytes, "a round's entries fit a slot");

  // The exchange of the search in progress (the main search thread's, but for the outbox).
  std::mutex outbox_mutex_;
  std::vector<SharedEntry> outbox_;  // the deepest entries offered since the last round
  RankShare mine_;
  bool in_flight_ = false;
  bool ask_stop_ = false;                 // rank 0's search is over, or this rank completed the depth limit
  bool ended_ = false;                    // a round with a stop request completed
  std::atomic<bool> search_stop_{false};  // every rank's searchers stop on it
  const std::atomic<bool>* user_stop_ = nullptr;  // rank 0: `stop` and the commands that end a search
  int depth_limit_ = 0;                           // `go depth`: whichever rank completes it ends the search
  uint64_t nodes_at_round_ = 0;                   // this rank's nodes in the round in flight
  std::atomic<uint64_t> others_nodes_{0};         // the other ranks' nodes at the last round
  bool user_stopped_ = false;                     // rank 0: `stop` ended its search
  std::vector<char> block_, received_;            // the round's outgoing and incoming entries
};

}  // namespace vblitz::search
