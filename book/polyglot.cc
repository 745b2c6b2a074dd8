// Polyglot keys, move codec and book lookup.
#include "book/polyglot.h"

#include <algorithm>
#include <cmath>

#include "core/file.h"
#include "core/movegen.h"

namespace vblitz::book {

namespace {

constexpr uint64_t kRandom[781] = {
#include "book/polyglot_random.inc"
};
constexpr int kCastlingOffset = 768, kEnPassantOffset = 772, kTurnOffset = 780;

// Polyglot's piece order: black pawn 0, white pawn 1, black knight 2, ... white king 11.
int piece_kind(core::Piece p) {
  return 2 * (core::type_of(p) - core::PAWN) + (core::color_of(p) == core::WHITE ? 1 : 0);
}

uint64_t read_be(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

void write_be(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(char((v >> (8 * i)) & 0xFF));
}

}  // namespace

uint64_t polyglot_key(const core::Position& pos) {
  using namespace core;
  uint64_t key = 0;
  for (Bitboard b = pos.pieces(); b;) {
    Square s = pop_lsb(b);
    key ^= kRandom[64 * piece_kind(pos.piece_on(s)) + s];
  }
  const CastlingRights rights[4] = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};
  for (int i = 0; i < 4; ++i)
    if (pos.can_castle(rights[i])) key ^= kRandom[kCastlingOffset + i];
  if (pos.ep_square() != SQ_NONE) key ^= kRandom[kEnPassantOffset + file_of(pos.ep_square())];
  if (pos.side_to_move() == WHITE) key ^= kRandom[kTurnOffset];
  return key;
}

uint16_t encode_move(core::Move m) {
  const int promotion = m.kind() == core::Move::PROMOTION ? m.promotion_type() - core::KNIGHT + 1 : 0;
  return uint16_t((promotion << 12) | (m.from() << 6) | m.to());
}

core::Move decode_move(const core::Position& pos, uint16_t raw) {
  for (core::Move m : core::MoveList<core::LEGAL>(pos))
    if (encode_move(m) == raw) return m;
  return core::Move::none();
}

std::string write_entries(const std::vector<Entry>& entries) {
  std::string out;
  out.reserve(entries.size() * kEntryBytes);
  for (const Entry& e : entries) {
    write_be(out, e.key, 8);
    write_be(out, e.move, 2);
    write_be(out, e.weight, 2);
    write_be(out, e.learn, 4);
  }
  return out;
}

std::optional<std::string> PolyglotBook::load(const std::string& path) {
  std::string bytes;
  if (auto error = core::read_file(path, kMaxFileBytes, bytes)) return error;
  return load_bytes(bytes);
}

std::optional<std::string> PolyglotBook::load_bytes(const std::string& bytes) {
  if (bytes.empty()) return std::string("the book is empty");
  if (bytes.size() % kEntryBytes)
    return "truncated: " + std::to_string(bytes.size()) + " bytes is not a whole number of 16-byte entries";
  std::vector<Entry> entries(bytes.size() / kEntryBytes);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  for (size_t i = 0; i < entries.size(); ++i, p += kEntryBytes) {
    entries[i] = {read_be(p, 8), uint16_t(read_be(p + 8, 2)), uint16_t(read_be(p + 10, 2)),
                  uint32_t(read_be(p + 12, 4))};
    if (i && entries[i].key < entries[i - 1].key)
      return "not sorted by key (entry " + std::to_string(i) + "): not a Polyglot book";
  }
  entries_ = std::move(entries);
  return std::nullopt;
}

std::vector<BookMove> PolyglotBook::moves(const core::Position& pos) const {
  const uint64_t key = polyglot_key(pos);
  auto first = std::lower_bound(entries_.begin(), entries_.end(), key,
                                [](const Entry& e, uint64_t k) { return e.key < k; });
  std::vector<BookMove> found;
  for (auto it = first; it != entries_.end() && it->key == key; ++it) {
    core::Move m = decode_move(pos, it->move);
    if (m != core::Move::none()) found.push_back({m, it->weight});
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const BookMove& a, const BookMove& b) { return a.weight > b.weight; });
  return found;
}

core::Move PolyglotBook::choose(const core::Position& pos, int variety, std::mt19937_64& rng) const {
  const std::vector<BookMove> candidates = moves(pos);
  if (candidates.empty()) return core::Move::none();
  if (variety <= 0) return candidates.front().move;
  const double exponent = 100.0 / std::min(variety, 100);
  const double heaviest = std::max(1, candidates.front().weight);  // scaled to 1 first: no overflow
  std::vector<double> chance;
  for (const BookMove& b : candidates) chance.push_back(std::pow(b.weight / heaviest, exponent));
  if (std::all_of(chance.begin(), chance.end(), [](double c) { return c <= 0; }))
    return candidates.front().move;
  std::discrete_distribution<size_t> pick(chance.begin(), chance.end());
  return candidates[pick(rng)].move;
}

}  // namespace vblitz::book
