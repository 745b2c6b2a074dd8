// The game-chain format: encoding finds the moves between two records of a game by a short
// search; decoding replays them.
#include "tune/game_chain.h"

#include <algorithm>
#include <bit>
#include <deque>

#include "core/movegen.h"

namespace vblitz::tune {

namespace {

void put_varint(std::string& out, uint32_t v) {
  while (v >= 0x80) {
    out += char(uint8_t(v | 0x80));
    v >>= 7;
  }
  out += char(uint8_t(v));
}

// A step's header: the score difference (zigzag, so small ones of either sign are small) and the
// plies, in one varint: one byte for a difference of up to 7 centipawns, two up to 1023.
uint32_t step_header(int score_difference, int plies) {
  const uint32_t zigzag = (uint32_t(score_difference) << 1) ^ uint32_t(score_difference >> 31);
  return 1 + (zigzag << 3) + uint32_t(plies - 1);
}

// The position a chain stands on: set from a keyframe, moved on by the steps.
class Cursor {
 public:
  // Stands on the record's position; false when the record is no position a game can reach (a
  // keyframe then, and no step may follow it).
  bool set(const PackedPosition& record) {
    record_ = record;
    states_.clear();
    states_.emplace_back();
    valid_ = !pos_.set(record.fen(), states_.back()) && pos_.consistency_error().empty();
    // A king the side to move could take: its moves would not be a game's.
    const core::Color us = pos_.side_to_move();
    valid_ = valid_ && !(pos_.attackers_to(pos_.king_square(~us)) & pos_.pieces(us));
    return valid_;
  }
  bool valid() const { return valid_; }
  const PackedPosition& record() const { return record_; }

  // Plays the legal move number `index`; false when there is none.
  bool play(unsigned index) {
    const core::MoveList<core::LEGAL> legal(pos_);
    if (index >= legal.size()) return false;
    states_.emplace_back();
    pos_.do_move(legal.begin()[index], states_.back());
    return true;
  }

  // The record of the position now, `plies` after record(), with `white_score`.
  PackedPosition record_after(int plies, int white_score) const {
    PackedPosition p = PackedPosition::pack(pos_, white_score, record_.result());
    const int ply = std::min(int(record_.ply()) + plies, 65535);
    p.bytes[26] = uint8_t(ply);
    p.bytes[27] = uint8_t(ply >> 8);
    return p;
  }

  // Finds `plies` legal moves from here to the target record (score and all) and stands on it;
  // their indices go to `path`. Only pieces on squares that differ from the target move, and at
  // most `budget` nodes are searched: a path it misses costs a keyframe, never a wrong record.
  bool find(const PackedPosition& target, int plies, std::string& path) {
    core::Piece board[64];
    std::fill(std::begin(board), std::end(board), core::NO_PIECE);
    int i = 0;
    for (uint64_t b = target.occupied(); b; b &= b - 1, ++i) board[core::lsb(b)] = target.piece(i);
    int budget = 20000;
    return search(target, board, plies, plies, path, budget);
  }

  // Moves on to `record`, whose position the cursor stands on.
  void arrive(const PackedPosition& record) { record_ = record; }

 private:
  bool search(const PackedPosition& target, const core::Piece* board, int plies, int remaining,
              std::string& path, int& budget) {
    if (remaining == 0) return record_after(plies, target.white_score()) == target;
    // A move changes the occupancy of at most four squares (castling).
    if (std::popcount(pos_.pieces() ^ target.occupied()) > 4 * remaining || --budget < 0) return false;
    const core::MoveList<core::LEGAL> legal(pos_);
    unsigned index = 0;
    for (core::Move m : legal) {
      if (pos_.piece_on(m.from()) != board[m.from()]) {
        states_.emplace_back();
        pos_.do_move(m, states_.back());
        path += char(uint8_t(index));
        if (search(target, board, plies, remaining - 1, path, budget)) return true;
        path.pop_back();
        pos_.undo_move(m);
        states_.pop_back();
      }
      ++index;
    }
    return false;
  }

  PackedPosition record_;
  core::Position pos_;
  std::deque<core::StateInfo> states_;  // a deque keeps the addresses the position links to
  bool valid_ = false;
};

}  // namespace

std::string encode_chain(const std::vector<PackedPosition>& records, ChainStats* stats) {
  std::string out(kChainMagic);
  ChainStats s;
  Cursor cursor;
  std::string path;
  bool standing = false;  // the cursor stands on the last record written
  for (const PackedPosition& r : records) {
    ++s.records;
    const int plies = int(r.ply()) - int(cursor.record().ply());
    path.clear();
    if (standing && cursor.valid() && plies >= 1 && plies <= kChainMaxPlies &&
        r.result() == cursor.record().result() && cursor.find(r, plies, path)) {
      put_varint(out, step_header(int(r.white_score()) - int(cursor.record().white_score()), plies));
      out += path;
      cursor.arrive(r);
      s.plies += size_t(plies);
      continue;
    }
    out += '\0';
    out.append(reinterpret_cast<const char*>(r.bytes.data()), r.bytes.size());
    cursor.set(r);
    standing = true;
    ++s.keyframes;
  }
  s.bytes = out.size();
  if (stats) *stats = s;
  return out;
}

std::optional<std::string> decode_chain(std::string_view bytes, std::vector<PackedPosition>& out) {
  if (bytes.substr(0, kChainMagic.size()) != kChainMagic) return "not a game chain (no VBC1 magic)";
  Cursor cursor;
  bool standing = false;
  size_t at = kChainMagic.size();
  while (at < bytes.size()) {
    const size_t entry = at;
    const auto fail = [entry](const std::string& why) {
      return "entry at byte " + std::to_string(entry) + ": " + why;
    };
    uint32_t h = 0;
    for (int shift = 0;; shift += 7) {
      if (at == bytes.size()) return fail("truncated entry");
      if (shift > 21) return fail("an entry header too long");
      const uint8_t byte = uint8_t(bytes[at++]);
      h |= uint32_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    if (h == 0) {
      if (bytes.size() - at < PackedPosition::kBytes) return fail("truncated keyframe");
      PackedPosition p;
      std::copy_n(bytes.begin() + long(at), PackedPosition::kBytes, p.bytes.begin());
      at += PackedPosition::kBytes;
      if (auto error = p.check()) return fail(*error);
      cursor.set(p);
      standing = true;
      out.push_back(p);
      continue;
    }
    const int plies = int((h - 1) & 7) + 1;
    const uint32_t zigzag = (h - 1) >> 3;
    if (!standing || !cursor.valid()) return fail("a step without a position to start from");
    if (bytes.size() - at < size_t(plies)) return fail("truncated moves");
    for (int i = 0; i < plies; ++i)
      if (!cursor.play(uint8_t(bytes[at++]))) return fail("a move index past the legal moves");
    const int64_t score =
        int64_t(cursor.record().white_score()) + (int64_t(zigzag >> 1) ^ -int64_t(zigzag & 1));
    if (score < -32767 || score > 32767) return fail("a score out of range");
    const PackedPosition p = cursor.record_after(plies, int(score));
    cursor.arrive(p);
    out.push_back(p);
  }
  return std::nullopt;
}

}  // namespace vblitz::tune
