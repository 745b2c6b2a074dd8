// The game chain (.vbc): records of games played at random, with gaps of one to eight plies as
// datagen's filters leave them, come back byte for byte at a few bytes a record; records no game
// links (shuffled, impossible positions, extreme fields) come back as keyframes; chains written
// here from the games' own moves, after the format's description (game_chain.h), decode to the
// games' records in both versions; every move of every position decodes as core makes it;
// malformed chains are refused with a reason; `vblitz data pack|unpack` round-trips files.
#include "data/game_chain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "core/game.h"
#include "core/movegen.h"
#include "core/prng.h"
#include "data/data_command.h"
#include "tests/test_support.h"

namespace vblitz::data {
namespace {

// Starts with every kind of move close at hand: castling both ways, en passant, promotions and
// under-promotions, captures, checks and pins.
const char* const kStarts[] = {
    core::Position::kStartFen,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 40",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 60",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 30",
};

// A game played at random with the records kept along it and the moves between them.
struct PlayedGame {
  std::vector<PackedPosition> records;
  std::vector<std::vector<std::string>> steps;  // steps[i]: the moves from records[i - 1] to records[i]
};

// Plays `games` random games from the starts and keeps positions with gaps of 1-8 plies (mostly
// short, as datagen's filters leave them), each with a score and the game's result.
std::vector<PlayedGame> random_games(int games, uint64_t seed, int* kept_gaps = nullptr) {
  core::Prng prng(seed);
  std::vector<PlayedGame> played;
  for (int g = 0; g < games; ++g) {
    PlayedGame& out = played.emplace_back();
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
        out.records.push_back(PackedPosition::pack(game.position(), score, result));
        out.steps.push_back(std::exchange(moves, {}));
        const int gap = prng.below(4) ? 1 + int(prng.below(3)) : 1 + int(prng.below(8));
        next_kept = ply + gap;
        if (kept_gaps) kept_gaps[gap - 1]++;
      }
      const core::Move m = legal.begin()[prng.below(legal.size())];
      moves.push_back(game.position().to_uci(m));
      EXPECT_FALSE(game.play({moves.back()}));
    }
  }
  return played;
}

std::vector<PackedPosition> records_of(const std::vector<PlayedGame>& games) {
  std::vector<PackedPosition> records;
  for (const PlayedGame& g : games) records.insert(records.end(), g.records.begin(), g.records.end());
  return records;
}

std::vector<PackedPosition> random_game_records(int games, uint64_t seed, int* kept_gaps = nullptr) {
  return records_of(random_games(games, seed, kept_gaps));
}

std::vector<PackedPosition> round_trip(const std::vector<PackedPosition>& records, ChainStats* stats) {
  const std::string chain = encode_chain(records, stats);
  EXPECT_EQ(chain.substr(0, 4), "VBC2");
  std::vector<PackedPosition> back;
  const auto error = decode_chain(chain, back);
  EXPECT_FALSE(error) << *error;
  return back;
}

// --- the format as game_chain.h describes it, written here independently of the encoder ---

void put_varint(std::string& out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) out += char(uint8_t(v | 0x80));
  out += char(uint8_t(v));
}

uint64_t zigzag(int64_t v) { return v < 0 ? uint64_t(-v) * 2 - 1 : uint64_t(v) * 2; }

// Version 2's moves of a position: the legal moves in core::generate<LEGAL> order, the king's own
// steps (last in that order) replaced by all its steps to squares its side does not hold.
std::vector<core::Move> moves_v2(const core::Position& pos) {
  const core::Color us = pos.side_to_move();
  const core::Square ksq = pos.king_square(us);
  std::vector<core::Move> moves;
  for (core::Move m : core::MoveList<core::LEGAL>(pos))
    if (m.from() != ksq || m.kind() != core::Move::NORMAL) moves.push_back(m);
  for (core::Bitboard b = core::king_attacks(ksq) & ~pos.pieces(us); b;)
    moves.push_back(core::Move(ksq, core::pop_lsb(b)));
  return moves;
}

std::string keyframe_v1(const PackedPosition& r) {
  return '\0' + std::string(reinterpret_cast<const char*>(r.bytes.data()), r.bytes.size());
}

std::string keyframe_v2(const PackedPosition& r) {
  std::string out(1, '\0');
  out.append(reinterpret_cast<const char*>(r.bytes.data()), 8);
  const int pieces = std::popcount(r.occupied());
  out.append(reinterpret_cast<const char*>(r.bytes.data()) + 8, size_t(pieces + 1) / 2);
  const int en_passant = r.ep_square() == 64 ? 0 : r.ep_square() + 1;
  put_varint(out, uint64_t(r.bytes[28] + 3 * (r.bytes[29] + 32 * en_passant)));
  put_varint(out, uint64_t(r.rule50()));
  put_varint(out, r.ply());
  put_varint(out, zigzag(r.white_score()));
  return out;
}

// A step of version 2: the moves' indices and counts, the score difference; empty when its number
// does not fit in 64 bits.
std::string step_v2(const std::vector<std::pair<size_t, size_t>>& index_and_count, int score_difference) {
  unsigned __int128 y = zigzag(score_difference);
  for (size_t i = index_and_count.size(); i-- > 0;)
    y = y * index_and_count[i].second + index_and_count[i].first;
  const size_t plies = index_and_count.size();
  y = plies == 1 ? 2 * y : 2 * (7 * y + (plies - 2)) + 1;
  std::string out;
  if (y < ~uint64_t(0)) put_varint(out, uint64_t(y + 1));
  return out;
}

// The games as chains of both versions, every step from the moves the game played.
void write_chains(const std::vector<PlayedGame>& games, std::string& v1, std::string& v2) {
  v1 = "VBC1", v2 = "VBC2";
  for (const PlayedGame& g : games) {
    core::Game game;
    for (size_t r = 0; r < g.records.size(); ++r) {
      const PackedPosition& record = g.records[r];
      if (r == 0) {
        ASSERT_FALSE(game.set_fen(record.fen()));
        v1 += keyframe_v1(record), v2 += keyframe_v2(record);
        continue;
      }
      std::string indices;
      std::vector<std::pair<size_t, size_t>> index_and_count;
      for (const std::string& uci : g.steps[r]) {
        const core::Move m = game.position().parse_uci(uci);
        const core::MoveList<core::LEGAL> legal(game.position());
        indices += char(uint8_t(std::find(legal.begin(), legal.end(), m) - legal.begin()));
        const std::vector<core::Move> moves = moves_v2(game.position());
        index_and_count.emplace_back(size_t(std::find(moves.begin(), moves.end(), m) - moves.begin()),
                                     moves.size());
        ASSERT_LT(index_and_count.back().first, moves.size());
        ASSERT_FALSE(game.play({uci}));
      }
      const int difference = int(record.white_score()) - int(g.records[r - 1].white_score());
      put_varint(v1, 1 + zigzag(difference) * 8 + (g.steps[r].size() - 1));
      v1 += indices;
      const std::string step = step_v2(index_and_count, difference);
      v2 += step.empty() ? keyframe_v2(record) : step;
    }
  }
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
  EXPECT_LT(double(stats.bytes) / double(records.size()), 5.0) << stats.bytes;
}

TEST(GameChain, RecordsNoGameLinksComeBackAsKeyframes) {
  std::vector<PackedPosition> records = random_game_records(20, 11);
  // Shuffled: hardly any record follows from the one before.
  core::Prng prng(3);
  for (size_t i = records.size(); i > 1; --i) std::swap(records[i - 1], records[prng.below(i)]);
  // Well-formed records that are no game's position, and fields at their limits.
  core::Game start;
  PackedPosition pawn_on_last_rank = PackedPosition::pack(start.position(), 0, GameResult::kDraw);
  pawn_on_last_rank.bytes[8] = uint8_t((pawn_on_last_rank.bytes[8] & 0xf0) | core::W_PAWN);  // a1
  ASSERT_FALSE(pawn_on_last_rank.check());
  PackedPosition lowest_score = records[1];
  lowest_score.bytes[24] = 0x00, lowest_score.bytes[25] = 0x80;  // -32768: pack clamps to -32767
  PackedPosition last_ply = records[2];
  last_ply.bytes[26] = last_ply.bytes[27] = 0xff;
  PackedPosition highest_clock = records[3];
  highest_clock.bytes[31] = 255;
  PackedPosition impossible_en_passant = PackedPosition::pack(start.position(), 7, GameResult::kWhiteWins);
  impossible_en_passant.bytes[30] = 63;  // h8
  PackedPosition all_pieces_and_rights = impossible_en_passant;
  all_pieces_and_rights.bytes[29] = 31, all_pieces_and_rights.bytes[30] = 64;
  records.insert(records.begin() + 5, {pawn_on_last_rank, lowest_score, last_ply, highest_clock,
                                       impossible_en_passant, all_pieces_and_rights});
  ChainStats stats;
  EXPECT_EQ(round_trip(records, &stats), records);
  EXPECT_GT(stats.keyframes, records.size() * 9 / 10);
}

// Both versions written from the games' moves decode to the games' records: version 1 as the
// files written before version 2 hold it, version 2 as game_chain.h describes it.
TEST(GameChain, ChainsWrittenFromTheGamesMovesDecodeInBothVersions) {
  const std::vector<PlayedGame> games = random_games(60, 17);
  const std::vector<PackedPosition> records = records_of(games);
  std::string v1, v2;
  write_chains(games, v1, v2);
  for (const std::string* chain : {&v1, &v2}) {
    std::vector<PackedPosition> back;
    const auto error = decode_chain(*chain, back);
    EXPECT_FALSE(error) << chain->substr(0, 4) << ": " << *error;
    EXPECT_EQ(back, records) << chain->substr(0, 4);
  }
}

// ChainWriter given the moves the games played writes, game by game, the bytes written here from
// the format's description; with a move that does not lead to the record it writes a keyframe.
TEST(GameChain, AWriterGivenTheGamesMovesWritesTheFormatsBytes) {
  const std::vector<PlayedGame> games = random_games(60, 19);
  std::string v1, v2;
  write_chains(games, v1, v2);
  std::string written(kChainMagic);
  size_t records = 0;
  for (const PlayedGame& g : games) {
    ChainWriter writer;
    core::Game game;
    ASSERT_FALSE(game.set_fen(g.records[0].fen()));
    for (size_t r = 0; r < g.records.size(); ++r) {
      std::vector<core::Move> moves;
      for (const std::string& uci : g.steps[r]) {
        moves.push_back(game.position().parse_uci(uci));
        ASSERT_FALSE(game.play({uci}));
      }
      writer.add(g.records[r], r ? moves.data() : nullptr, r ? int(moves.size()) : 0);
    }
    records += g.records.size();
    EXPECT_EQ(writer.stats().records, g.records.size());
    written += writer.take();
  }
  EXPECT_EQ(written, v2);
  // A wrong move (the first record's position played a null step) costs a keyframe, not a record.
  const PlayedGame& g = games[0];
  ChainWriter writer;
  writer.add(g.records[0], nullptr, 0);
  core::Game game;
  ASSERT_FALSE(game.set_fen(g.records[0].fen()));
  const core::Move wrong = *core::MoveList<core::LEGAL>(game.position()).begin();
  const core::Move right = game.position().parse_uci(g.steps[1][0]);
  ASSERT_NE(wrong, right);
  std::vector<core::Move> moves = {wrong};
  for (size_t i = 1; i < g.steps[1].size(); ++i) moves.push_back(core::Move::none());
  writer.add(g.records[1], moves.data(), int(moves.size()));
  EXPECT_EQ(writer.stats().keyframes, 2u);
  std::vector<PackedPosition> back;
  ASSERT_FALSE(decode_chain(std::string(kChainMagic) + writer.take(), back));
  EXPECT_EQ(back, std::vector<PackedPosition>(g.records.begin(), g.records.begin() + 2));
}

// Each move of the record's position (version 2's order) as a one-ply step decodes to the
// position core reaches with it, or is refused when it is a king's step into check.
void expect_every_move_decodes(const PackedPosition& record, size_t& moves, size_t& refused) {
  core::Game game;
  ASSERT_FALSE(game.set_fen(record.fen()));
  const std::vector<core::Move> order = moves_v2(game.position());
  const core::MoveList<core::LEGAL> legal(game.position());
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string uci = game.position().to_uci(order[i]);
    std::vector<PackedPosition> back;
    const auto error = decode_chain("VBC2" + keyframe_v2(record) + step_v2({{i, order.size()}}, 0), back);
    if (!legal.contains(order[i])) {
      ASSERT_TRUE(error) << record.fen() << " " << uci;
      EXPECT_NE(error->find("a king move into check"), std::string::npos) << *error;
      ++refused;
      continue;
    }
    ASSERT_FALSE(error) << record.fen() << " " << uci << ": " << *error;
    core::Game after;
    ASSERT_FALSE(after.set_fen(record.fen()));
    ASSERT_FALSE(after.play({uci}));
    PackedPosition expected = PackedPosition::pack(after.position(), record.white_score(), record.result());
    expected.bytes[26] = uint8_t(record.ply() + 1), expected.bytes[27] = uint8_t((record.ply() + 1) >> 8);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[1], expected) << record.fen() << " " << uci;
    ++moves;
  }
}

// Every move of every position of random games decodes as core plays it.
TEST(GameChain, EveryMoveOfEveryPositionDecodesAsCorePlaysIt) {
  std::vector<PackedPosition> positions = random_game_records(40, 23);
  for (const char* fen : kStarts) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    positions.push_back(PackedPosition::pack(game.position(), 0, GameResult::kDraw));
  }
  size_t moves = 0, refused = 0;
  for (const PackedPosition& record : positions) expect_every_move_decodes(record, moves, refused);
  EXPECT_GT(moves, 10000u);
  EXPECT_GT(refused, 100u);
}

// A keyframe stands on a position (a step may follow it) exactly when core reads the record's FEN,
// and on the position core reads: random placements, castling rights (kings and rooks on their
// squares or not) and en passant squares (possible or not), every move of each checked.
TEST(GameChain, KeyframesStandOnThePositionsCoreReads) {
  core::Prng prng(29);
  size_t stands = 0, does_not = 0, moves = 0, refused = 0, castling = 0, en_passant = 0;
  for (int trial = 0; trial < 10000; ++trial) {
    core::Piece board[64] = {};
    const auto empty_square = [&] {
      for (;;)
        if (const core::Square s = core::Square(prng.below(64)); !board[s]) return s;
    };
    board[prng.below(2) ? core::SQ_E1 : empty_square()] = core::W_KING;
    board[prng.below(2) && !board[core::SQ_E8] ? core::SQ_E8 : empty_square()] = core::B_KING;
    for (int n = int(prng.below(24)); n > 0; --n) {
      static constexpr core::Piece kPieces[] = {core::W_PAWN,  core::W_KNIGHT, core::W_BISHOP, core::W_ROOK,
                                                core::W_QUEEN, core::B_PAWN,   core::B_KNIGHT, core::B_BISHOP,
                                                core::B_ROOK,  core::B_QUEEN,  core::W_PAWN,   core::B_PAWN};
      const core::Square corner = core::Square(std::array{0, 7, 56, 63}[prng.below(4)]);
      const core::Square s = prng.below(3) == 0 && !board[corner] ? corner : empty_square();
      board[s] =
          s == corner ? (s < 8 ? core::W_ROOK : core::B_ROOK) : kPieces[prng.below(std::size(kPieces))];
      if (core::type_of(board[s]) == core::PAWN && (s < 8 || s >= 56) && prng.below(8))
        board[s] = core::NO_PIECE;
    }
    const core::Color us = core::Color(prng.below(2));
    int ep = 64;
    if (prng.below(2)) {
      ep = prng.below(4) ? (us == core::WHITE ? 40 : 16) + int(prng.below(8)) : int(prng.below(64));
      const int pushed = us == core::WHITE ? ep - 8 : ep + 8, origin = us == core::WHITE ? ep + 8 : ep - 8;
      if (prng.below(2) && pushed >= 0 && pushed < 64 && origin >= 0 && origin < 64 &&
          core::type_of(board[pushed]) != core::KING && core::type_of(board[ep]) != core::KING &&
          core::type_of(board[origin]) != core::KING) {
        board[pushed] = core::make_piece(~us, core::PAWN), board[ep] = board[origin] = core::NO_PIECE;
        const int beside = pushed % 8 == 0   ? pushed + 1
                           : pushed % 8 == 7 ? pushed - 1
                                             : pushed + (prng.below(2) ? 1 : -1);
        if (prng.below(2) && core::type_of(board[beside]) != core::KING)
          board[beside] = core::make_piece(us, core::PAWN);
      }
    }
    PackedPosition record;
    int i = 0;
    for (int s = 0; s < 64; ++s) {
      if (!board[s]) continue;
      record.bytes[size_t(s / 8)] |= uint8_t(1 << (s % 8));
      record.bytes[size_t(8 + i / 2)] |= uint8_t(board[s] << (4 * (i & 1)));
      ++i;
    }
    record.bytes[28] = uint8_t(prng.below(3));
    record.bytes[29] = uint8_t(us | (prng.below(2) ? 0 : prng.below(16) << 1));
    record.bytes[30] = uint8_t(ep);
    record.bytes[31] = uint8_t(prng.below(256));
    ASSERT_FALSE(record.check()) << record.fen();
    core::Game game;
    const bool core_reads = !game.set_fen(record.fen());
    std::vector<PackedPosition> back;
    // Its first move, without a score difference: refused as a step from no position, or not.
    const auto error = decode_chain("VBC2" + keyframe_v2(record) + '\x01', back);
    ASSERT_EQ(back.size(), error ? 1u : 2u);
    EXPECT_EQ(back[0], record);
    const bool stood = !error || error->find("a step without a position") == std::string::npos;
    ASSERT_EQ(stood, core_reads) << record.fen() << ": " << (error ? *error : "");
    (core_reads ? stands : does_not)++;
    if (!core_reads) continue;
    castling += game.position().castling_rights() != 0;
    en_passant += game.position().ep_square() != core::SQ_NONE;
    expect_every_move_decodes(record, moves, refused);
  }
  EXPECT_GT(stands, 1000u);
  EXPECT_GT(does_not, 1000u);
  EXPECT_GT(castling, 100u);
  EXPECT_GT(en_passant, 100u);
  EXPECT_GT(refused, 1000u);
}

// A chain written before the format moved onto core's generator (by the generator's copy that
// tune/game_chain.cc then kept), with the records it holds as text: core's move order is the
// format's, so a change to that order fails here.
TEST(GameChain, AFileWrittenByTheEarlierEncoderDecodesToItsRecords) {
  std::ifstream chain_file(test::data_file("chain_v2.vbc"), std::ios::binary),
      text_file(test::data_file("chain_v2.txt"));
  ASSERT_TRUE(chain_file && text_file);
  const std::string chain((std::istreambuf_iterator<char>(chain_file)), std::istreambuf_iterator<char>());
  std::vector<PackedPosition> records;
  const auto error = decode_chain(chain, records);
  ASSERT_FALSE(error) << *error;
  std::vector<std::string> lines;
  for (std::string line; std::getline(text_file, line);) lines.push_back(line);
  ASSERT_EQ(records.size(), lines.size());
  ASSERT_EQ(lines.size(), 350u);
  for (size_t i = 0; i < records.size(); ++i) ASSERT_EQ(records[i].text_line(), lines[i]) << "record " << i;
  // Encoded again, from the records alone, it is the same file.
  EXPECT_EQ(encode_chain(records), chain);
}

TEST(GameChain, EncodingRefusesARecordThatFailsItsCheck) {
  core::Game start;
  PackedPosition bad = PackedPosition::pack(start.position(), 0, GameResult::kDraw);
  bad.bytes[28] = 7;  // no result
  EXPECT_THROW(encode_chain({bad}), std::invalid_argument);
}

// Malformed chains of version 2 are refused with a reason, never decoded into wrong records.
TEST(GameChain, MalformedChainsAreRefusedWithAReason) {
  const std::vector<PackedPosition> records = random_game_records(3, 5);
  const std::string chain = encode_chain(records);
  std::vector<PackedPosition> out;
  EXPECT_FALSE(decode_chain(chain, out));
  const size_t step = encode_chain({records[0]}).size();  // the first step's entry
  ASSERT_NE(chain[step], 0) << "the second record is a keyframe";
  auto refused = [&](const std::string& bytes, const std::string& reason) {
    std::vector<PackedPosition> decoded;
    const auto error = decode_chain(bytes, decoded);
    ASSERT_TRUE(error) << reason;
    EXPECT_NE(error->find(reason), std::string::npos) << *error;
  };
  refused("VBD1" + chain.substr(4), "no VBC2 or VBC1 magic");
  refused(chain.substr(0, 8), "truncated keyframe");                    // in the occupancy
  refused(chain.substr(0, 4 + 1 + 8 + 3), "truncated keyframe");        // in the pieces
  refused(chain.substr(0, step - 1), "truncated entry in a keyframe");  // in its fields
  refused(chain + '\x80', "truncated entry");                           // a step's number
  refused(chain + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", "longer than 64 bits");
  refused(chain + std::string("\x81\x00", 2), "not in its shortest form");
  refused("VBC2\x01", "without a position");
  std::string bad = chain;
  bad.replace(5, 8, 8, '\xff');  // 64 pieces
  refused(bad, "more than 32 pieces");
  bad = chain;
  bad[5 + 8] = 0x77;  // the first two pieces' codes
  refused(bad, "bad piece code");
  // The start position with the highest score: its fields after 4 + 1 + 8 + 16 bytes.
  const std::string start =
      encode_chain({PackedPosition::pack(core::Game().position(), 32767, GameResult::kDraw)});
  ASSERT_EQ(start.size(), 29u + 6u);
  refused(start.substr(0, 29) + "\xe0\x30" + start.substr(30),
          "a keyframe field out of range");         // result, side, castling and en passant as 6240
  refused(start + "\x51", "a score out of range");  // +1 centipawn from 32767: 1 + 2 * (2 * 20 + 0)
  // A king's step into a rook's file (index 0: d1), a move from a smothered mate.
  core::Game game;
  ASSERT_FALSE(game.set_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"));
  refused(encode_chain({PackedPosition::pack(game.position(), 0, GameResult::kDraw)}) + '\x01',
          "a king move into check");
  ASSERT_FALSE(game.set_fen("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1"));
  refused(encode_chain({PackedPosition::pack(game.position(), 0, GameResult::kDraw)}) + '\x01',
          "a move from a position without moves");
  // Records decoded before the fault stay decoded.
  std::vector<PackedPosition> decoded;
  ASSERT_TRUE(decode_chain(chain + '\x80', decoded));
  EXPECT_EQ(decoded, records);
}

// Malformed chains of version 1 too.
TEST(GameChain, MalformedChainsOfVersionOneAreRefusedWithAReason) {
  const std::vector<PlayedGame> games = random_games(3, 5);
  std::string chain, v2;
  write_chains(games, chain, v2);
  const size_t step = 4 + 1 + PackedPosition::kBytes;  // the first step's entry
  size_t moves = step;                                 // past the step's header (a varint)
  while (uint8_t(chain[moves]) & 0x80) ++moves;
  ++moves;
  auto refused = [&](const std::string& bytes, const std::string& reason) {
    std::vector<PackedPosition> decoded;
    const auto error = decode_chain(bytes, decoded);
    ASSERT_TRUE(error) << reason;
    EXPECT_NE(error->find(reason), std::string::npos) << *error;
  };
  refused(chain.substr(0, step - 3), "truncated keyframe");
  refused(chain.substr(0, moves), "truncated moves");
  refused(chain + '\x80', "truncated entry");
  std::string bad = chain;
  bad[moves] = char(250);
  refused(bad, "past the legal moves");
  refused("VBC1\x01", "without a position");
  bad = chain;
  bad[4 + 1 + 28] = 7;  // the keyframe's result
  refused(bad, "bad result");
}

TEST(GameChain, DataPackAndUnpackRoundTripFiles) {
  const std::vector<PackedPosition> records = random_game_records(30, 13);
  const std::string dir = vblitz::test::temp_dir() + "/vblitz_pack_unpack";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(write_packed(dir + "/a.vbd", records));
  std::ostringstream out, err;
  ASSERT_EQ(run_data_command({"pack", dir + "/a.vbc", dir + "/a.vbd", "--decode-runs", "3"}, out, err), 0)
      << err.str();
  EXPECT_NE(out.str().find("wrote " + std::to_string(records.size()) + " records"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("decoded 3 times, exact: median "), std::string::npos) << out.str();
  ASSERT_EQ(run_data_command({"unpack", dir + "/b.vbd", dir + "/a.vbc"}, out, err), 0) << err.str();
  std::vector<PackedPosition> back;
  ASSERT_FALSE(read_packed({dir + "/b.vbd"}, back));
  EXPECT_EQ(back, records);
  EXPECT_LT(std::filesystem::file_size(dir + "/a.vbc"), std::filesystem::file_size(dir + "/a.vbd") / 6);
  // A directory of both formats reads each file once, in name order.
  back.clear();
  std::filesystem::remove(dir + "/b.vbd");
  ASSERT_FALSE(read_packed({dir}, back));
  std::vector<PackedPosition> twice = records;
  twice.insert(twice.end(), records.begin(), records.end());
  EXPECT_EQ(back, twice);
  EXPECT_EQ(run_data_command({"pack", dir + "/c.vbd", dir + "/a.vbd"}, out, err), 2);  // wrong extension
  EXPECT_EQ(run_data_command({"pack", dir + "/c.vbc", dir + "/a.vbd", "--decode-runs", "0"}, out, err), 2);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vblitz::data
