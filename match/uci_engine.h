// A UCI engine in a child process, driven over pipes with a deadline on every answer.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vblitz::match {

using Clock = std::chrono::steady_clock;

// How an engine is started and set up (`-engine cmd=... name=... args=... option.X=Y`).
struct EngineConfig {
  std::string name, cmd;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> options;  // in the order given
};

// What the engine said about its search: the last score it gave (centipawns from its own side;
// a mate as +-(32000 - plies)), depth and nodes.
struct SearchInfo {
  std::optional<int> score;
  int depth = 0;
  uint64_t nodes = 0;
};

class UciEngine {
 public:
  explicit UciEngine(EngineConfig config) : config_(std::move(config)) {}
  ~UciEngine();
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  // Starts the process and sets it up: uci, the options, isready. Returns the error, if any.
  std::optional<std::string> start();
  // ucinewgame and isready; false when the engine does not answer within `timeout`.
  bool new_game(std::chrono::milliseconds timeout);
  // Sends the position and the go command and waits for bestmove until `deadline`. Returns the
  // move's text ("" when none came in time or the engine died) and fills `info`.
  std::string go(const std::string& position, const std::string& go_command, Clock::time_point deadline,
                 SearchInfo& info);
  // quit, then kill after a grace period.
  void stop_process();
  bool running() const { return pid_ > 0; }
  // True once the engine's output has ended (it exited or closed it).
  bool exited() const { return pid_ > 0 && from_engine_ < 0; }
  const EngineConfig& config() const { return config_; }

 private:
  void send(const std::string& line);
  // The next line before the deadline; nullopt on timeout or end of output.
  std::optional<std::string> read_line(Clock::time_point deadline);
  bool wait_for(const std::string& token, Clock::time_point deadline);

  EngineConfig config_;
  int pid_ = -1, to_engine_ = -1, from_engine_ = -1;
  std::string buffer_;
};

}  // namespace vblitz::match
