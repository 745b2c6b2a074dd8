// UCI and xboard engines as child processes.
#include "match/engine.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>

#include "core/position.h"
#include "core/text.h"

namespace vblitz::match {

namespace {

constexpr auto kStartTimeout = std::chrono::seconds(20);

// The score of an info line's "score cp X" or "score mate N", from the engine's side.
std::optional<int> score_of(const std::string& line) {
  std::istringstream words(line);
  for (std::string word; words >> word;) {
    if (word != "score") continue;
    std::string kind;
    long value = 0;
    if (!(words >> kind >> value)) return std::nullopt;
    if (kind == "cp") return int(std::clamp(value, -31000L, 31000L));
    if (kind == "mate")
      return value > 0 ? 32000 - int(std::min(value, 999L)) : -32000 + int(std::min(-value, 999L));
    return std::nullopt;
  }
  return std::nullopt;
}

template <class T>
T field_after(const std::string& line, const std::string& key, T fallback) {
  std::istringstream words(line);
  for (std::string word; words >> word;)
    if (word == key) {
      T value;
      return words >> value ? value : fallback;
    }
  return fallback;
}

}  // namespace

Engine::~Engine() { stop_process(); }

std::optional<std::string> Engine::start() {
  // A write to an engine that has died raises SIGPIPE, which would end the whole match: it is
  // ignored (the write fails, and the engine's missing answer loses it the game).
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
  // Close-on-exec from the start: an engine another thread starts meanwhile must not inherit
  // this one's pipes (it would keep them open after this engine exits).
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return "cannot make pipes: " + std::string(std::strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return "cannot make pipes: " + std::string(std::strerror(errno));
  }
  std::vector<std::string> argv = {config_.cmd};
  argv.insert(argv.end(), config_.args.begin(), config_.args.end());
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    return "cannot start " + core::quote(config_.cmd) + ": " + std::strerror(errno);
  }
  if (pid == 0) {
    // A process group of its own: a Ctrl-C at the terminal reaches the runner, which ends the
    // match in order, and not the engines in the middle of their games. They still end with it:
    // their input closes when the runner exits.
    setpgid(0, 0);
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDERR_FILENO);
    execvp(raw[0], raw.data());  // the pipes' other ends close on exec
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  pid_ = pid;
  to_engine_ = in[1];
  from_engine_ = out[0];
  if (config_.protocol == Protocol::kXboard) return start_xboard();
  send("uci");
  if (!wait_for("uciok", Clock::now() + kStartTimeout)) {
    stop_process();
    return core::quote(config_.cmd) + " did not answer uci with uciok";
  }
  if (config_.ponder) send("setoption name Ponder value true");  // an option.Ponder given overrides it
  for (const auto& [name, value] : config_.options) send("setoption name " + name + " value " + value);
  send("isready");
  if (!wait_for("readyok", Clock::now() + kStartTimeout)) {
    stop_process();
    return core::quote(config_.cmd) + " did not answer isready";
  }
  return std::nullopt;
}

bool Engine::new_game(std::chrono::milliseconds timeout) {
  if (config_.protocol == Protocol::kXboard) {
    game_set_up_ = false;
    moves_known_ = 0;
    for (const char* line : {"new", "force", "post", "easy"}) send(line);
    if (!ping_) return true;
    const std::string n = std::to_string(++pings_);
    send("ping " + n);
    return wait_for("pong " + n, Clock::now() + timeout);
  }
  send("ucinewgame");
  send("isready");
  return wait_for("readyok", Clock::now() + timeout);
}

namespace {

// UCI's position and go commands for `turn` ("go" or "go ponder").
std::string uci_position(const Turn& turn) {
  std::string text = "position fen " + turn.fen;
  if (!turn.moves.empty()) text += " moves";
  for (const std::string& m : turn.moves) text += ' ' + m;
  return text;
}

std::string uci_go(const Turn& turn, const char* go) {
  std::string text = go;
  if (turn.clock)
    text += " wtime " + std::to_string(turn.time_ms[0]) + " btime " + std::to_string(turn.time_ms[1]) +
            " winc " + std::to_string(turn.increment_ms[0]) + " binc " + std::to_string(turn.increment_ms[1]);
  if (turn.nodes) text += " nodes " + std::to_string(turn.nodes);
  if (turn.depth) text += " depth " + std::to_string(turn.depth);
  return text;
}

}  // namespace

std::string Engine::think(const Turn& turn, Clock::time_point deadline, SearchInfo& info, Engine* also) {
  if (config_.protocol == Protocol::kXboard) return think_xboard(turn, deadline, info);
  send(uci_position(turn));
  send(uci_go(turn, "go"));
  searching_ = true;
  return best_move(deadline, info, also);
}

void Engine::go_ponder(const Turn& turn) {
  send(uci_position(turn));
  send(uci_go(turn, "go ponder"));
  pondering_ = searching_ = true;
}

void Engine::ponderhit() {
  send("ponderhit");
  pondering_ = false;
}

bool Engine::stop_search(Clock::time_point deadline) {
  send("stop");
  pondering_ = false;
  SearchInfo discarded;
  return !best_move(deadline, discarded).empty();
}

std::string Engine::best_move(Clock::time_point deadline, SearchInfo& info, Engine* also) {
  info = SearchInfo();
  while (auto line = read_line(deadline, also)) {
    if (line->rfind("info", 0) == 0) {
      if (line->find(" lowerbound") != std::string::npos || line->find(" upperbound") != std::string::npos)
        continue;
      if (auto s = score_of(*line)) info.score = s;
      info.depth = field_after(*line, "depth", info.depth);
      info.nodes = field_after<uint64_t>(*line, "nodes", info.nodes);
    } else if (line->rfind("bestmove", 0) == 0) {
      std::istringstream words(*line);
      std::string word, move, key, reply;
      words >> word >> move >> key >> reply;
      if (key == "ponder") info.ponder = reply;
      searching_ = false;
      return move.empty() ? "(none)" : move;
    }
  }
  return "";
}

void Engine::send(const std::string& line) {
  if (to_engine_ < 0) return;
  const std::string text = line + "\n";
  for (size_t at = 0; at < text.size();) {
    const ssize_t n = write(to_engine_, text.data() + at, text.size() - at);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return;  // the engine is gone; its next answer times out
    }
    at += size_t(n);
  }
}

std::optional<std::string> Engine::read_line(Clock::time_point deadline, Engine* also) {
  for (;;) {
    if (const size_t end = buffer_.find('\n'); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (from_engine_ < 0) return std::nullopt;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left < 0) return std::nullopt;
    const bool both = also && also != this && also->from_engine_ >= 0;
    pollfd p[2] = {{from_engine_, POLLIN, 0}, {both ? also->from_engine_ : -1, POLLIN, 0}};
    const int ready = poll(p, both ? 2 : 1, int(std::min<long long>(left, 1000000)) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the loop's deadline check ends it
    if (both && p[1].revents) also->read_available();
    if (p[0].revents) read_available();
  }
}

void Engine::read_available() {
  if (from_engine_ < 0) return;
  char chunk[4096];
  for (;;) {
    pollfd p{from_engine_, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) return;  // nothing more now (or EINTR: the caller's loop comes back)
    const ssize_t n = read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(from_engine_);
      from_engine_ = -1;
      return;
    }
    buffer_.append(chunk, size_t(n));
    if (size_t(n) < sizeof chunk) return;
  }
}

bool Engine::wait_for(const std::string& token, Clock::time_point deadline) {
  while (auto line = read_line(deadline))
    if (line->rfind(token, 0) == 0) return true;
  return false;
}

void Engine::stop_process() {
  if (pid_ <= 0) return;
  send("quit");
  if (to_engine_ >= 0) close(to_engine_);
  to_engine_ = -1;
  int status = 0;
  for (int i = 0; i < 100; ++i) {  // a second to leave on its own
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    usleep(10000);
  }
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  if (from_engine_ >= 0) close(from_engine_);
  from_engine_ = -1;
  buffer_.clear();
  pondering_ = searching_ = false;
}

namespace {

// xboard's `feature` line: name=value pairs, values bare or in double quotes.
std::vector<std::pair<std::string, std::string>> features_of(const std::string& line) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t at = line.find(' ');
  while (at != std::string::npos && at < line.size()) {
    while (at < line.size() && line[at] == ' ') ++at;
    const size_t eq = line.find('=', at);
    if (eq == std::string::npos) break;
    const std::string name = line.substr(at, eq - at);
    size_t end;
    std::string value;
    if (eq + 1 < line.size() && line[eq + 1] == '"') {
      end = line.find('"', eq + 2);
      value = line.substr(eq + 2, end == std::string::npos ? std::string::npos : end - eq - 2);
      if (end != std::string::npos) ++end;
    } else {
      end = line.find(' ', eq + 1);
      value = line.substr(eq + 1, end == std::string::npos ? std::string::npos : end - eq - 1);
    }
    out.emplace_back(name, value);
    at = end;
  }
  return out;
}

// An xboard thinking line, "DEPTH SCORE TIME NODES PV...", into `info`; false for other lines.
bool thinking_line(const std::string& line, SearchInfo& info) {
  std::istringstream words(line);
  long fields[4];
  for (long& f : fields) {
    std::string word;
    if (!(words >> word)) return false;
    char* end = nullptr;
    f = std::strtol(word.c_str(), &end, 10);
    if (end == word.c_str() || (*end && std::string_view(end) != "." && std::string_view(end) != "&"))
      return false;
  }
  info.depth = int(std::clamp(fields[0], 0L, 1000L));
  const long score = fields[1];
  // Mates as xboard engines write them (+-100000 + N and the like) are clamped to the largest
  // centipawn score, below the mate scale: adjudication reads them as won or lost.
  info.score = int(std::clamp(score, -31000L, 31000L));
  info.nodes = uint64_t(std::max(fields[3], 0L));
  return true;
}

// Seconds as xboard's level command writes a base ("M:SS") and an increment ("0.1").
std::string level_base(int64_t ms) {
  const int64_t seconds = (ms + 999) / 1000;
  const std::string ss = std::to_string(seconds % 60);
  return std::to_string(seconds / 60) + ":" + (ss.size() < 2 ? "0" : "") + ss;
}

std::string level_increment(int64_t ms) {
  std::string text = std::to_string(ms / 1000);
  if (ms % 1000) {
    std::string fraction = std::to_string(1000 + ms % 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    text += "." + fraction;
  }
  return text;
}

}  // namespace

std::optional<std::string> Engine::start_xboard() {
  send("xboard");
  send("protover 2");
  // Features come as `feature name=value ...`; done=1 ends them and done=0 asks for more time.
  // An engine that announces none within two seconds speaks protocol 1 and gets none of them.
  Clock::time_point deadline = Clock::now() + std::chrono::seconds(2);
  bool done = false;
  while (!done) {
    const auto line = read_line(deadline);
    if (!line) break;
    if (line->rfind("feature ", 0) != 0) continue;
    for (const auto& [name, value] : features_of(*line)) {
      const bool on = value == "1";
      if (name == "done") {
        done = on;
        if (!on) deadline = Clock::now() + kStartTimeout;
      } else if (name == "setboard") {
        setboard_ = on;
      } else if (name == "usermove") {
        usermove_ = on;
      } else if (name == "ping") {
        ping_ = on;
      }
      // Moves go out in coordinates: an engine asking for SAN is refused it.
      send((name == "san" && on ? "rejected " : "accepted ") + name);
    }
  }
  if (from_engine_ < 0) {
    stop_process();
    return core::quote(config_.cmd) + " exited during the xboard handshake";
  }
  for (const auto& [name, value] : config_.options) send("option " + name + "=" + value);
  return std::nullopt;
}

void Engine::edit_position(const std::string& fen, bool black_to_move) {
  // The protocol's way for engines without setboard: a move from the start position hands the
  // move to Black when Black is to move; edit mode then clears the board (#) and places White's
  // pieces, then (c) Black's, by square. Castling is assumed where king and rook stand at home;
  // an en passant square cannot be given.
  if (black_to_move) send(usermove_ ? "usermove a2a3" : "a2a3");
  send("edit");
  send("#");
  std::string pieces[2];  // "Pe2" commands, white's and black's
  int rank = 7, file = 0;
  for (const char c : fen.substr(0, fen.find(' '))) {
    if (c == '/') {
      --rank, file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
    } else if (file < 8 && rank >= 0) {
      const bool white = c >= 'A' && c <= 'Z';
      pieces[white ? 0 : 1] +=
          std::string(1, char(white ? c : c - 'a' + 'A')) + char('a' + file) + char('1' + rank) + '\n';
      ++file;
    }
  }
  for (int side = 0; side < 2; ++side) {
    if (side == 1) send("c");
    std::istringstream lines(pieces[side]);
    for (std::string line; std::getline(lines, line);) send(line);
  }
  send(".");
}

std::string Engine::think_xboard(const Turn& turn, Clock::time_point deadline, SearchInfo& info) {
  info = SearchInfo();
  // The side to move: the first position's, then alternating.
  const size_t space = turn.fen.find(' ');
  const bool white_first = space == std::string::npos || turn.fen.compare(space + 1, 1, "w") == 0;
  const int us = (white_first ? 0 : 1) ^ int(turn.moves.size() % 2);
  if (!game_set_up_) {
    if (turn.fen != core::Position::kStartFen) {
      if (setboard_)
        send("setboard " + turn.fen);
      else
        edit_position(turn.fen, !white_first);
    }
    if (turn.clock)
      send("level 0 " + level_base(turn.time_ms[us]) + " " + level_increment(turn.increment_ms[us]));
    if (turn.depth) send("sd " + std::to_string(turn.depth));
    game_set_up_ = true;
  }
  for (; moves_known_ < turn.moves.size(); ++moves_known_)
    send((usermove_ ? "usermove " : "") + turn.moves[moves_known_]);
  if (turn.clock) {
    send("time " + std::to_string(std::max<int64_t>(turn.time_ms[us], 0) / 10));
    send("otim " + std::to_string(std::max<int64_t>(turn.time_ms[us ^ 1], 0) / 10));
  }
  send("go");
  while (auto line = read_line(deadline)) {
    std::istringstream words(*line);
    std::string first, move;
    words >> first;
    if (first == "move" && words >> move) {
      send("force");  // no thinking of its own until its next turn
      ++moves_known_;
      return move;
    }
    if (first == "resign") {
      send("force");
      return "resign";
    }
    if (first == "Illegal") return "";  // it refused a move of the game: it cannot go on
    thinking_line(*line, info);
  }
  return "";
}

}  // namespace vblitz::match
