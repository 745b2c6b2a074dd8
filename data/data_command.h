// `vblitz data`: the packed network data sets (data/packed_position.h) made by datagen.
//   vblitz data stats PATH...                    count, results, score and piece-count histograms
//   vblitz data prepare OUTDIR PATH... [--validation FRACTION] [--seed N]
//                                                de-duplicate, shuffle, split: OUTDIR/train.vbd and
//                                                OUTDIR/validation.vbd (the last FRACTION of the
//                                                input files, whole games), then their statistics
//   vblitz data export PATH...                   one "FEN | score | result" line a record
//   vblitz data pack OUT.vbc PATH... [--decode-runs N]
//                                                the records as one game chain (data/game_chain.h);
//                                                with N, decodes it N times and reports the median
//                                                rate
//   vblitz data unpack OUT.vbd PATH...           the records as one file of 32-byte records
// A PATH is a .vbd or .vbc file or a directory whose .vbd and .vbc files are read in name order.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "data/packed_position.h"

namespace vblitz::data {

// Reads every record of the paths; on a bad file or record returns the reason.
std::optional<std::string> read_packed(const std::vector<std::string>& paths,
                                       std::vector<PackedPosition>& out);

using RecordIt = std::vector<PackedPosition>::const_iterator;

// Writes the records to `path`; false on failure.
bool write_packed(const std::string& path, RecordIt first, RecordIt last);
inline bool write_packed(const std::string& path, const std::vector<PackedPosition>& records) {
  return write_packed(path, records.begin(), records.end());
}

// For each record, whether its position (board and side to move) came earlier in `records`.
std::vector<bool> repeats(const std::vector<PackedPosition>& records);
// Drops every record whose position came earlier; returns how many.
size_t deduplicate(std::vector<PackedPosition>& records);

// Shuffles in place, the same order for the same seed on every platform.
void shuffle_records(std::vector<PackedPosition>::iterator first, std::vector<PackedPosition>::iterator last,
                     uint64_t seed);
inline void shuffle_records(std::vector<PackedPosition>& records, uint64_t seed) {
  shuffle_records(records.begin(), records.end(), seed);
}

// Prints count, results, side to move, score and piece-count histograms.
void print_stats(RecordIt first, RecordIt last, std::ostream& out);
inline void print_stats(const std::vector<PackedPosition>& records, std::ostream& out) {
  print_stats(records.begin(), records.end(), out);
}

// Runs `vblitz data ARGS`; returns the exit status.
int run_data_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace vblitz::data
