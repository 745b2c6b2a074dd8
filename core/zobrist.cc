// Fills the Zobrist tables from a fixed seed so keys are the same in every build.
#include "core/zobrist.h"

#include "core/prng.h"

namespace vblitz::core::zobrist {

Key psq[PIECE_NB][SQUARE_NB];
Key en_passant_file[8];
Key castling[CASTLING_RIGHT_NB];
Key side;
Key no_pawns;
Key material[PIECE_NB][16];

namespace {

struct KeyInitializer {
  KeyInitializer() {
    Prng rng(1070372);
    for (auto& piece : psq)
      for (Key& k : piece) k = rng.next();
    for (Key& k : en_passant_file) k = rng.next();
    // Castling keys are additive over the four rights so any subset has one well-defined key.
    Key single[4];
    for (Key& k : single) k = rng.next();
    for (int cr = 0; cr < CASTLING_RIGHT_NB; ++cr) {
      castling[cr] = 0;
      for (int bit = 0; bit < 4; ++bit)
        if (cr & (1 << bit)) castling[cr] ^= single[bit];
    }
    side = rng.next();
    no_pawns = rng.next();
    for (auto& piece : material)
      for (Key& k : piece) k = rng.next();
  }
};

const KeyInitializer key_initializer;

}  // namespace
}  // namespace vblitz::core::zobrist
