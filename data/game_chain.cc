// The game-chain format on core's board and move generator: a step's moves are numbered in
// core::generate<LEGAL>'s order; the encoder numbers the moves a game played (or finds them by a
// short search when it has only the records), the decoder replays them.
#include "data/game_chain.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core/bitboard.h"
#include "core/movegen.h"
#include "core/position.h"

namespace vblitz::data {

namespace {

using core::Bitboard;

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += char(uint8_t(v | 0x80));
    v >>= 7;
  }
  out += char(uint8_t(v));
}

// Reads a varint of at most 64 bits in its shortest form at `at`; returns the reason it is not one.
const char* get_varint(std::string_view bytes, size_t& at, uint64_t& v) {
  v = 0;
  for (int shift = 0;; shift += 7) {
    if (at == bytes.size()) return "truncated entry";
    const uint8_t byte = uint8_t(bytes[at++]);
    if (shift == 63 && byte > 1) return "a varint longer than 64 bits";
    v |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return byte == 0 && shift ? "a varint not in its shortest form" : nullptr;
  }
}

uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
int64_t unzigzag(uint64_t z) { return int64_t(z >> 1) ^ -int64_t(z & 1); }

// y % n, leaving y / n in y; 32-bit division when y fits (most steps' numbers do).
inline unsigned divide(uint64_t& y, unsigned n) {
  if (y >> 32 == 0) {
    const uint32_t q = uint32_t(y) / n, r = uint32_t(y) - q * n;
    y = q;
    return r;
  }
  const uint64_t q = y / n, r = y - q * n;
  y = q;
  return unsigned(r);
}

// The moves of a position in a version's order: core::generate<LEGAL>'s order, except that in
// version 2 the king's own steps (the legal ones end core's list) are all its steps to squares its
// side does not hold, legal or not (game_chain.h).
class MoveOrder {
 public:
  // Lists the moves of pos; returns their number.
  unsigned list(const core::Position& pos, bool every_king_step) {
    end_ = unsigned(core::generate<core::LEGAL>(pos, moves_) - moves_);
    king_ = pos.king_square(pos.side_to_move());
    others_ = end_;
    king_steps_ = 0;
    if (!every_king_step) return end_;
    while (others_ > 0 && is_king_step(moves_[others_ - 1])) --others_;
    king_steps_ = core::king_attacks(king_) & ~pos.pieces(pos.side_to_move());
    return others_ + unsigned(core::popcount(king_steps_));
  }

  // The move of that index (< list()).
  core::Move at(unsigned index) const {
    if (index < others_) return moves_[index];
    Bitboard b = king_steps_;
    for (unsigned n = index - others_; n; --n) b &= b - 1;
    return core::Move(king_, core::lsb(b));
  }

  // False for the index of a king step into check, true for every other index (< list()).
  bool legal(unsigned index) const { return index < others_ || legal_king_step(at(index)); }

  // The index of legal move m, or -1 when m is not one.
  int index_of(core::Move m) const {
    if (king_steps_ && is_king_step(m)) {
      if (!legal_king_step(m)) return -1;
      return int(others_) + core::popcount(king_steps_ & (core::square_bb(m.to()) - 1));
    }
    const core::Move* found = std::find(moves_, moves_ + others_, m);
    return found == moves_ + others_ ? -1 : int(found - moves_);
  }

 private:
  bool is_king_step(core::Move m) const { return m.from() == king_ && m.kind() == core::Move::NORMAL; }
  bool legal_king_step(core::Move m) const {
    return std::find(moves_ + others_, moves_ + end_, m) != moves_ + end_;
  }

  core::Move moves_[core::kMaxMoves + core::kMoveListSlack];
  unsigned end_ = 0, others_ = 0;  // the legal moves; those before the king's steps (version 2)
  Bitboard king_steps_ = 0;        // version 2: every step of the king to a square not its side's
  core::Square king_ = core::SQ_NONE;
};

// The record of the position, `plies` after `previous` (whose result it keeps), with
// `white_score`.
PackedPosition record_of(const core::Position& pos, const PackedPosition& previous, int plies,
                         int white_score) {
  PackedPosition p = PackedPosition::pack(pos, white_score, previous.result());
  const int ply = std::min(int(previous.ply()) + plies, 65535);
  p.bytes[26] = uint8_t(ply);
  p.bytes[27] = uint8_t(ply >> 8);
  return p;
}

// The position a chain stands on: set from a keyframe's record as core::Position::set reads its
// FEN, moved on by the steps' moves.
class Cursor {
 public:
  explicit Cursor(bool every_king_step) : every_king_step_(every_king_step) {}

  // Stands on the record's position; false when core does not read it (a keyframe then, and no
  // step may follow it).
  bool set(const PackedPosition& record) {
    record_ = record;
    current_ = 0;
    valid_ = !pos_.set(record.fen(), states_[0]);
    return valid_;
  }
  bool valid() const { return valid_; }
  const PackedPosition& record() const { return record_; }
  const core::Position& position() const { return pos_; }

  // Lists the moves here (their order) and returns their number.
  unsigned moves() { return order_.list(pos_, every_king_step_); }
  const MoveOrder& order() const { return order_; }
  // Plays the move of that index (< moves()); false for a king step into check.
  bool play(unsigned index) {
    if (!order_.legal(index)) return false;
    current_ = (current_ + 1) % kStates;
    pos_.do_move(order_.at(index), states_[current_]);
    return true;
  }

  // The record of the position now, `plies` after record(), with `white_score`.
  PackedPosition record_after(int plies, int white_score) const {
    return record_of(pos_, record_, plies, white_score);
  }

  // Moves on to `record`, whose position the cursor stands on; the moves before it are forgotten,
  // so a step's moves never reach back past its record (kStates).
  void arrive(const PackedPosition& record) {
    record_ = record;
    pos_.forget_history();
  }

 private:
  static constexpr unsigned kStates = kChainMaxPlies + 1;  // a record's and a step's plies
  PackedPosition record_;
  core::Position pos_;
  core::StateInfo states_[kStates];
  unsigned current_ = 0;
  bool valid_ = false;
  bool every_king_step_;
  MoveOrder order_;
};

// The record a step reaches from the cursor's: the score difference (zigzag) and the plies played.
const char* arrive(Cursor& cursor, int plies, uint64_t zigzag_difference, PackedPosition& record) {
  if (zigzag_difference > 2 * 65535) return "a score out of range";
  const int64_t score = int64_t(cursor.record().white_score()) + unzigzag(zigzag_difference);
  if (score < -32767 || score > 32767) return "a score out of range";
  record = cursor.record_after(plies, int(score));
  cursor.arrive(record);
  return nullptr;
}

// A step of version 2 from the cursor's record: plays the moves of x (>= 1) and stands on the
// record reached, or returns the reason x is no step from there.
const char* play_step(Cursor& cursor, uint64_t x, PackedPosition& record) {
  uint64_t y = x - 1;
  int plies = 1;
  if (divide(y, 2)) plies = 2 + int(divide(y, 7));
  for (int i = 0; i < plies; ++i) {
    const unsigned n = cursor.moves();
    if (n == 0) return "a move from a position without moves";
    if (!cursor.play(divide(y, n))) return "a king move into check";
  }
  return arrive(cursor, plies, y, record);
}

// A step of version 1 (x - 1 = zigzag(score difference) * 8 + plies - 1, then a byte a move index)
// from the cursor's record, its move bytes at `at`.
const char* play_step_v1(Cursor& cursor, uint64_t x, std::string_view bytes, size_t& at,
                         PackedPosition& record) {
  const int plies = int((x - 1) & 7) + 1;
  if (bytes.size() - at < size_t(plies)) return "truncated moves";
  for (int i = 0; i < plies; ++i) {
    const unsigned index = uint8_t(bytes[at++]);
    if (index >= cursor.moves()) return "a move index past the legal moves";
    cursor.play(index);
  }
  return arrive(cursor, plies, (x - 1) >> 3, record);
}

// The number of a step of version 2 (see play_step): its moves' indices and move counts (first
// ply first) and its score difference; 0 when it does not fit in 64 bits.
uint64_t step_number(const unsigned* index, const unsigned* count, int plies, int score_difference) {
  unsigned __int128 y = zigzag(score_difference);
  for (int i = plies - 1; i >= 0; --i) y = y * count[i] + index[i];
  y = plies == 1 ? y * 2 : (y * 7 + unsigned(plies - 2)) * 2 + 1;
  return y + 1 > ~uint64_t(0) ? 0 : uint64_t(y + 1);
}

// The keyframe entry of version 2 (x = 0 and the record, see game_chain.h) for a checked record.
void put_keyframe(std::string& out, const PackedPosition& r) {
  out += '\0';
  out.append(reinterpret_cast<const char*>(r.bytes.data()), 8);
  out.append(reinterpret_cast<const char*>(r.bytes.data()) + 8, size_t(std::popcount(r.occupied()) + 1) / 2);
  put_varint(out, r.bytes[28] + 3u * (r.bytes[29] + 32u * ((r.bytes[30] + 1u) % 65u)));
  put_varint(out, r.rule50());
  put_varint(out, r.ply());
  put_varint(out, zigzag(r.white_score()));
}

// Reads the keyframe of version 2 after its x; returns the reason it is none.
std::optional<std::string> get_keyframe(std::string_view bytes, size_t& at, PackedPosition& p) {
  p = PackedPosition();
  if (bytes.size() - at < 8) return "truncated keyframe";
  std::copy_n(bytes.begin() + long(at), 8, p.bytes.begin());
  at += 8;
  const size_t nibble_bytes = size_t(std::popcount(p.occupied()) + 1) / 2;
  if (nibble_bytes > 16) return "more than 32 pieces";
  if (bytes.size() - at < nibble_bytes) return "truncated keyframe";
  std::copy_n(bytes.begin() + long(at), nibble_bytes, p.bytes.begin() + 8);
  at += nibble_bytes;
  uint64_t fields[4];
  for (uint64_t& field : fields)
    if (const char* error = get_varint(bytes, at, field)) return std::string(error) + " in a keyframe";
  if (fields[0] >= 3 * 32 * 65 || fields[1] > 255 || fields[2] > 65535 || fields[3] > 65535)
    return "a keyframe field out of range";
  p.bytes[28] = uint8_t(fields[0] % 3);
  p.bytes[29] = uint8_t(fields[0] / 3 % 32);
  p.bytes[30] = uint8_t((fields[0] / 96 + 64) % 65);
  p.bytes[31] = uint8_t(fields[1]);
  p.bytes[26] = uint8_t(fields[2]);
  p.bytes[27] = uint8_t(fields[2] >> 8);
  const uint16_t score = uint16_t(unzigzag(fields[3]));
  p.bytes[24] = uint8_t(score);
  p.bytes[25] = uint8_t(score >> 8);
  return p.check();
}

// The encoder's search for the moves between two records of a game.
class PathFinder {
 public:
  // Finds `plies` legal moves that lead from `pos` (standing on `previous`) to the target record
  // (score and all) and writes them to moves[]. Only pieces on squares that differ from the
  // target move, and at most 20,000 nodes are searched: a path it misses costs a keyframe, never
  // a wrong record. Leaves pos as it was.
  bool find(core::Position& pos, const PackedPosition& previous, const PackedPosition& target, int plies,
            core::Move* moves) {
    std::fill(std::begin(board_), std::end(board_), core::NO_PIECE);
    int i = 0;
    for (uint64_t b = target.occupied(); b; b &= b - 1, ++i) board_[core::lsb(b)] = target.piece(i);
    previous_ = &previous;
    target_ = &target;
    occupied_ = target.occupied();
    plies_ = plies;
    budget_ = 20000;
    moves_ = moves;
    return search(pos, 0);
  }

 private:
  bool search(core::Position& pos, int depth) {
    if (depth == plies_)
      return pos.pieces() == occupied_ &&
             record_of(pos, *previous_, plies_, target_->white_score()) == *target_;
    // A move changes the occupancy of at most four squares (castling).
    if (std::popcount(pos.pieces() ^ occupied_) > 4 * (plies_ - depth) || --budget_ < 0) return false;
    const bool last = depth + 1 == plies_;
    core::Move* const end = core::generate<core::LEGAL>(pos, legal_[depth]);
    for (core::Move* m = legal_[depth]; m != end; ++m) {
      if (pos.piece_on(m->from()) == board_[m->from()]) continue;
      // The last move must leave the target's occupancy (castling aside, it empties `from` and
      // fills `to`, en passant emptying the captured pawn's square too).
      if (last && m->kind() != core::Move::CASTLING) {
        Bitboard after = (pos.pieces() ^ core::square_bb(m->from())) | core::square_bb(m->to());
        if (m->kind() == core::Move::EN_PASSANT)
          after ^= core::square_bb(m->to() - core::pawn_push(pos.side_to_move()));
        if (after != occupied_) continue;
      }
      pos.do_move(*m, states_[depth]);
      moves_[depth] = *m;
      const bool found = search(pos, depth + 1);
      pos.undo_move(*m);
      if (found) return true;
    }
    return false;
  }

  core::Piece board_[64];
  const PackedPosition* previous_ = nullptr;
  const PackedPosition* target_ = nullptr;
  Bitboard occupied_ = 0;  // the target's
  int plies_ = 0, budget_ = 0;
  core::Move* moves_ = nullptr;
  core::StateInfo states_[kChainMaxPlies];
  core::Move legal_[kChainMaxPlies][core::kMaxMoves + core::kMoveListSlack];
};

}  // namespace

struct ChainWriter::Impl {
  Cursor cursor{true};
  PathFinder finder;
};

ChainWriter::ChainWriter() : impl_(std::make_unique<Impl>()) {}
ChainWriter::~ChainWriter() = default;

void ChainWriter::add(const PackedPosition& record, const core::Move* moves, int plies) {
  ++stats_.records;
  Cursor& cursor = impl_->cursor;
  const PackedPosition previous = cursor.record();
  if (cursor.valid() && plies >= 1 && plies <= kChainMaxPlies && record.result() == previous.result()) {
    unsigned index[kChainMaxPlies], count[kChainMaxPlies];
    bool played = true;
    for (int i = 0; i < plies && played; ++i) {
      count[i] = cursor.moves();
      const int k = cursor.order().index_of(moves[i]);
      played = k >= 0 && cursor.play(unsigned(k));
      index[i] = unsigned(k);
    }
    // A step only where it gives back the record byte for byte.
    if (played && cursor.record_after(plies, record.white_score()) == record) {
      if (const uint64_t x =
              step_number(index, count, plies, int(record.white_score()) - int(previous.white_score()))) {
        put_varint(entries_, x);
        cursor.arrive(record);
        stats_.plies += size_t(plies);
        return;
      }
    }
  }
  if (auto error = record.check())
    throw std::invalid_argument("record " + std::to_string(stats_.records - 1) + ": " + *error);
  put_keyframe(entries_, record);
  cursor.set(record);
  ++stats_.keyframes;
}

void ChainWriter::add_found(const PackedPosition& record) {
  Cursor& cursor = impl_->cursor;
  const PackedPosition& previous = cursor.record();
  const int plies = int(record.ply()) - int(previous.ply());
  core::Move moves[kChainMaxPlies];
  if (cursor.valid() && plies >= 1 && plies <= kChainMaxPlies && record.result() == previous.result()) {
    core::Position pos = cursor.position();  // searched on a copy: the cursor's states stay as they are
    if (impl_->finder.find(pos, previous, record, plies, moves)) return add(record, moves, plies);
  }
  add(record, nullptr, 0);
}

std::string ChainWriter::take() { return std::exchange(entries_, {}); }

std::string encode_chain(const std::vector<PackedPosition>& records, ChainStats* stats) {
  ChainWriter writer;
  for (const PackedPosition& r : records) writer.add_found(r);
  std::string out = std::string(kChainMagic) + writer.take();
  if (stats) {
    *stats = writer.stats();
    stats->bytes = out.size();
  }
  return out;
}

std::optional<std::string> decode_chain(std::string_view bytes, std::vector<PackedPosition>& out) {
  const bool v1 = bytes.substr(0, kChainMagicV1.size()) == kChainMagicV1;
  if (!v1 && bytes.substr(0, kChainMagic.size()) != kChainMagic)
    return "not a game chain (no VBC2 or VBC1 magic)";
  auto cursor = std::make_unique<Cursor>(!v1);
  size_t at = kChainMagic.size();
  while (at < bytes.size()) {
    const size_t entry = at;
    const auto fail = [entry](const std::string& why) {
      return "entry at byte " + std::to_string(entry) + ": " + why;
    };
    uint64_t x = 0;
    if (const char* error = get_varint(bytes, at, x)) return fail(error);
    PackedPosition p;
    if (x == 0) {
      if (v1) {
        if (bytes.size() - at < PackedPosition::kBytes) return fail("truncated keyframe");
        std::copy_n(bytes.begin() + long(at), PackedPosition::kBytes, p.bytes.begin());
        at += PackedPosition::kBytes;
        if (auto error = p.check()) return fail(*error);
      } else if (auto error = get_keyframe(bytes, at, p)) {
        return fail(*error);
      }
      cursor->set(p);
    } else if (!cursor->valid()) {
      return fail("a step without a position to start from");
    } else if (const char* error = v1 ? play_step_v1(*cursor, x, bytes, at, p) : play_step(*cursor, x, p)) {
      return fail(error);
    }
    out.push_back(p);
  }
  return std::nullopt;
}

}  // namespace vblitz::data
