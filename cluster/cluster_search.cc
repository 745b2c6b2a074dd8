#include "cluster/cluster_search.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <thread>

#include "cluster/cluster.h"

namespace vblitz::search {
namespace {

// What each rank contributes to the vote and the statistics, as gathered.
enum Field {
  kBest,
  kPonder,
  kDepth,
  kScore,
  kNodes,
  kSent,
  kReceived,
  kStored,
  kRounds,
  kStopped,
  kTTProbes,
  kTTHits,
  kPawnProbes,
  kPawnHits,
  kKingProbes,
  kKingHits,
  kFields
};

}  // namespace

Result ClusterSearch::run(const core::Position& pos, const Limits& limits, const std::atomic<bool>& stop,
                          const Searcher::ReportFn& report) {
  const int rank = cluster::rank();
  if (cluster::ranks() == 1) {
    Result r = pool_.run(pos, limits, stop, report);
    shares_.assign(1, RankShare{r.nodes});
    stopped_ = stop.load(std::memory_order_relaxed);
    return r;
  }
  const auto started = std::chrono::steady_clock::now();
  outbox_.clear();
  mine_ = RankShare();
  in_flight_ = ask_stop_ = ended_ = lost_rank_ = false;
  search_stop_ = false;
  user_stop_ = rank == 0 ? &stop : nullptr;
  depth_limit_ = limits.depth;
  others_nodes_ = 0;

  // Ranks other than 0 search as helpers: no limits but the root's, until rank 0 is done.
  Limits own = limits;
  if (rank != 0) {
    own = Limits();
    own.infinite = true;
    own.search_moves = limits.search_moves;
    own.root_bonus = limits.root_bonus;
  }
  Searcher::ReportFn cluster_report;
  if (rank == 0 && report)
    cluster_report = [this, &report](const Report& r) {
      Report all = r;
      if (all.currmove == core::Move::none()) all.nodes += others_nodes_.load(std::memory_order_relaxed);
      report(all);
    };
  pool_.set_cluster(rank * pool_.size(), this);
  const Result result = pool_.run(pos, own, search_stop_, cluster_report);
  pool_.set_cluster(0, nullptr);
  if (rank == 0) ask_stop_ = true;
  user_stopped_ = rank == 0 && stop.load(std::memory_order_relaxed);
  finish_rounds();
  mine_.nodes = result.nodes;
  if (lost_rank_) return result;  // a rank stopped answering: this rank's own move
  const Result voted = vote(pos, result);
  if (lost_rank_) return result;
  if (rank == 0 && report && voted.best != result.best) {
    report(result_line(voted, started, tt_.hashfull()));  // the move played is another rank's
  }
  return voted;
}

void ClusterSearch::poll() {
  if (user_stop_ && user_stop_->load(std::memory_order_relaxed)) search_stop_ = true;
  if (ended_) return;
  if (depth_limit_ && pool_.depth_completed() >= depth_limit_) ask_stop_ = true;
  if (in_flight_) {
    cluster::Signals sums{};
    if (!cluster::round_done(sums, received_)) return;
    in_flight_ = false;
    ++mine_.rounds;
    others_nodes_.store(sums[0] - nodes_at_round_, std::memory_order_relaxed);
    take_round(received_);
    if (sums[1] > 0) {
      ended_ = true;
      search_stop_ = true;
      return;
    }
  }
  start_round();
}

void ClusterSearch::offer(const SharedEntry& entry) {
  std::lock_guard<std::mutex> lock(outbox_mutex_);
  if (outbox_.size() < kOutbox) {
    outbox_.push_back(entry);
    return;
  }
  // Full: the entry replaces the shallowest one if it is deeper.
  auto shallowest =
      std::min_element(outbox_.begin(), outbox_.end(),
                       [](const SharedEntry& a, const SharedEntry& b) { return a.depth < b.depth; });
  if (shallowest->depth < entry.depth) *shallowest = entry;
}

void ClusterSearch::start_round() {
  std::vector<SharedEntry> entries;
  {
    std::lock_guard<std::mutex> lock(outbox_mutex_);
    entries.swap(outbox_);
  }
  block_.resize(entries.size() * sizeof(SharedEntry));
  if (!entries.empty()) std::memcpy(block_.data(), entries.data(), block_.size());
  mine_.sent += entries.size();
  nodes_at_round_ = pool_.total_nodes();
  cluster::start_round({nodes_at_round_, ask_stop_ ? 1u : 0u}, block_, exchange);
  in_flight_ = true;
}

void ClusterSearch::take_round(const std::vector<char>& block) {
  const size_t count = block.size() / sizeof(SharedEntry);
  for (size_t i = 0; i < count; ++i) {
    SharedEntry e;
    std::memcpy(&e, block.data() + i * sizeof(SharedEntry), sizeof e);
    ++mine_.received;
    mine_.stored += tt_.store_shared(e.key, core::Move(e.move), e.score, e.depth, Bound(e.bound));
  }
}

void ClusterSearch::finish_rounds() {
  const auto until = std::chrono::steady_clock::now() + kRankDeadline;
  while (!ended_) {
    poll();
    if (ended_) break;
    if (std::chrono::steady_clock::now() > until) {
      lost_rank_ = true;
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

Result ClusterSearch::vote(const core::Position& pos, const Result& mine) {
  std::vector<uint64_t> record(kFields);
  record[kBest] = mine.best.raw();
  record[kPonder] = mine.ponder.raw();
  record[kDepth] = uint64_t(mine.depth);
  record[kScore] = uint64_t(int64_t(mine.score));
  record[kNodes] = mine.nodes;
  record[kSent] = mine_.sent;
  record[kReceived] = mine_.received;
  record[kStored] = mine_.stored;
  record[kRounds] = mine_.rounds;
  record[kStopped] = user_stopped_;
  record[kTTProbes] = mine.tt_probes;
  record[kTTHits] = mine.tt_hits;
  record[kPawnProbes] = mine.pawn_probes;
  record[kPawnHits] = mine.pawn_hits;
  record[kKingProbes] = mine.king_probes;
  record[kKingHits] = mine.king_hits;
  const std::vector<uint64_t> all = cluster::gather_all(record, kRankDeadline);
  if (all.empty()) {
    lost_rank_ = true;
    return mine;
  }
  const size_t ranks = all.size() / kFields;
  auto field = [&](size_t rank, Field f) { return all[rank * kFields + f]; };
  auto score = [&](size_t rank) { return int(int64_t(field(rank, kScore))); };
  auto playable = [&](size_t rank) {
    const core::Move m(uint16_t(field(rank, kBest)));
    return m != core::Move::none() && pos.is_legal(m);
  };

  // The vote: each rank's move gains (score above the lowest + 20) x depth.
  int lowest = 0;
  bool any = false;
  for (size_t r = 0; r < ranks; ++r)
    if (playable(r)) lowest = any ? std::min(lowest, score(r)) : score(r), any = true;
  std::map<uint64_t, int64_t> votes;
  for (size_t r = 0; r < ranks; ++r)
    if (playable(r)) votes[field(r, kBest)] += int64_t(score(r) - lowest + 20) * int64_t(field(r, kDepth));
  // The rank whose line is played: the winning move's deepest search, the better score on a tie.
  size_t chosen = 0;
  bool found = false;
  for (size_t r = 0; r < ranks; ++r) {
    if (!playable(r)) continue;
    const bool better = !found || votes[field(r, kBest)] > votes[field(chosen, kBest)] ||
                        (field(r, kBest) == field(chosen, kBest) &&
                         (field(r, kDepth) > field(chosen, kDepth) ||
                          (field(r, kDepth) == field(chosen, kDepth) && score(r) > score(chosen))));
    if (better) chosen = r, found = true;
  }

  Result voted = mine;  // no rank has a move (mate or stalemate at the root): rank 0's answer
  if (found) {
    voted.best = core::Move(uint16_t(field(chosen, kBest)));
    voted.ponder = core::Move(uint16_t(field(chosen, kPonder)));
    voted.depth = int(field(chosen, kDepth));
    voted.score = score(chosen);
  }
  voted.nodes = voted.tt_probes = voted.tt_hits = 0;
  voted.pawn_probes = voted.pawn_hits = voted.king_probes = voted.king_hits = 0;
  shares_.assign(ranks, RankShare());
  for (size_t r = 0; r < ranks; ++r) {
    shares_[r] = {field(r, kNodes), field(r, kSent), field(r, kReceived), field(r, kStored),
                  field(r, kRounds)};
    voted.nodes += field(r, kNodes);
    voted.tt_probes += field(r, kTTProbes);
    voted.tt_hits += field(r, kTTHits);
    voted.pawn_probes += field(r, kPawnProbes);
    voted.pawn_hits += field(r, kPawnHits);
    voted.king_probes += field(r, kKingProbes);
    voted.king_hits += field(r, kKingHits);
  }
  stopped_ = field(0, kStopped) != 0;
  return voted;
}

}  // namespace vblitz::search
