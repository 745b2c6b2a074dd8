// The network evaluation against independent truth: the incremental accumulators equal a full
// refresh after every move of perft walks and random games (every special move, null moves),
// with scalar and vector kernels alike; scores are colour-symmetric; the file format round-trips
// and every damaged file is rejected with the current network kept.
#include "eval/network.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "core/game.h"
#include "core/movegen.h"
#include "core/prng.h"
#include "simd/dispatch.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

// King buckets from a layout name.
eval::KingBuckets kings(const std::string& layout) {
  eval::KingBuckets k;
  EXPECT_FALSE(eval::KingBuckets::parse(layout, k)) << layout;
  return k;
}

// A network with random weights that cannot overflow (32 rows of at most 500 stay below 32767).
eval::Network random_network(int hidden, uint64_t seed, int buckets = 1, const eval::KingBuckets& k = {}) {
  core::Prng rng(seed);
  auto lane = [&](int range) { return int16_t(int(rng.below(uint64_t(2 * range + 1))) - range); };
  eval::Network net;
  net.hidden = hidden;
  net.output_buckets = buckets;
  net.kings = k;
  for (int i = 0; i < k.count * eval::kNetworkInputs * hidden; ++i) net.feature_weights.push_back(lane(500));
  for (int i = 0; i < hidden; ++i) net.feature_bias.push_back(lane(200));
  for (int i = 0; i < buckets * 2 * hidden; ++i) net.output_weights.push_back(lane(128));
  for (int b = 0; b < buckets; ++b) net.output_bias.push_back(int32_t(rng.below(20001)) - 10000);
  EXPECT_FALSE(net.overflow_error());
  return net;
}

// Writes `net` to a temporary file and makes it the active network.
void activate(const eval::Network& net, const std::string& name) {
  const std::string path = temp_dir() + "/" + name + ".nnue";
  std::ofstream(path, std::ios::binary) << net.serialize();
  ASSERT_FALSE(eval::load_active_network(path));
}

// Walks every line to `depth` from the root, checking the stack against a refresh at each node.
void walk(core::Position& pos, eval::NetworkStack& stack, const eval::Network& net, int depth, int& nodes) {
  ++nodes;
  eval::NetworkStack fresh(2);
  fresh.reset(pos);
  const size_t h = size_t(net.hidden);
  for (core::Color c : {core::WHITE, core::BLACK}) {
    const int16_t* incremental = stack.accumulator(c);
    const int16_t* refreshed = fresh.accumulator(c);
    for (size_t i = 0; i < h; ++i) ASSERT_EQ(incremental[i], refreshed[i]) << pos.fen() << " lane " << i;
  }
  ASSERT_EQ(stack.evaluate(pos), eval::evaluate_network(net, pos)) << pos.fen();
  if (depth == 0) return;
  for (core::Move m : core::MoveList<core::LEGAL>(pos)) {
    core::StateInfo st;
    stack.push(pos, m);
    pos.do_move(m, st);
    walk(pos, stack, net, depth - 1, nodes);
    pos.undo_move(m);
    stack.pop();
    if (::testing::Test::HasFatalFailure()) return;
  }
}

class NetworkTest : public ::testing::TestWithParam<simd::Kernels> {
 protected:
  void SetUp() override { simd::set_kernels(GetParam()); }
  void TearDown() override { simd::set_kernels(simd::Kernels::kVector); }
};

// Without king buckets, and with eight mirrored ones: a king crossing from file d to e, or to
// another bucket, refreshes its own side's accumulator.
class NetworkWalkTest : public ::testing::TestWithParam<std::tuple<simd::Kernels, std::string>> {
 protected:
  void SetUp() override { simd::set_kernels(std::get<0>(GetParam())); }
  void TearDown() override { simd::set_kernels(simd::Kernels::kVector); }
};

TEST_P(NetworkWalkTest, IncrementalAccumulatorsEqualRefreshAlongPerftWalks) {
  const eval::Network net = random_network(48, 5, 1, kings(std::get<1>(GetParam())));
  activate(net, "walk");
  // Castling both ways (standard and Chess960), en passant (also discovered along the rank),
  // promotions with and without capture.
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
      "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
  };
  int nodes = 0;
  for (const char* fen : fens) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen, std::string(fen).find("HFhf") != std::string::npos)) << fen;
    eval::NetworkStack stack(8);
    stack.reset(game.position());
    walk(game.position(), stack, net, 3, nodes);
    ASSERT_FALSE(HasFatalFailure()) << fen;
  }
  EXPECT_GT(nodes, 100000);
}

INSTANTIATE_TEST_SUITE_P(KernelsAndKings, NetworkWalkTest,
                         ::testing::Combine(::testing::Values(simd::Kernels::kScalar, simd::Kernels::kVector),
                                            ::testing::Values("none", "8")),
                         [](const auto& info) {
                           return std::string(simd::kernels_name(std::get<0>(info.param))) + "_kings_" +
                                  std::get<1>(info.param);
                         });

// With eight output buckets: the games' captures cross from bucket to bucket; and with four
// mirrored king buckets, whose kings wander in the random games.
TEST_P(NetworkTest, IncrementalAccumulatorsEqualRefreshAlongRandomGamesWithNullMoves) {
  for (const char* layout : {"none", "4"}) {
    SCOPED_TRACE(layout);
    const eval::Network net = random_network(32, 6, 8, kings(layout));
    activate(net, "games");
    std::mt19937_64 rng(7);
    int checked = 0;
    for (int g = 0; g < 200; ++g) {
      core::Game game;
      core::Position& pos = game.position();
      eval::NetworkStack stack(128);
      stack.reset(pos);
      std::vector<std::pair<core::Move, std::unique_ptr<core::StateInfo>>> played;
      for (int ply = 0; ply < 120; ++ply) {
        core::MoveList<core::LEGAL> moves(pos);
        if (moves.size() == 0) break;
        auto st = std::make_unique<core::StateInfo>();
        if (!pos.in_check() && rng() % 10 == 0) {
          stack.push_null();
          pos.do_null_move(*st);
          played.push_back({core::Move::null(), std::move(st)});
        } else {
          const core::Move m = *(moves.begin() + long(rng() % moves.size()));
          stack.push(pos, m);
          pos.do_move(m, *st);
          played.push_back({m, std::move(st)});
        }
        if (rng() % 3) continue;  // evaluate only now and then: the updates catch up lazily
        ASSERT_EQ(stack.evaluate(pos), eval::evaluate_network(net, pos)) << pos.fen();
        ++checked;
      }
      // Unwinding restores each earlier evaluation.
      while (!played.empty()) {
        const core::Move m = played.back().first;
        m == core::Move::null() ? pos.undo_null_move() : pos.undo_move(m);
        stack.pop();
        played.pop_back();
        if (played.size() % 7 == 0) {
          ASSERT_EQ(stack.evaluate(pos), eval::evaluate_network(net, pos)) << pos.fen();
        }
      }
    }
    EXPECT_GT(checked, 3000) << layout;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, NetworkTest,
                         ::testing::Values(simd::Kernels::kScalar, simd::Kernels::kVector),
                         [](const auto& info) { return std::string(simd::kernels_name(info.param)); });

// The kernels load whole vectors of rows and accumulators; on a 64-byte boundary (with H a
// multiple of 32) no load straddles two cache lines (the update ran 1.5x faster, perf/kernels_bench).
TEST(Network, WeightRowsAndAccumulatorsStartOnCacheLines) {
  auto on_line = [](const int16_t* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; };
  const std::shared_ptr<const eval::Network> net = eval::active_network();
  ASSERT_EQ(net->hidden % 32, 0);
  for (int feature : {0, 1, 383, 767}) EXPECT_TRUE(on_line(net->row(feature))) << feature;
  EXPECT_TRUE(on_line(net->feature_bias.data()));
  EXPECT_TRUE(on_line(net->output_weights.data()));
  core::Game game;
  ASSERT_FALSE(game.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
  for (int depth : {1, 9, 65}) {  // several sizes of stack: the allocation differs
    eval::NetworkStack stack(depth);
    stack.reset(game.position());
    EXPECT_TRUE(on_line(stack.accumulator(core::WHITE)));
    EXPECT_TRUE(on_line(stack.accumulator(core::BLACK)));
  }
}

TEST(Network, ScoresAreColourSymmetric) {
  for (const eval::Network& net : {random_network(32, 8), random_network(32, 11, 8),
                                   random_network(32, 16, 8, kings("8")), *eval::active_network()}) {
    int positions = 0;
    for (const std::string& fen : suite_fens()) {
      core::Game game, flipped;
      ASSERT_FALSE(game.set_fen(fen));
      ASSERT_FALSE(flipped.set_fen(game.position().flipped_fen()));
      ASSERT_EQ(eval::evaluate_network(net, game.position()), eval::evaluate_network(net, flipped.position()))
          << fen;
      ++positions;
    }
    EXPECT_GT(positions, 1000);  // the perft suites of tests/fixtures
  }
}

// A NUMA node's copy holds the active network's weights in memory of its own, is made once per
// node, follows a newly loaded network, and evaluates as the shared one does; node -1 is the
// shared network.
TEST(Network, NodeCopiesEqualTheActiveNetworkAndFollowIt) {
  activate(random_network(32, 21), "numa_first");
  const std::shared_ptr<const eval::Network> shared = eval::active_network();
  EXPECT_EQ(eval::network_on_node(eval::active_network(), -1), shared);
  const std::shared_ptr<const eval::Network> node0 = eval::network_on_node(eval::active_network(), 0),
                                             node3 = eval::network_on_node(eval::active_network(), 3);
  for (const auto& copy : {node0, node3}) {
    EXPECT_NE(copy, shared);
    EXPECT_NE(copy->feature_weights.data(), shared->feature_weights.data());
    EXPECT_EQ(copy->serialize(), shared->serialize());
  }
  EXPECT_NE(node0, node3);
  EXPECT_EQ(eval::network_on_node(eval::active_network(), 0), node0);  // made once

  eval::NetworkStack on_node(4);
  on_node.set_numa_node(3);
  core::Game game;
  ASSERT_FALSE(game.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
  on_node.reset(game.position());
  EXPECT_EQ(on_node.network(), node3.get());
  EXPECT_EQ(on_node.evaluate(game.position()), eval::evaluate_network(*shared, game.position()));

  activate(random_network(32, 22), "numa_second");
  const std::shared_ptr<const eval::Network> next = eval::network_on_node(eval::active_network(), 0);
  EXPECT_NE(next, node0);
  EXPECT_EQ(next->serialize(), eval::active_network()->serialize());
  on_node.reset(game.position());
  EXPECT_EQ(on_node.network(), eval::network_on_node(eval::active_network(), 3).get());
  EXPECT_EQ(on_node.evaluate(game.position()),
            eval::evaluate_network(*eval::active_network(), game.position()));
}

TEST(Network, FileRoundTripsAndDamagedFilesAreRejected) {
  const eval::Network net = random_network(16, 9);
  const std::string bytes = net.serialize();
  eval::Network parsed;
  ASSERT_FALSE(parsed.parse(bytes));
  EXPECT_EQ(parsed.serialize(), bytes);
  EXPECT_EQ(parsed.checksum(), net.checksum());

  activate(random_network(16, 10), "current");
  const uint64_t current = eval::active_network()->checksum();
  auto rejected = [&](const std::string& damaged, const std::string& reason) {
    eval::Network target = net;
    const auto error = target.parse(damaged);
    EXPECT_TRUE(error) << reason;
    EXPECT_EQ(target.serialize(), bytes) << reason;  // unchanged
    const std::string path = temp_dir() + "/damaged.nnue";
    std::ofstream(path, std::ios::binary) << damaged;
    EXPECT_TRUE(eval::load_active_network(path)) << reason;
    EXPECT_EQ(eval::active_network()->checksum(), current) << reason;
  };
  rejected("", "empty");
  rejected(bytes.substr(0, bytes.size() / 2), "truncated");
  rejected(bytes + "x", "one byte too many");
  std::string flipped_bit = bytes;
  flipped_bit[100] ^= 4;
  rejected(flipped_bit, "a weight changed (bad checksum)");
  std::string magic = bytes;
  magic[0] = 'X';
  rejected(magic, "bad magic");
  std::string version = bytes;
  version[4] = 3;
  rejected(version, "unknown version");
  version[4] = 2;
  rejected(version, "version 2 without its bucket count");
  // A consistent file whose weights could overflow the int16 accumulator.
  eval::Network huge = net;
  for (int16_t& w : huge.feature_weights) w = 2000;
  rejected(huge.serialize(), "overflowing weights");
  EXPECT_TRUE(huge.overflow_error());
  eval::Network big_output = net;
  big_output.output_weights[3] = 200;  // 200 * 255 does not fit an int16 product
  rejected(big_output.serialize(), "overflowing output weight");
  EXPECT_TRUE(eval::load_active_network(temp_dir() + "/no-such-file.nnue"));
}

// One output bucket is written as version 1, byte for byte the format of networks made before
// buckets existed; more buckets as version 2, which round-trips and whose bucket count is checked.
TEST(Network, OutputBucketsHaveTheirOwnFileVersion) {
  const std::string one_bucket = random_network(16, 15).serialize();
  EXPECT_EQ(one_bucket[4], 1);
  EXPECT_EQ(one_bucket.size(), 28 + 2 * (768 * 16 + 16 + 2 * 16) + 4 + 8u);  // the version 1 layout
  eval::Network copy;
  ASSERT_FALSE(copy.parse(one_bucket));
  EXPECT_EQ(copy.output_buckets, 1);

  const eval::Network net = random_network(16, 12, 8);
  const std::string bytes = net.serialize();
  EXPECT_EQ(bytes[4], 2);
  EXPECT_EQ(bytes[28], 8);
  eval::Network parsed;
  ASSERT_FALSE(parsed.parse(bytes));
  EXPECT_EQ(parsed.output_buckets, 8);
  EXPECT_EQ(parsed.serialize(), bytes);
  for (char count : {0, 1, 9}) {  // a version 2 file's count is 2..8
    std::string damaged = bytes;
    damaged[28] = count;
    EXPECT_TRUE(parsed.parse(damaged)) << int(count);
  }
}

// The bucket is picked by the number of pieces, kings included: 2-5 pieces bucket 0, 6-9
// bucket 1, ..., 30-32 bucket 7. Zero output weights leave each bucket's bias as the score.
TEST(Network, OutputBucketFollowsThePieceCount) {
  eval::Network net = random_network(16, 13, 8);
  std::fill(net.output_weights.begin(), net.output_weights.end(), int16_t(0));
  for (int b = 0; b < 8; ++b) net.output_bias[size_t(b)] = (b + 1) * eval::kQuantA * eval::kQuantB;
  const int expected_bucket[33] = {-1, -1, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3,
                                   3,  4,  4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7};
  int counts_seen = 0;
  std::vector<bool> seen(33);
  std::mt19937_64 rng(14);
  for (int g = 0; g < 40 && counts_seen < 31; ++g) {
    core::Game game;
    core::Position& pos = game.position();
    std::vector<std::unique_ptr<core::StateInfo>> states;
    for (int ply = 0; ply < 400; ++ply) {
      const int pieces = core::popcount(pos.pieces());
      ASSERT_EQ(eval::evaluate_network(net, pos), (expected_bucket[pieces] + 1) * net.scale) << pos.fen();
      if (!seen[size_t(pieces)]) seen[size_t(pieces)] = true, ++counts_seen;
      core::MoveList<core::LEGAL> moves(pos);
      if (moves.size() == 0) break;
      // Captures first, so the games run down to bare kings.
      std::vector<core::Move> captures;
      for (core::Move m : moves)
        if (pos.piece_on(m.to()) != core::NO_PIECE && m.kind() != core::Move::CASTLING) captures.push_back(m);
      const core::Move m = !captures.empty() && rng() % 4 ? captures[rng() % captures.size()]
                                                          : *(moves.begin() + long(rng() % moves.size()));
      states.push_back(std::make_unique<core::StateInfo>());
      pos.do_move(m, *states.back());
    }
  }
  EXPECT_EQ(counts_seen, 31);  // every count from 2 to 32
}

// A mirrored layout sees a position and its mirror image alike: every position of the suites
// scores as its mirror image, which a network without mirroring does not.
TEST(Network, MirroredKingBucketsScoreAPositionAsItsMirrorImage) {
  int positions = 0, differ_plain = 0;
  const eval::Network mirrored = random_network(32, 17, 8, kings("4")), plain = random_network(32, 17, 8);
  for (const std::string& fen : suite_fens()) {
    core::Game game, image;
    ASSERT_FALSE(game.set_fen(fen));
    ASSERT_FALSE(image.set_fen(mirror_files(fen))) << fen;
    ASSERT_EQ(eval::evaluate_network(mirrored, game.position()),
              eval::evaluate_network(mirrored, image.position()))
        << fen;
    differ_plain +=
        eval::evaluate_network(plain, game.position()) != eval::evaluate_network(plain, image.position());
    ++positions;
  }
  EXPECT_GT(positions, 1000);
  EXPECT_GT(differ_plain, positions / 2);
}

// The king's own square picks the rows: moving only a king to another bucket changes the
// score through every piece's row, and a king bucket's rows are those of its squares only.
TEST(Network, KingBucketLayouts) {
  const eval::KingBuckets four = kings("4"), eight = kings("8");
  EXPECT_EQ(four.count, 4);
  EXPECT_TRUE(four.mirrored);
  EXPECT_EQ(eight.count, 8);
  // "4": a1-c1 (and f1-h1) castled, d1-e1, rank 2, the rest.
  EXPECT_EQ(four.key(core::WHITE, core::SQ_G1), 0 * 8 + 7);
  EXPECT_EQ(four.key(core::WHITE, core::SQ_B1), 0);
  EXPECT_EQ(four.key(core::WHITE, core::SQ_E1), 1 * 8 + 7);
  EXPECT_EQ(four.key(core::WHITE, core::SQ_D1), 1 * 8);
  EXPECT_EQ(four.key(core::BLACK, core::SQ_G8), 0 * 8 + 7);  // relative: Black's back rank
  EXPECT_EQ(four.key(core::BLACK, core::SQ_C7), 2 * 8);
  EXPECT_EQ(four.key(core::WHITE, core::SQ_C7), 3 * 8);
  eval::KingBuckets listed;
  ASSERT_FALSE(
      eval::KingBuckets::parse("0,0,0,1,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3", listed));
  EXPECT_TRUE(listed == four);
  eval::KingBuckets flat;
  ASSERT_FALSE(eval::KingBuckets::parse("4:flat", flat));
  EXPECT_EQ(flat.count, 4);
  EXPECT_FALSE(flat.mirrored);
  EXPECT_EQ(flat.key(core::WHITE, core::SQ_G1), 0);  // no mirror: the row set alone
  EXPECT_EQ(flat.key(core::WHITE, core::SQ_E1), 1 * 8);
  eval::KingBuckets none;
  ASSERT_FALSE(eval::KingBuckets::parse("none", none));
  EXPECT_TRUE(none.plain());
  eval::KingBuckets mirror;
  ASSERT_FALSE(eval::KingBuckets::parse("mirror", mirror));
  EXPECT_EQ(mirror.count, 1);
  EXPECT_TRUE(mirror.mirrored && !mirror.plain());
  for (const char* bad : {"3", "", "0,1", "mirror:flat", ":flat", "4:flat:flat",
                          "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2",
                          "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,x",
                          "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"}) {
    eval::KingBuckets k = four;
    EXPECT_TRUE(eval::KingBuckets::parse(bad, k)) << bad;  // "...2": bucket 1 has no square
    EXPECT_TRUE(k == four) << bad;
  }
  // Black's king on g8 is in bucket 0 (its own back rank, mirrored); White's in 0, 0 and 1.
  eval::Network net = random_network(32, 18, 1, four);
  core::Game a, b, c;
  ASSERT_FALSE(a.set_fen("6k1/pppppppp/8/8/8/8/PPPPPPPP/6K1 w - - 0 1"));  // bucket 0
  ASSERT_FALSE(b.set_fen("6k1/pppppppp/8/8/8/8/PPPPPPPP/5K2 w - - 0 1"));  // f1: bucket 0 too
  ASSERT_FALSE(c.set_fen("6k1/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"));  // e1: bucket 1
  const int sa = eval::evaluate_network(net, a.position()), sb = eval::evaluate_network(net, b.position()),
            sc = eval::evaluate_network(net, c.position());
  // Zeroing bucket 1's rows changes e1's score and neither of the others.
  std::fill(net.feature_weights.begin() + 1 * 768 * 32, net.feature_weights.begin() + 2 * 768 * 32,
            int16_t(0));
  EXPECT_EQ(eval::evaluate_network(net, a.position()), sa);
  EXPECT_EQ(eval::evaluate_network(net, b.position()), sb);
  EXPECT_NE(eval::evaluate_network(net, c.position()), sc);
}

// Version 3 files carry the king bucket layout, round-trip, and every inconsistent layout is
// refused; plain kings keep versions 1 and 2.
TEST(Network, KingBucketsHaveTheirOwnFileVersion) {
  EXPECT_EQ(random_network(16, 19, 8).serialize()[4], 2);
  const eval::Network net = random_network(16, 19, 8, kings("8"));
  const std::string bytes = net.serialize();
  EXPECT_EQ(bytes[4], 3);
  EXPECT_EQ(bytes.size(), 104 + 2 * (8 * 768 * 16 + 16 + 8 * 2 * 16) + 4 * 8 + 8u);
  eval::Network parsed;
  ASSERT_FALSE(parsed.parse(bytes));
  EXPECT_TRUE(parsed.kings == net.kings);
  EXPECT_EQ(parsed.serialize(), bytes);
  eval::Network mirror_only = random_network(16, 20, 1, kings("mirror"));
  ASSERT_FALSE(parsed.parse(mirror_only.serialize()));
  EXPECT_TRUE(parsed.kings.mirrored);
  EXPECT_EQ(parsed.kings.count, 1);
  // Rewrites header fields and the checksum, so that only the field is wrong.
  auto with = [&](size_t at, uint8_t value) {
    std::string damaged = bytes;
    damaged[at] = char(value);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i + 8 < damaged.size(); ++i) h = (h ^ uint8_t(damaged[i])) * 0x100000001b3ULL;
    for (int i = 0; i < 8; ++i) damaged[damaged.size() - 8 + size_t(i)] = char(uint8_t(h >> (8 * i)));
    return damaged;
  };
  ASSERT_FALSE(parsed.parse(with(40, bytes[40])));  // unchanged: accepted
  EXPECT_TRUE(parsed.parse(with(32, 9)));           // a count the size does not match
  EXPECT_TRUE(parsed.parse(with(32, 0)));           // no king bucket
  EXPECT_TRUE(parsed.parse(with(32, 33)));          // too many
  EXPECT_TRUE(parsed.parse(with(36, 2)));           // unknown flag
  EXPECT_FALSE(parsed.parse(with(36, 0)));          // not mirrored: eight buckets of their own squares
  EXPECT_FALSE(parsed.kings.mirrored);
  EXPECT_TRUE(parsed.parse(with(40, 8)));  // a1's bucket beyond the count
  EXPECT_TRUE(parsed.parse(with(40, 1)));  // a1 differs from h1 in a mirrored table
}

// The overflow check holds in every king bucket, not only the first.
TEST(Network, OverflowIsCheckedInEveryKingBucket) {
  eval::Network net = random_network(16, 23, 1, kings("4"));
  EXPECT_FALSE(net.overflow_error());
  for (size_t f = 0; f < 768; ++f) net.feature_weights[(3 * 768 + f) * 16 + 5] = 1100;  // bucket 3, lane 5
  const auto error = net.overflow_error();
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("king bucket 3"), std::string::npos) << *error;
}

}  // namespace
}  // namespace vblitz::test
