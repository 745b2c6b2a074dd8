// Engines that share nothing: two engines in one process, searching at the same time with
// different kernels, SIMD targets, networks and parameters, each get the result they get alone.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "eval/network.h"
#include "simd/dispatch.h"
#include "tests/test_support.h"
#include "uci/uci.h"

namespace vblitz::test {
namespace {

constexpr const char* kBench = "bench 9";

// The number after `label` on the last line that has it ("" if none).
std::string value_after(const std::string& text, const std::string& label) {
  const size_t at = text.rfind(label);
  if (at == std::string::npos) return "";
  const size_t end = text.find('\n', at);
  return text.substr(at + label.size(),
                     end == std::string::npos ? std::string::npos : end - at - label.size());
}

// The default network with its output layer nudged: another network, a search of its own.
std::string write_other_network() {
  eval::Network net = *eval::active_network();
  for (size_t i = 0; i < net.output_weights.size(); ++i)
    net.output_weights[i] = int16_t(net.output_weights[i] + int(i % 3) - 1);
  const std::string path = temp_dir() + "/other.nnue";
  std::ofstream(path, std::ios::binary) << net.serialize();
  return path;
}

struct EngineRun {
  std::vector<std::string> setup;  // setoption lines
  std::string out;
};

// Sets each engine up, then runs `bench` on all of them at once (each engine's own job thread);
// returns what each printed.
void run_together(std::vector<EngineRun>& runs) {
  std::vector<std::ostringstream> outs(runs.size());
  std::vector<std::unique_ptr<uci::Engine>> engines;
  for (size_t i = 0; i < runs.size(); ++i) {
    engines.push_back(std::make_unique<uci::Engine>(outs[i]));
    for (const std::string& line : runs[i].setup) engines[i]->handle(line);
  }
  for (auto& e : engines) e->handle(kBench);
  for (auto& e : engines) e->wait_for_search();
  for (size_t i = 0; i < runs.size(); ++i) runs[i].out = outs[i].str();
}

TEST(Engines, TwoEnginesInOneProcessKeepTheirOwnKernelsNetworksAndSignatures) {
  const std::string other = write_other_network();
  const std::string lowest = simd::available_targets().back();
  // Alone, one at a time, with the process's kernels: the truth each engine must reproduce.
  std::vector<EngineRun> alone_default{{{}, ""}},
      alone_other{{{"setoption name EvalFile value " + other}, ""}},
      alone_classic{{{"setoption name EvalMode value classic", "setoption name King Safety value 150"}, ""}};
  run_together(alone_default);
  run_together(alone_other);
  run_together(alone_classic);
  const std::string signature_default = value_after(alone_default[0].out, "Nodes searched: ");
  const std::string signature_other = value_after(alone_other[0].out, "Nodes searched: ");
  const std::string signature_classic = value_after(alone_classic[0].out, "Nodes searched: ");
  ASSERT_FALSE(signature_default.empty()) << alone_default[0].out;
  EXPECT_NE(signature_other, signature_default);  // the other network searches differently
  EXPECT_NE(signature_classic, signature_default);

  // Together: scalar twins with the default network; every kernel vectorized on the lowest
  // target with the other network; the classic evaluation with its own King Safety.
  std::vector<EngineRun> together{
      {{"setoption name Kernels value scalar"}, ""},
      {{"setoption name Kernels value all-vector", "setoption name SimdTarget value " + lowest,
        "setoption name EvalFile value " + other},
       ""},
      {{"setoption name EvalMode value classic", "setoption name King Safety value 150"}, ""}};
  for (int round = 0; round < 2; ++round) {
    run_together(together);
    EXPECT_EQ(value_after(together[0].out, "Nodes searched: "), signature_default) << together[0].out;
    EXPECT_EQ(value_after(together[1].out, "Nodes searched: "), signature_other) << together[1].out;
    EXPECT_EQ(value_after(together[2].out, "Nodes searched: "), signature_classic) << together[2].out;
    // Each bench names the kernels its own thread ran.
    EXPECT_EQ(value_after(together[0].out, "threads 1, ").rfind("kernels scalar (vector:)", 0), 0u)
        << together[0].out;
    EXPECT_EQ(value_after(together[1].out, "threads 1, ").rfind("kernels all-vector", 0), 0u)
        << together[1].out;
    EXPECT_NE(value_after(together[1].out, "threads 1, ").find("SIMD target " + lowest), std::string::npos)
        << together[1].out;
    EXPECT_EQ(value_after(together[2].out, "threads 1, ").rfind("kernels vector", 0), 0u) << together[2].out;
  }
  // And nothing leaked into the process: its kernels and network are as they were.
  EXPECT_EQ(simd::kernels(), simd::Kernels::kVector);
  EXPECT_EQ(simd::simd_target(), "best");
  std::vector<EngineRun> after{{{}, ""}};
  run_together(after);
  EXPECT_EQ(value_after(after[0].out, "Nodes searched: "), signature_default);
}

}  // namespace
}  // namespace vblitz::test
