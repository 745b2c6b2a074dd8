// Packed network data: the 32-byte record round-trips every suite position; datagen's packed
// shards hold only positions that pass the filters, resume to the same bytes and refuse other
// options; `vblitz data` de-duplicates, shuffles reproducibly and splits.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "core/game.h"
#include "data/data_command.h"
#include "data/datagen.h"
#include "data/packed_position.h"
#include "eval/network.h"
#include "search/score.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(PackedPosition, RoundTripsEveryStandardSuitePosition) {
  int positions = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    const core::Position& pos = game.position();
    if (pos.is_chess960()) continue;
    const int score = int(pos.key() % 2001) - 1000;
    const auto p = data::PackedPosition::pack(pos, score, data::GameResult::kWhiteWins);
    ASSERT_FALSE(p.check()) << fen;
    EXPECT_EQ(p.fen(), pos.fen());
    EXPECT_EQ(p.white_score(), score);
    EXPECT_EQ(p.result(), data::GameResult::kWhiteWins);
    EXPECT_EQ(p.side_to_move(), pos.side_to_move());
    EXPECT_EQ(p.text_line(), pos.fen() + " | " + std::to_string(score) + " | 1-0");
    ++positions;
  }
  EXPECT_GT(positions, 100);
  data::PackedPosition bad;
  EXPECT_TRUE(bad.check());  // no kings
}

// A record is accepted exactly when core's FEN reader accepts the position it stands for: every
// suite position with every en passant square and castling right set in its record (the
// mutations hit real positions, so some are possible and most are not).
TEST(PackedPosition, CheckAgreesWithCoresFenReaderOnEnPassantAndCastling) {
  int accepted = 0, refused = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    if (game.position().is_chess960()) continue;
    const auto packed = data::PackedPosition::pack(game.position(), 0, data::GameResult::kDraw);
    std::vector<int> eps = {64};
    for (int ep = int(game.position().key() % 3); ep < 64; ep += 3) eps.push_back(ep);
    for (const int ep : eps) {
      for (const int rights : {int(packed.castling_rights()), 0, 5, 10, 15}) {
        data::PackedPosition p = packed;
        p.bytes[30] = uint8_t(ep);
        p.bytes[29] = uint8_t((p.bytes[29] & 1) | (rights << 1));
        core::Game check;
        const bool core_accepts = !check.set_fen(p.fen());
        EXPECT_EQ(!p.check_position(), core_accepts)
            << p.fen() << (p.check_position() ? ": " + *p.check_position() : "");
        (core_accepts ? accepted : refused) += 1;
      }
    }
  }
  EXPECT_GT(accepted, 300);
  EXPECT_GT(refused, 3000);
  // The case: e3 with White to move (before, `data export` wrote it as a FEN that
  // `position fen` refused).
  core::Game game;
  ASSERT_FALSE(game.set_fen("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"));
  data::PackedPosition p = data::PackedPosition::pack(game.position(), 0, data::GameResult::kDraw);
  p.bytes[30] = 20;         // e3
  EXPECT_FALSE(p.check());  // well formed: a game chain may store it
  ASSERT_TRUE(p.check_position());
  EXPECT_NE(p.check_position()->find("en passant square e3"), std::string::npos) << *p.check_position();
}

// Empty inputs and malformed numbers are refused with a message naming them; a bad record is
// named with its file, index and byte offset.
TEST(DataCommand, RefusesEmptyInputsBadNumbersAndBadRecords) {
  const std::string empty = temp_dir() + "/empty.vbd";
  std::ofstream(empty, std::ios::binary).flush();
  std::ostringstream out, err;
  EXPECT_EQ(data::run_data_command({"stats", empty}, out, err), 1);
  EXPECT_NE(err.str().find("no records"), std::string::npos) << err.str();
  for (const char* verb : {"export", "unpack"}) {
    err.str("");
    std::vector<std::string> args = {verb};
    if (std::string(verb) == "unpack") args.push_back(temp_dir() + "/out.vbd");
    args.push_back(empty);
    EXPECT_EQ(data::run_data_command(args, out, err), 1) << verb;
    EXPECT_NE(err.str().find("no records"), std::string::npos) << verb << ": " << err.str();
  }
  for (const char* bad : {"nan", "inf", "0.5abc", "-0.1", "1", "", " 0.1"}) {
    err.str("");
    EXPECT_EQ(data::run_data_command({"prepare", temp_dir() + "/p", empty, "--validation", bad}, out, err), 2)
        << bad;
    EXPECT_NE(err.str().find("--validation"), std::string::npos) << bad << ": " << err.str();
  }
  for (const char* bad : {"abc", "-1", "1.5", "99999999999999999999999"}) {
    err.str("");
    EXPECT_EQ(data::run_data_command({"prepare", temp_dir() + "/p", empty, "--seed", bad}, out, err), 2)
        << bad;
    EXPECT_NE(err.str().find("--seed takes a whole number"), std::string::npos) << bad << ": " << err.str();
  }
  // A record whose en passant square no pawn can have passed, second in its file.
  core::Game game;
  ASSERT_FALSE(game.set_fen("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"));
  data::PackedPosition good = data::PackedPosition::pack(game.position(), 0, data::GameResult::kDraw),
                       bad = good;
  bad.bytes[30] = 20;  // e3, White to move
  const std::string file = temp_dir() + "/bad_ep.vbd";
  {
    std::ofstream f(file, std::ios::binary);
    f.write(reinterpret_cast<const char*>(good.bytes.data()), 32);
    f.write(reinterpret_cast<const char*>(bad.bytes.data()), 32);
  }
  err.str("");
  EXPECT_EQ(data::run_data_command({"export", file}, out, err), 1);
  EXPECT_NE(err.str().find("record 1 (byte 32): en passant square e3 is impossible"), std::string::npos)
      << err.str();
}

data::DatagenOptions packed_run(const std::string& name) {
  data::DatagenOptions o;
  o.out_path = temp_dir() + "/" + name;
  std::filesystem::remove_all(o.out_path);
  o.format = data::DataFormat::kPacked;
  o.games = 10;
  o.shard_games = 4;
  o.nodes = 300;
  o.threads = 2;
  o.min_ply = 10;
  return o;
}

TEST(PackedDatagen, ShardsHoldFilteredPositionsAndResumeToTheSameBytes) {
  const data::DatagenOptions o = packed_run("vblitz_packed");
  std::ostringstream log;
  ASSERT_EQ(data::run_datagen(o, log), 0) << log.str();
  EXPECT_NE(log.str().find("positions/s"), std::string::npos) << log.str();
  // Ten games round up to three shards of four.
  for (int shard = 0; shard < 3; ++shard) ASSERT_TRUE(std::filesystem::exists(data::shard_path(o, shard)));
  EXPECT_FALSE(std::filesystem::exists(data::shard_path(o, 3)));

  std::vector<data::PackedPosition> records;
  ASSERT_FALSE(data::read_packed({o.out_path}, records));
  ASSERT_GT(records.size(), 100u);
  for (const data::PackedPosition& p : records) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(p.fen())) << p.fen();
    EXPECT_FALSE(game.position().in_check()) << p.fen();
    EXPECT_FALSE(search::is_mate_score(p.white_score())) << p.text_line();
    EXPECT_GE(p.ply(), o.min_ply) << p.text_line();
  }

  // A stopped run resumes: a lost shard is played again, byte for byte, on one thread too.
  const std::string middle = data::shard_path(o, 1);
  const std::string original = file_bytes(middle);
  std::filesystem::remove(middle);
  data::DatagenOptions again = o;
  again.threads = 1;
  ASSERT_EQ(data::run_datagen(again, log), 0) << log.str();
  EXPECT_EQ(file_bytes(middle), original);

  // Other options under the same seed would mix two data sets: refused.
  data::DatagenOptions other = o;
  other.nodes = 500;
  std::ostringstream refused;
  EXPECT_NE(data::run_datagen(other, refused), 0);
  EXPECT_NE(refused.str().find("other options"), std::string::npos) << refused.str();
  // So would the other evaluation.
  data::DatagenOptions other_eval = o;
  other_eval.eval_mode =
      o.eval_mode == search::EvalMode::kNetwork ? search::EvalMode::kClassic : search::EvalMode::kNetwork;
  std::ostringstream refused_eval;
  EXPECT_NE(data::run_datagen(other_eval, refused_eval), 0);
}

// `--format chain` writes the same records, each shard a game chain of a few bytes a record.
TEST(PackedDatagen, ChainShardsHoldTheSameRecords) {
  const data::DatagenOptions packed = packed_run("vblitz_packed_for_chain");
  data::DatagenOptions chain = packed_run("vblitz_chain");
  chain.format = data::DataFormat::kChain;
  std::ostringstream log;
  ASSERT_EQ(data::run_datagen(packed, log), 0) << log.str();
  ASSERT_EQ(data::run_datagen(chain, log), 0) << log.str();
  uintmax_t packed_bytes = 0, chain_bytes = 0;
  for (int shard = 0; shard < 3; ++shard) {
    const std::string path = data::shard_path(chain, shard);
    ASSERT_EQ(std::filesystem::path(path).extension(), ".vbc");
    std::vector<data::PackedPosition> from_packed, from_chain;
    ASSERT_FALSE(data::read_packed({data::shard_path(packed, shard)}, from_packed));
    ASSERT_FALSE(data::read_packed({path}, from_chain));
    EXPECT_EQ(from_chain, from_packed) << "shard " << shard;
    packed_bytes += std::filesystem::file_size(data::shard_path(packed, shard));
    chain_bytes += std::filesystem::file_size(path);
  }
  EXPECT_LT(chain_bytes * 5, packed_bytes);
}

// Each game depends on the seed and its index alone: one thread and three (which take the games
// of a shard out of order) write the same bytes, chains and text alike.
TEST(PackedDatagen, TheSameSeedWritesTheSameBytesOnAnyThreadCount) {
  for (const data::DataFormat format : {data::DataFormat::kChain, data::DataFormat::kText}) {
    std::string bytes[2];
    for (const int threads : {1, 3}) {
      data::DatagenOptions o = packed_run("vblitz_threads_" + std::to_string(threads));
      o.format = format;
      o.threads = threads;
      o.games = 13;
      if (format == data::DataFormat::kText) o.out_path += ".txt";
      std::ostringstream log;
      ASSERT_EQ(data::run_datagen(o, log), 0) << log.str();
      EXPECT_NE(log.str().find("% of their time outside games"), std::string::npos) << log.str();
      std::string& all = bytes[threads == 3];
      if (format == data::DataFormat::kText) all = file_bytes(o.out_path);
      for (int shard = 0; format == data::DataFormat::kChain && shard < 4; ++shard)
        all += file_bytes(data::shard_path(o, shard)) + "|";
    }
    EXPECT_GT(bytes[0].size(), 1000u);
    EXPECT_EQ(bytes[0], bytes[1]) << (format == data::DataFormat::kText ? "text" : "chain");
  }
}

TEST(PackedDatagen, NetworkModePlayersScoreWithTheNetwork) {
  data::DatagenOptions classic = packed_run("vblitz_packed_classic");
  data::DatagenOptions network = packed_run("vblitz_packed_network");
  classic.games = network.games = 4;
  classic.eval_mode = search::EvalMode::kClassic;
  network.eval_mode = search::EvalMode::kNetwork;
  std::ostringstream log;
  ASSERT_EQ(data::run_datagen(classic, log), 0) << log.str();
  ASSERT_EQ(data::run_datagen(network, log), 0) << log.str();
  EXPECT_NE(file_bytes(data::shard_path(network, 0)), file_bytes(data::shard_path(classic, 0)));
  std::ifstream run(network.out_path + "/seed" + std::to_string(network.seed) + ".run");
  const std::string signature((std::istreambuf_iterator<char>(run)), std::istreambuf_iterator<char>());
  EXPECT_NE(signature.find("eval network " + eval::active_network_name()), std::string::npos) << signature;
}

TEST(PackedDatagen, ParsesItsArguments) {
  data::DatagenOptions o;
  ASSERT_FALSE(data::parse_datagen_args(
      {"dir", "--format", "packed", "--min-ply", "12", "--shard-games", "64", "--max-opening-score", "300"},
      o));
  EXPECT_EQ(o.format, data::DataFormat::kPacked);
  EXPECT_EQ(o.min_ply, 12);
  EXPECT_EQ(o.shard_games, 64);
  EXPECT_EQ(o.max_opening_score, 300);
  EXPECT_TRUE(data::parse_datagen_args({"dir", "--format", "binary"}, o));
  EXPECT_TRUE(data::parse_datagen_args({"dir", "--format", "packed", "--pgn", "x.pgn"}, o));
}

TEST(DataCommand, DeduplicatesShufflesReproduciblyAndSplits) {
  const data::DatagenOptions o = packed_run("vblitz_packed_prepare");
  std::ostringstream log;
  ASSERT_EQ(data::run_datagen(o, log), 0) << log.str();
  std::vector<data::PackedPosition> records;
  ASSERT_FALSE(data::read_packed({o.out_path}, records));
  // Independent truth: the records whose position (hash) did not come before, in order.
  std::vector<data::PackedPosition> firsts;
  std::unordered_set<uint64_t> seen;
  for (const auto& p : records)
    if (seen.insert(p.position_hash()).second) firsts.push_back(p);
  const size_t unique = firsts.size();
  ASSERT_LT(unique, records.size());  // games repeat positions, so this is a real test
  // Every record twice: de-duplication keeps exactly the first occurrences, in order.
  const std::string doubled = temp_dir() + "/vblitz_doubled.vbd";
  std::vector<data::PackedPosition> twice = records;
  twice.insert(twice.end(), records.begin(), records.end());
  {
    std::vector<data::PackedPosition> copy = twice;
    EXPECT_EQ(data::deduplicate(copy), twice.size() - unique);
    EXPECT_TRUE(copy == firsts);
  }
  ASSERT_TRUE(data::write_packed(doubled, twice));

  const std::string out_dir = temp_dir() + "/vblitz_prepared";
  std::ostringstream out, err;
  ASSERT_EQ(
      data::run_data_command({"prepare", out_dir, doubled, "--validation", "0.25", "--seed", "9"}, out, err),
      0)
      << err.str();
  std::vector<data::PackedPosition> train, validation;
  ASSERT_FALSE(data::read_packed({out_dir + "/train.vbd"}, train));
  ASSERT_FALSE(data::read_packed({out_dir + "/validation.vbd"}, validation));
  EXPECT_EQ(train.size() + validation.size(), unique);
  EXPECT_EQ(validation.size(), size_t(double(unique) * 0.25));
  EXPECT_NE(out.str().find("dropped " + std::to_string(twice.size() - unique) + " duplicates"),
            std::string::npos)
      << out.str();
  std::vector<data::PackedPosition> all = train;
  all.insert(all.end(), validation.begin(), validation.end());
  EXPECT_EQ(data::deduplicate(all), 0u);

  // The same seed gives the same order; another seed another.
  const std::string first = file_bytes(out_dir + "/train.vbd");
  ASSERT_EQ(
      data::run_data_command({"prepare", out_dir, doubled, "--validation", "0.25", "--seed", "9"}, out, err),
      0);
  EXPECT_EQ(file_bytes(out_dir + "/train.vbd"), first);
  ASSERT_EQ(
      data::run_data_command({"prepare", out_dir, doubled, "--validation", "0.25", "--seed", "10"}, out, err),
      0);
  EXPECT_NE(file_bytes(out_dir + "/train.vbd"), first);

  // From several shard files the validation set is the last whole files (no game on both
  // sides): here the last of three shards, less positions the training shards already hold.
  const std::string by_files = temp_dir() + "/vblitz_prepared_by_files";
  std::ostringstream files_out;
  ASSERT_EQ(data::run_data_command({"prepare", by_files, o.out_path, "--validation", "0.2"}, files_out, err),
            0);
  EXPECT_NE(files_out.str().find("validation: 1 of 3 files"), std::string::npos) << files_out.str();
  std::vector<data::PackedPosition> last_shard, held;
  ASSERT_FALSE(data::read_packed({data::shard_path(o, 2)}, last_shard));
  ASSERT_FALSE(data::read_packed({by_files + "/validation.vbd"}, held));
  EXPECT_GT(held.size(), 0u);
  EXPECT_LE(held.size(), last_shard.size());
  std::unordered_set<uint64_t> in_last;
  for (const auto& p : last_shard) in_last.insert(p.position_hash());
  for (const auto& p : held) EXPECT_TRUE(in_last.count(p.position_hash()));

  // Several generations merged: each input's records and the new positions it adds, the later
  // ones counting what the earlier hold (here a doubled copy of the run and then the run again).
  const std::string merged = temp_dir() + "/vblitz_prepared_merged";
  std::ostringstream merged_out;
  ASSERT_EQ(data::run_data_command({"prepare", merged, doubled, o.out_path}, merged_out, err), 0)
      << err.str();
  EXPECT_NE(merged_out.str().find(doubled + ": " + std::to_string(twice.size()) + " records, " +
                                  std::to_string(unique) + " new positions"),
            std::string::npos)
      << merged_out.str();
  EXPECT_NE(merged_out.str().find(o.out_path + ": " + std::to_string(records.size()) + " records, 0 new"),
            std::string::npos)
      << merged_out.str();

  // Statistics and the text export.
  std::ostringstream stats, text;
  ASSERT_EQ(data::run_data_command({"stats", o.out_path}, stats, err), 0);
  EXPECT_NE(stats.str().find("positions " + std::to_string(records.size())), std::string::npos)
      << stats.str();
  ASSERT_EQ(data::run_data_command({"export", o.out_path}, text, err), 0);
  const std::string lines = text.str();
  EXPECT_EQ(size_t(std::count(lines.begin(), lines.end(), '\n')), records.size());

  // A file that is not whole records is rejected.
  const std::string broken = temp_dir() + "/vblitz_broken.vbd";
  std::ofstream(broken, std::ios::binary) << file_bytes(doubled).substr(0, 45);
  std::ostringstream broken_err;
  EXPECT_NE(data::run_data_command({"stats", broken}, stats, broken_err), 0);
  EXPECT_NE(broken_err.str().find("whole number"), std::string::npos);
}

}  // namespace
}  // namespace vblitz::test
