// UCI engines as child processes.
#include "match/uci_engine.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

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

UciEngine::~UciEngine() { stop_process(); }

std::optional<std::string> UciEngine::start() {
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
  send("uci");
  if (!wait_for("uciok", Clock::now() + kStartTimeout)) {
    stop_process();
    return core::quote(config_.cmd) + " did not answer uci with uciok";
  }
  for (const auto& [name, value] : config_.options) send("setoption name " + name + " value " + value);
  send("isready");
  if (!wait_for("readyok", Clock::now() + kStartTimeout)) {
    stop_process();
    return core::quote(config_.cmd) + " did not answer isready";
  }
  return std::nullopt;
}

bool UciEngine::new_game(std::chrono::milliseconds timeout) {
  send("ucinewgame");
  send("isready");
  return wait_for("readyok", Clock::now() + timeout);
}

std::string UciEngine::go(const std::string& position, const std::string& go_command,
                          Clock::time_point deadline, SearchInfo& info) {
  info = SearchInfo();
  send(position);
  send(go_command);
  while (auto line = read_line(deadline)) {
    if (line->rfind("info", 0) == 0) {
      if (line->find(" lowerbound") != std::string::npos || line->find(" upperbound") != std::string::npos)
        continue;
      if (auto s = score_of(*line)) info.score = s;
      info.depth = field_after(*line, "depth", info.depth);
      info.nodes = field_after<uint64_t>(*line, "nodes", info.nodes);
    } else if (line->rfind("bestmove", 0) == 0) {
      std::istringstream words(*line);
      std::string word, move;
      words >> word >> move;
      return move.empty() ? "(none)" : move;
    }
  }
  return "";
}

void UciEngine::send(const std::string& line) {
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

std::optional<std::string> UciEngine::read_line(Clock::time_point deadline) {
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
    pollfd p{from_engine_, POLLIN, 0};
    const int ready = poll(&p, 1, int(std::min<long long>(left, 1000000)) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the loop's deadline check ends it
    char chunk[4096];
    const ssize_t n = read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(from_engine_);
      from_engine_ = -1;
      continue;
    }
    buffer_.append(chunk, size_t(n));
  }
}

bool UciEngine::wait_for(const std::string& token, Clock::time_point deadline) {
  while (auto line = read_line(deadline))
    if (line->rfind(token, 0) == 0) return true;
  return false;
}

void UciEngine::stop_process() {
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
}

}  // namespace vblitz::match
