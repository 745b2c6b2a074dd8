// `vblitz data`: statistics, preparation and export of packed network data.
#include "data/data_command.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <ostream>
#include <utility>

#include "core/file.h"
#include "core/prng.h"
#include "core/text.h"
#include "data/game_chain.h"

namespace vblitz::data {

namespace {

constexpr const char* kUsage =
    "usage: vblitz data stats PATH... | data prepare OUTDIR PATH... [--validation FRACTION] [--seed N] | "
    "data export PATH... | data pack OUT.vbc PATH... [--decode-runs N] | data unpack OUT.vbd PATH...";

bool is_chain(const std::string& path) { return std::filesystem::path(path).extension() == ".vbc"; }

// The .vbd and .vbc files named by `paths` (directories expanded, in name order).
std::vector<std::string> expand(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    if (!fs::is_directory(p)) {
      files.push_back(p);
      continue;
    }
    std::vector<std::string> inside;
    std::error_code ec;
    for (auto it = fs::directory_iterator(p, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (it->path().extension() == ".vbd" || is_chain(it->path().string()))
        inside.push_back(it->path().string());
    if (ec) files.push_back(p + "/<unreadable: " + ec.message() + ">");  // reported by the reader
    std::sort(inside.begin(), inside.end());
    files.insert(files.end(), inside.begin(), inside.end());
  }
  return files;
}

// A bar of '#' proportional to count / most (at most 40 wide).
std::string bar(size_t count, size_t most) { return std::string(most ? 40 * count / most : 0, '#'); }

void print_histogram(const std::vector<std::pair<std::string, size_t>>& rows, size_t total,
                     std::ostream& out) {
  size_t most = 0;
  for (const auto& row : rows) most = std::max(most, row.second);
  for (const auto& [label, count] : rows)
    if (count)
      out << "  " << std::setw(14) << label << std::setw(11) << count << std::setw(7) << std::fixed
          << std::setprecision(2) << 100.0 * double(count) / double(total) << "% " << bar(count, most)
          << '\n';
}

// Decodes `chain` `runs` times on this thread, checks that it gives back `records`, and reports
// the median rate (the fastest and slowest runs beside it).
int time_decoding(const std::string& chain, const std::vector<PackedPosition>& records, int runs,
                  std::ostream& out, std::ostream& err) {
  std::vector<PackedPosition> decoded;
  decoded.reserve(records.size());
  std::vector<double> rates;
  for (int run = 0; run < runs; ++run) {
    decoded.clear();
    const auto started = std::chrono::steady_clock::now();
    const auto error = decode_chain(chain, decoded);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (error) return err << "the chain does not decode: " << *error << '\n', 1;
    if (decoded != records) return err << "the chain decodes to other records\n", 1;
    rates.push_back(double(records.size()) / std::max(seconds, 1e-9));
  }
  std::sort(rates.begin(), rates.end());
  out << "decoded " << runs << " times, exact: median " << std::setprecision(0) << rates[rates.size() / 2]
      << " records/s (" << rates.front() << " to " << rates.back() << ")\n";
  return 0;
}

// data pack OUT.vbc PATH... [--decode-runs N] / data unpack OUT.vbd PATH...: the records of PATH...
// in one file of the other format, and what it cost; --decode-runs times the decoding of the chain.
int convert(bool pack, std::vector<std::string> args, std::ostream& out, std::ostream& err) {
  int decode_runs = 0;
  for (size_t i = 0; pack && i < args.size(); ++i) {
    if (args[i] != "--decode-runs") continue;
    if (i + 1 == args.size() || args[i + 1].find_first_not_of("0123456789") != std::string::npos ||
        args[i + 1].size() > 4 || (decode_runs = std::stoi(args[i + 1])) < 1)
      return err << "--decode-runs takes a count from 1 to 9999\n", 2;
    args.erase(args.begin() + long(i), args.begin() + long(i) + 2);
    --i;
  }
  if (args.size() < 2) return err << kUsage << '\n', 2;
  const std::string& target = args[0];
  if (is_chain(target) != pack)
    return err << "the output of data " << (pack ? "pack" : "unpack") << " is a " << (pack ? ".vbc" : ".vbd")
               << " file, not '" << target << "'\n",
           2;
  std::vector<PackedPosition> records;
  auto started = std::chrono::steady_clock::now();
  const auto seconds_since = [&started] {
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(started, now)).count();
  };
  if (auto error = read_packed({args.begin() + 1, args.end()}, records)) return err << *error << '\n', 1;
  if (records.empty()) return err << "no records to " << (pack ? "pack" : "unpack") << '\n', 1;
  const double read_seconds = seconds_since();
  out << "read " << records.size() << " records in " << std::fixed << std::setprecision(3) << read_seconds
      << " s (" << std::setprecision(0) << double(records.size()) / std::max(read_seconds, 1e-9)
      << " records/s)\n";
  size_t bytes = records.size() * PackedPosition::kBytes;
  std::string chain;
  if (pack) {
    ChainStats stats;
    chain = encode_chain(records, &stats);
    const double encode_seconds = seconds_since();
    out << "keyframes " << stats.keyframes << ", plies " << stats.plies << "; encoded in "
        << std::setprecision(3) << encode_seconds << " s (" << std::setprecision(0)
        << double(records.size()) / std::max(encode_seconds, 1e-9) << " records/s)\n";
    std::ofstream file(target, std::ios::binary);
    if (!file.write(chain.data(), std::streamsize(chain.size())) || !file.flush())
      return err << "cannot write '" << target << "'\n", 1;
    bytes = chain.size();
  } else if (!write_packed(target, records)) {
    return err << "cannot write '" << target << "'\n", 1;
  }
  const double seconds = seconds_since();
  out << "wrote " << records.size() << " records to " << target << ": " << bytes << " bytes, "
      << std::setprecision(2) << (records.empty() ? 0.0 : double(bytes) / double(records.size()))
      << " bytes a record, in " << std::setprecision(3) << seconds << " s\n";
  return decode_runs ? time_decoding(chain, records, decode_runs, out, err) : 0;
}

int prepare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  double validation = 0.02;
  uint64_t seed = 1;
  std::vector<std::string> inputs;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--validation" || args[i] == "--seed") {
      if (i + 1 == args.size()) return err << args[i] << " needs a value\n", 2;
      const std::string& flag = args[i];
      const std::string& value = args[++i];
      if (flag == "--validation") {
        const auto fraction = core::parse_double(value, 0, 1);
        if (!fraction || *fraction >= 1)
          return err << "--validation takes a fraction in [0, 1), not " << core::quote(value) << '\n', 2;
        validation = *fraction;
      } else {
        const auto number = core::parse_long(value, 0, std::numeric_limits<long>::max());
        if (!number) return err << "--seed takes a whole number, not " << core::quote(value) << '\n', 2;
        seed = uint64_t(*number);
      }
    } else {
      inputs.push_back(args[i]);
    }
  }
  if (inputs.empty()) return err << kUsage << '\n', 2;
  // Positions of one game are alike: the validation set is made of whole shard files (each
  // holds whole games), the last ones in name order, unless there is a single input file.
  const std::vector<std::string> files = expand(inputs);
  const bool by_files = files.size() >= 2;
  const size_t held_files =
      by_files ? std::min(files.size() - 1, size_t(std::ceil(double(files.size()) * validation))) : 0;
  // Each input (a generation's directory, say) with the records it holds and the new positions
  // it adds: files are read and de-duplicated in order, training files first.
  struct Contribution {
    size_t records = 0, kept = 0;
  };
  std::vector<Contribution> contributions(inputs.size());
  std::vector<size_t> input_of;  // files[i] comes from inputs[input_of[i]]
  for (size_t i = 0; i < inputs.size(); ++i) input_of.resize(input_of.size() + expand({inputs[i]}).size(), i);
  // All records in one vector, reserved up front where the file sizes tell (chains are decoded to
  // learn their count), then de-duplicated and compacted in place: the training files' records
  // first, the validation files' after them.
  size_t expected = 0;
  for (const std::string& file : files) {
    std::error_code size_error;
    const uintmax_t size = std::filesystem::file_size(file, size_error);
    if (!size_error && !is_chain(file)) expected += size_t(size / PackedPosition::kBytes);
  }
  std::vector<PackedPosition> records, chunk;
  std::vector<size_t> file_end(files.size());
  size_t kept = 0, training_end = 0;
  try {
    records.reserve(expected);
    for (size_t i = 0; i < files.size(); ++i) {
      chunk.clear();
      if (auto error = read_packed({files[i]}, chunk)) return err << *error << '\n', 1;
      records.insert(records.end(), chunk.begin(), chunk.end());
      file_end[i] = records.size();
      contributions[input_of[i]].records += chunk.size();
    }
    std::vector<PackedPosition>().swap(chunk);
    const std::vector<bool> repeated = repeats(records);
    for (size_t i = 0, r = 0; i < files.size(); ++i) {
      for (; r < file_end[i]; ++r)
        if (!repeated[r]) records[kept++] = records[r], ++contributions[input_of[i]].kept;
      if (i + 1 == files.size() - held_files) training_end = kept;
    }
  } catch (const std::bad_alloc&) {
    return err << "not enough memory for the " << std::max(expected, records.size()) << " records\n", 1;
  }
  const size_t read = records.size();
  records.resize(kept);
  const size_t duplicates = read - kept;
  // From one file the validation set is the last records after the shuffle of them all.
  if (!by_files) training_end = kept - size_t(double(kept) * validation);
  shuffle_records(records.begin(), by_files ? records.begin() + long(training_end) : records.end(), seed);
  if (by_files) shuffle_records(records.begin() + long(training_end), records.end(), seed + 1);
  std::error_code ec;
  std::filesystem::create_directories(args[0], ec);
  const std::string train_path = (std::filesystem::path(args[0]) / "train.vbd").string();
  const std::string validation_path = (std::filesystem::path(args[0]) / "validation.vbd").string();
  const std::vector<PackedPosition>::const_iterator split = records.begin() + long(training_end);
  if (!write_packed(train_path, records.cbegin(), split) ||
      !write_packed(validation_path, split, records.cend()))
    return err << "cannot write into '" << args[0] << "'\n", 1;
  out << "read " << read << " records, dropped " << duplicates << " duplicates, shuffled with seed " << seed
      << "; validation: "
      << (by_files
              ? std::to_string(held_files) + " of " + std::to_string(files.size()) + " files (whole games)"
              : std::string("records of the one input file (games straddle the split)"))
      << '\n';
  if (inputs.size() > 1)
    for (size_t i = 0; i < inputs.size(); ++i)
      out << "  " << inputs[i] << ": " << contributions[i].records << " records, " << contributions[i].kept
          << " new positions\n";
  out << train_path << ":\n";
  print_stats(records.cbegin(), split, out);
  out << validation_path << ":\n";
  print_stats(split, records.cend(), out);
  return 0;
}

}  // namespace

std::optional<std::string> read_packed(const std::vector<std::string>& paths,
                                       std::vector<PackedPosition>& out) {
  for (const std::string& path : expand(paths)) {
    if (auto error = core::check_input_file(path)) return error;
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    std::ifstream in(path, std::ios::binary);
    if (ec || !in) return "cannot read " + core::quote(path);
    if (is_chain(path)) {
      std::string bytes;
      try {
        bytes.resize(size_t(size));
      } catch (const std::bad_alloc&) {
        return "not enough memory for " + core::quote(path);
      }
      if (!in.read(bytes.data(), std::streamsize(bytes.size())))
        return "cannot read " + core::quote(path) + ": it changed while read";
      const size_t first = out.size();
      if (auto error = decode_chain(bytes, out)) return core::quote(path) + ", " + *error;
      for (size_t r = first; r < out.size(); ++r)
        if (auto error = out[r].check_position())
          return core::quote(path) + ", record " + std::to_string(r - first) + " of the chain: " + *error;
      continue;
    }
    if (size % PackedPosition::kBytes)
      return core::quote(path) + " is not a whole number of " + std::to_string(PackedPosition::kBytes) +
             "-byte records";
    const uintmax_t records = size / PackedPosition::kBytes;
    try {
      // Geometric growth: reading many files one call at a time stays linear.
      if (out.capacity() < out.size() + size_t(records))
        out.reserve(std::max(out.size() + size_t(records), 2 * out.capacity()));
    } catch (const std::bad_alloc&) {
      return "not enough memory for the " + std::to_string(records) + " records of " + core::quote(path);
    }
    // Read to the size found above: a file that grows meanwhile is read no further.
    for (uintmax_t r = 0; r < records; ++r) {
      PackedPosition p;
      if (!in.read(reinterpret_cast<char*>(p.bytes.data()), PackedPosition::kBytes))
        return "cannot read " + core::quote(path) + ": it changed while read";
      if (auto error = p.check_position())
        return core::quote(path) + ", record " + std::to_string(r) + " (byte " +
               std::to_string(r * PackedPosition::kBytes) + "): " + *error;
      out.push_back(p);
    }
  }
  return std::nullopt;
}

bool write_packed(const std::string& path, RecordIt first, RecordIt last) {
  std::ofstream out(path, std::ios::binary);
  for (; first != last; ++first)
    out.write(reinterpret_cast<const char*>(first->bytes.data()), std::streamsize(first->bytes.size()));
  return bool(out);
}

std::vector<bool> repeats(const std::vector<PackedPosition>& records) {
  // (hash, index) pairs sorted: 16 bytes a record while it runs, where a node-based hash set of
  // the hashes took about twice that. The first index of each hash is the one kept.
  struct Key {
    uint64_t hash;
    uint64_t index;
    bool operator<(const Key& other) const {
      return hash != other.hash ? hash < other.hash : index < other.index;
    }
  };
  std::vector<Key> keys(records.size());
  for (size_t i = 0; i < records.size(); ++i) keys[i] = {records[i].position_hash(), i};
  std::sort(keys.begin(), keys.end());
  std::vector<bool> repeated(records.size());
  for (size_t i = 1; i < keys.size(); ++i)
    if (keys[i].hash == keys[i - 1].hash) repeated[keys[i].index] = true;
  return repeated;
}

size_t deduplicate(std::vector<PackedPosition>& records) {
  const std::vector<bool> repeated = repeats(records);
  size_t kept = 0;
  for (size_t i = 0; i < records.size(); ++i)
    if (!repeated[i]) records[kept++] = records[i];
  const size_t dropped = records.size() - kept;
  records.resize(kept);
  return dropped;
}

void shuffle_records(std::vector<PackedPosition>::iterator first, std::vector<PackedPosition>::iterator last,
                     uint64_t seed) {
  core::Prng prng(seed);
  for (size_t i = size_t(last - first); i > 1; --i) std::swap(first[long(i - 1)], first[long(prng.below(i))]);
}

void print_stats(RecordIt first, RecordIt last, std::ostream& out) {
  const size_t n = size_t(last - first);
  size_t results[3] = {}, black_to_move = 0;
  std::vector<std::pair<std::string, size_t>> scores, pieces;
  const int kScoreEdges[] = {-3000, -1000, -600, -400, -200, -100, -50, 0,
                             50,    100,   200,  400,  600,  1000, 3000};
  for (size_t i = 0; i <= std::size(kScoreEdges); ++i) {
    const std::string lo = i ? std::to_string(kScoreEdges[i - 1]) : "",
                      hi = i < std::size(kScoreEdges) ? std::to_string(kScoreEdges[i]) : "";
    scores.push_back({lo.empty() ? "< " + hi : hi.empty() ? ">= " + lo : lo + ".." + hi, 0});
  }
  for (int count = 2; count <= 32; ++count) pieces.push_back({std::to_string(count) + " pieces", 0});
  for (; first != last; ++first) {
    const PackedPosition& p = *first;
    ++results[std::min<int>(int(p.result()), 2)];
    black_to_move += p.side_to_move() == core::BLACK;
    const int score = p.white_score();
    scores[size_t(std::upper_bound(std::begin(kScoreEdges), std::end(kScoreEdges), score) -
                  std::begin(kScoreEdges))]
        .second++;
    pieces[size_t(std::clamp(std::popcount(p.occupied()), 2, 32) - 2)].second++;
  }
  out << "  positions " << n << "; White wins " << results[2] << ", draws " << results[1] << ", Black wins "
      << results[0] << "; Black to move " << black_to_move << '\n'
      << "  score (centipawns, White's view):\n";
  print_histogram(scores, n, out);
  out << "  pieces on the board:\n";
  print_histogram(pieces, n, out);
}

int run_data_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() < 2) return err << kUsage << '\n', 2;
  const std::string& verb = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (verb == "prepare") return prepare(rest, out, err);
  if (verb == "pack" || verb == "unpack") return convert(verb == "pack", rest, out, err);
  if (verb != "stats" && verb != "export")
    return err << "unknown data command '" << verb << "'\n" << kUsage << '\n', 2;
  std::vector<PackedPosition> records;
  if (auto error = read_packed(rest, records)) return err << *error << '\n', 1;
  if (records.empty())
    return err << "no records in " << core::quote(rest[0]) << (rest.size() > 1 ? " and the rest" : "")
               << '\n',
           1;
  if (verb == "stats")
    print_stats(records, out);
  else
    for (const PackedPosition& p : records) out << p.text_line() << '\n';
  return out ? 0 : 1;
}

}  // namespace vblitz::data
