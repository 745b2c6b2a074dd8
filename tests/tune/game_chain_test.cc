// The game chain (.vbc): records of games played at random, with gaps of one to eight plies as
// datagen's filters leave them, come back byte for byte at a few bytes a record; records no game
// links (shuffled, impossible positions, out-of-range fields) come back as keyframes; malformed
// chains are refused with a reason; `vblitz data pack|unpack` round-trips files.
#include "tune/game_chain.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/game.h"
#include "core/movegen.h"
#include "core/prng.h"
#include "tune/data_command.h"

namespace vblitz::tune {
namespace {

// Starts with every kind of move close at hand: castling both ways, en passant, promotions and
// under-promotions, captures.
const char* const kStarts[] = {
    core::Position::kStartFen,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 40",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 60",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 30",
};

// Plays `games` random games from the starts and keeps positions with gaps of 1-8 plies (mostly
// short, as datagen's filters leave them), each with a score and the game's result.
std::vector<PackedPosition> random_game_records(int games, uint64_t seed, int* kept_gaps = nullptr) {
  core::Prng prng(seed);
  std::vector<PackedPosition> records;
  for (int g = 0; g < games; ++g) {
    core::Game game;
    EXPECT_FALSE(game.set_fen(kStarts[g % std::size(kStarts)]));
    const GameResult result = GameResult(prng.below(3));
    std::vector<std::string> moves;
    int score = int(prng.below(600)) - 300, next_kept = 0;
    for (int ply = 0; ply < 160; ++ply) {
      const core::MoveList<core::LEGAL> legal(game.position());
      if (legal.size() == 0 || game.position().rule50_count() >= 100) break;
      if (ply == next_kept) {
        score = std::clamp(score + int(prng.below(81)) - 40, -32767, 32767);
        if (prng.below(50) == 0) score = prng.below(2) ? 32767 : -32767;  // mate scores
        records.push_back(PackedPosition::pack(game.position(), score, result));
        const int gap = prng.below(4) ? 1 + int(prng.below(3)) : 1 + int(prng.below(8));
        next_kept = ply + gap;
        if (kept_gaps) kept_gaps[gap - 1]++;
      }
      const core::Move m = legal.begin()[prng.below(legal.size())];
      EXPECT_FALSE(game.play({game.position().to_uci(m)}));
    }
  }
  return records;
}

std::vector<PackedPosition> round_trip(const std::vector<PackedPosition>& records, ChainStats* stats) {
  const std::string chain = encode_chain(records, stats);
  std::vector<PackedPosition> back;
  const auto error = decode_chain(chain, back);
  EXPECT_FALSE(error) << *error;
  return back;
}

TEST(GameChain, GamesComeBackByteForByteAtAFewBytesARecord) {
  int gaps[8] = {};
  const std::vector<PackedPosition> records = random_game_records(120, 7, gaps);
  for (int gap = 1; gap <= 8; ++gap) EXPECT_GT(gaps[gap - 1], 10) << "gaps of " << gap;
  ChainStats stats;
  EXPECT_EQ(round_trip(records, &stats), records);
  EXPECT_EQ(stats.records, records.size());
  // A keyframe a game, but for the steps the bounded search misses: random play moves pieces
  // back and forth (a datagen shard of 256 games has 5 such keyframes in 13,052 records).
  EXPECT_LE(stats.keyframes, 120u + records.size() / 10) << stats.keyframes;
  EXPECT_LT(double(stats.bytes) / double(records.size()), 8.0) << stats.bytes;
}

TEST(GameChain, RecordsNoGameLinksComeBackAsKeyframes) {
  std::vector<PackedPosition> records = random_game_records(20, 11);
  // Shuffled: hardly any record follows from the one before.
  core::Prng prng(3);
  for (size_t i = records.size(); i > 1; --i) std::swap(records[i - 1], records[prng.below(i)]);
  // Well-formed records that are no game's position, and fields out of a step's reach.
  core::Game start;
  PackedPosition pawn_on_last_rank = PackedPosition::pack(start.position(), 0, GameResult::kDraw);
  pawn_on_last_rank.bytes[8] = uint8_t((pawn_on_last_rank.bytes[8] & 0xf0) | core::W_PAWN);  // a1
  ASSERT_FALSE(pawn_on_last_rank.check());
  PackedPosition lowest_score = records[1];
  lowest_score.bytes[24] = 0x00, lowest_score.bytes[25] = 0x80;  // -32768: pack clamps to -32767
  PackedPosition last_ply = records[2];
  last_ply.bytes[26] = last_ply.bytes[27] = 0xff;
  records.insert(records.begin() + 5, {pawn_on_last_rank, lowest_score, last_ply});
  ChainStats stats;
  EXPECT_EQ(round_trip(records, &stats), records);
  EXPECT_GT(stats.keyframes, records.size() * 9 / 10);
}

TEST(GameChain, MalformedChainsAreRefusedWithAReason) {
  const std::vector<PackedPosition> records = random_game_records(3, 5);
  const std::string chain = encode_chain(records);
  std::vector<PackedPosition> out;
  EXPECT_FALSE(decode_chain(chain, out));
  const size_t step = kChainMagic.size() + 1 + PackedPosition::kBytes;  // the first step's entry
  size_t moves = step;                                                  // past the step's header (a varint)
  while (uint8_t(chain[moves]) & 0x80) ++moves;
  ++moves;
  ASSERT_NE(chain[step], 0) << "the second record is a keyframe";
  auto refused = [&](std::string bytes, const std::string& reason) {
    std::vector<PackedPosition> decoded;
    const auto error = decode_chain(bytes, decoded);
    ASSERT_TRUE(error) << reason;
    EXPECT_NE(error->find(reason), std::string::npos) << *error;
  };
  refused("VBD1" + chain.substr(4), "no VBC1 magic");
  refused(chain.substr(0, step - 3), "truncated keyframe");
  refused(chain.substr(0, moves), "truncated moves");
  refused(chain + '\x80', "truncated entry");
  refused(chain + "\xff\xff\xff\xff\x01", "too long");
  std::string bad = chain;
  bad[moves] = char(250);
  refused(bad, "past the legal moves");
  refused(std::string(kChainMagic) + '\1', "without a position");
  bad = chain;
  bad[kChainMagic.size() + 1 + 28] = 7;  // the keyframe's result
  refused(bad, "bad result");
}

TEST(GameChain, DataPackAndUnpackRoundTripFiles) {
  const std::vector<PackedPosition> records = random_game_records(30, 13);
  const std::string dir = ::testing::TempDir() + "/vblitz_pack_unpack";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(write_packed(dir + "/a.vbd", records));
  std::ostringstream out, err;
  ASSERT_EQ(run_data_command({"pack", dir + "/a.vbc", dir + "/a.vbd"}, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("wrote " + std::to_string(records.size()) + " records"), std::string::npos)
      << out.str();
  ASSERT_EQ(run_data_command({"unpack", dir + "/b.vbd", dir + "/a.vbc"}, out, err), 0) << err.str();
  std::vector<PackedPosition> back;
  ASSERT_FALSE(read_packed({dir + "/b.vbd"}, back));
  EXPECT_EQ(back, records);
  EXPECT_LT(std::filesystem::file_size(dir + "/a.vbc"), std::filesystem::file_size(dir + "/a.vbd") / 4);
  // A directory of both formats reads each file once, in name order.
  back.clear();
  std::filesystem::remove(dir + "/b.vbd");
  ASSERT_FALSE(read_packed({dir}, back));
  std::vector<PackedPosition> twice = records;
  twice.insert(twice.end(), records.begin(), records.end());
  EXPECT_EQ(back, twice);
  EXPECT_EQ(run_data_command({"pack", dir + "/c.vbd", dir + "/a.vbd"}, out, err), 2);  // wrong extension
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vblitz::tune
