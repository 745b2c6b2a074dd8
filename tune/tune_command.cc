// Command-line driver of the tuner: reading, linearizing, fitting K, optimizing, checkpoints
// and the report of flat ("noisy") terms.
#include "tune/tune_command.h"

#include <omp.h>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/file.h"
#include "core/text.h"
#include "eval/param_blocks.h"
#include "tune/tuner.h"

namespace vblitz::tune {

namespace {

constexpr const char* kUsage =
    "usage: vblitz tune DATA --out FILE [--method texel|hill|ga] [--params START | --resume CHECKPOINT]\n"
    "       [--epochs N] [--batch N] [--rate R] [--optimizer adam|gd] [--k K] [--population N]\n"
    "       [--l2 L] [--threads N] [--limit N]\n";

struct CommandLine {
  std::string data, out, method = "texel", params, resume;
  TuneOptions options;
  size_t limit = 0;
  int threads = 0;
};

std::optional<std::string> parse(const std::vector<std::string>& args, CommandLine& c) {
  if (args.empty() || args[0].rfind("--", 0) == 0) return std::string("tune needs a data file");
  c.data = args[0];
  for (size_t i = 1; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return args[i] + " needs a value";
    const std::string &flag = args[i], &value = args[i + 1];
    double number = 0;
    std::istringstream in(value);
    const bool numeric = bool(in >> number) && in.eof() && number >= 0 && number <= 1e9;
    if (flag == "--out")
      c.out = value;
    else if (flag == "--method" && (value == "texel" || value == "hill" || value == "ga"))
      c.method = value;
    else if (flag == "--params")
      c.params = value;
    else if (flag == "--resume")
      c.resume = value;
    else if (flag == "--optimizer" && (value == "adam" || value == "gd"))
      c.options.adam = value == "adam";
    else if (flag == "--epochs" && numeric && number >= 1)
      c.options.epochs = int(number);
    else if (flag == "--batch" && numeric && number >= 1)
      c.options.batch = size_t(number);
    else if (flag == "--rate" && numeric && number > 0)
      c.options.rate = number;
    else if (flag == "--k" && numeric && number > 0)
      c.options.k = number;
    else if (flag == "--l2" && numeric)
      c.options.l2 = number;
    else if (flag == "--population" && numeric && number >= 4)
      c.options.population = int(number);
    else if (flag == "--threads" && numeric && number >= 1 && number <= 1024)
      c.threads = int(number);
    else if (flag == "--limit" && numeric && number >= 1)
      c.limit = size_t(number);
    else
      return "bad argument " + core::quote(flag + " " + value);
  }
  if (c.out.empty()) return std::string("tune needs --out FILE");
  return std::nullopt;
}

// The first epoch number recorded in a checkpoint's header ("# checkpoint epoch N ...").
int checkpoint_epoch(const std::string& text) {
  const std::string mark = "# checkpoint epoch ";
  size_t at = text.find(mark);
  return at == std::string::npos ? 0 : std::atoi(text.c_str() + at + mark.size());
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int run_tune_command(const std::vector<std::string>& args, std::ostream& log) {
  CommandLine c;
  if (auto err = parse(args, c)) return log << *err << '\n' << kUsage, 2;
  if (c.threads) omp_set_num_threads(c.threads);
  log << std::fixed;

  // Start: the defaults, a parameter file, or a checkpoint.
  eval::ParamSet start = eval::default_param_set();
  int first_epoch = 1;
  if (const std::string& file = c.resume.empty() ? c.params : c.resume; !file.empty()) {
    if (auto error = core::check_input_file(file)) return log << *error << '\n', 1;
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) return log << "cannot read '" << file << "'\n", 1;
    if (auto err = eval::read_param_set(text.str(), start)) return log << file << ": " << *err << '\n', 1;
    if (!c.resume.empty()) first_epoch = checkpoint_epoch(text.str()) + 1;
  }

  std::vector<std::pair<std::string, double>> positions;
  int bad_lines = 0;
  if (auto err = read_data_file(c.data, positions, bad_lines)) return log << *err << '\n', 1;
  if (c.limit && positions.size() > c.limit) positions.resize(c.limit);
  auto t0 = std::chrono::steady_clock::now();
  const TuningSet set = build_tuning_set(positions, start[eval::Family::kDefault]);
  log << "positions " << set.size() << " (" << bad_lines + set.skipped_lines << " unreadable lines skipped), "
      << "linearized in " << std::setprecision(1) << seconds_since(t0) << " s on " << omp_get_max_threads()
      << " threads, " << std::setprecision(1)
      << double(set.coefficients.size()) / std::max<size_t>(set.size(), 1) << " coefficients per position\n";
  if (set.size() == 0) return log << "no usable positions\n", 1;

  if (c.options.k == 0) c.options.k = fit_k(set);
  t0 = std::chrono::steady_clock::now();
  int loss_runs = 0;
  double start_loss = 0;
  for (; loss_runs < 3 || seconds_since(t0) < 0.5; ++loss_runs)
    start_loss = loss(set, set.start, c.options.k);
  log << std::setprecision(4) << "K " << c.options.k << ", start loss " << std::setprecision(6) << start_loss
      << ", loss evaluation " << std::setprecision(0) << double(set.size()) * loss_runs / seconds_since(t0)
      << " positions/s on " << omp_get_max_threads() << " threads\n";

  const std::string checkpoint = c.out + ".checkpoint";
  t0 = std::chrono::steady_clock::now();
  auto last = t0;
  // Positions scored per epoch, pass or generation: texel's gradient and loss passes; the GA's
  // population and its report; hill climbing's trial moves (each touches at most its column,
  // twice) and its report.
  const double n = double(set.size());
  const double scored = c.method == "texel" ? 2 * n
                        : c.method == "ga"  ? (c.options.population + 1) * n
                                            : n + 2 * double(set.coefficients.size());
  auto progress = [&](int epoch, double l, const std::vector<double>& w) {
    const int number = first_epoch + epoch - 1;
    const double step_seconds = seconds_since(last);
    last = std::chrono::steady_clock::now();
    log << c.method
        << (c.method == "ga"     ? " generation "
            : c.method == "hill" ? " pass "
                                 : " epoch ")
        << number << ": loss " << std::setprecision(6) << l << ", " << std::setprecision(1) << step_seconds
        << " s";
    log << ", " << std::setprecision(0) << scored / std::max(step_seconds, 1e-9) << " positions/s\n";
    std::ofstream(checkpoint) << "# checkpoint epoch " << number << " method " << c.method << " loss " << l
                              << '\n'
                              << eval::write_params(to_params(w));
  };
  std::vector<double> w = set.start;
  if (c.method == "texel") w = tune_texel(set, w, c.options, progress);
  if (c.method == "hill") w = tune_hill(set, w, c.options, progress);
  if (c.method == "ga") w = tune_ga(set, w, c.options, progress);
  const std::vector<double> rounded = to_vector(to_params(w));
  const double final_loss = loss(set, rounded, c.options.k);

  log << "noisy terms (smallest rise in loss for +-10 cp around the result):\n";
  const auto curvature = loss_curvature(set, rounded, c.options.k);
  for (size_t i = 0; i < std::min<size_t>(10, curvature.size()); ++i)
    log << "  " << std::left << std::setw(28) << parameter_name(curvature[i].first) << std::right
        << std::scientific << std::setprecision(2) << curvature[i].second << std::fixed << '\n';
  log << "  (" << parameter_count() - int(curvature.size())
      << " parameters never move the evaluation here)\n";

  std::ofstream out(c.out);
  out << "# VBlitz parameters tuned by `vblitz tune " << c.data << " --method " << c.method
      << "`: " << set.size() << " positions, K " << std::setprecision(4) << c.options.k << ", loss "
      << std::setprecision(6) << start_loss << " -> " << final_loss << '\n'
      << eval::write_params(to_params(w));
  if (!out) return log << "cannot write '" << c.out << "'\n", 1;
  log << "loss " << std::setprecision(6) << start_loss << " -> " << final_loss << " in "
      << std::setprecision(1) << seconds_since(t0) << " s; wrote " << c.out << '\n';
  return 0;
}

}  // namespace vblitz::tune
