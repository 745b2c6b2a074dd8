// An engine in a child process, UCI or xboard (CECP), driven over pipes with a deadline on every
// answer.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vblitz::match {

using Clock = std::chrono::steady_clock;

enum class Protocol { kUci, kXboard };

// How an engine is started and set up (`-engine cmd=... name=... args=... option.X=Y proto=...`).
struct EngineConfig {
  std::string name, cmd;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> options;  // in the order given
  bool ponder = false;  // think on the opponent's time (`ponder`, UCI only): sets the Ponder option
  Protocol protocol = Protocol::kUci;
};

// A move to make: the game so far and what bounds the search.
struct Turn {
  std::string fen;                 // the game's first position
  std::vector<std::string> moves;  // the moves played since, in UCI's coordinate notation
  bool clock = false;
  int64_t time_ms[2] = {0, 0};       // white's and black's time left
  int64_t increment_ms[2] = {0, 0};  // and increments
  uint64_t nodes = 0;
  int depth = 0;
};

// What the engine said about its search: the last score it gave (centipawns from its own side;
// a mate as +-(32000 - plies)), depth and nodes.
struct SearchInfo {
  std::optional<int> score;
  int depth = 0;
  uint64_t nodes = 0;
  std::string ponder;  // the reply it expects (bestmove's `ponder` move), if it named one
};

class Engine {
 public:
  explicit Engine(EngineConfig config) : config_(std::move(config)) {}
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Starts the process and sets it up (UCI: uci, the options, isready; xboard: xboard,
  // protover 2 and its features, the options). Returns the error, if any.
  std::optional<std::string> start();
  // A new game (UCI: ucinewgame and isready; xboard: new, force, post, easy, and ping when the
  // engine has it); false when the engine does not answer within `timeout`.
  bool new_game(std::chrono::milliseconds timeout);
  // The side to move's search: sends the position and the limits and waits for the move until
  // `deadline`. Returns the move's text as the engine wrote it (coordinates, or SAN from an
  // xboard engine; "resign" when an xboard engine resigns; "" when none came in time, the engine
  // died, or an xboard engine refused a move it was sent) and fills `info`. While it waits, the
  // output of `also` (an engine pondering meanwhile) is read into its buffer, so a pondering
  // engine never blocks on a full pipe.
  std::string think(const Turn& turn, Clock::time_point deadline, SearchInfo& info, Engine* also = nullptr);
  // Pondering (UCI): `go ponder` on `turn`, whose moves end with the expected reply; then either
  // ponderhit (the search goes on as a normal one; wait for it with best_move) or stop_search
  // (the reply was another move).
  void go_ponder(const Turn& turn);
  void ponderhit();
  bool pondering() const { return pondering_; }
  // True while a UCI search's bestmove is unread: after go ponder, after ponderhit until
  // best_move has it, or after think gave up waiting.
  bool searching() const { return searching_; }
  // `stop`, then reads the search's bestmove and discards it; false when none came before
  // `deadline`.
  bool stop_search(Clock::time_point deadline);
  // The bestmove of the UCI search under way (after go_ponder and ponderhit), as think returns it.
  std::string best_move(Clock::time_point deadline, SearchInfo& info, Engine* also = nullptr);
  // quit, then kill after a grace period.
  void stop_process();
  bool running() const { return pid_ > 0; }
  // True once the engine's output has ended (it exited or closed it).
  bool exited() const { return pid_ > 0 && from_engine_ < 0; }
  const EngineConfig& config() const { return config_; }

 private:
  void send(const std::string& line);
  // The next line before the deadline; nullopt on timeout or end of output. Reads `also`'s
  // output into its buffer meanwhile.
  std::optional<std::string> read_line(Clock::time_point deadline, Engine* also = nullptr);
  // Appends what the engine has written to the buffer without waiting.
  void read_available();
  bool wait_for(const std::string& token, Clock::time_point deadline);
  std::optional<std::string> start_xboard();
  std::string think_xboard(const Turn& turn, Clock::time_point deadline, SearchInfo& info);
  // The position of `fen` by xboard's edit mode, for engines without setboard.
  void edit_position(const std::string& fen, bool black_to_move);

  EngineConfig config_;
  int pid_ = -1, to_engine_ = -1, from_engine_ = -1;
  std::string buffer_;
  bool pondering_ = false;
  bool searching_ = false;
  // xboard: the features the engine announced, and how much of the game it has been told.
  bool setboard_ = false, usermove_ = false, ping_ = false;
  int pings_ = 0;
  bool game_set_up_ = false;  // the game's position and time control were sent
  size_t moves_known_ = 0;    // moves of the game on the engine's board
};

}  // namespace vblitz::match
