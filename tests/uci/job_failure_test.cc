// A search or count that throws on the engine's search thread (out of memory, a thread the
// system refuses) is reported and still answered: `go` with a legal bestmove, perft with an
// error; the engine goes on. Allocation failures are injected by replacing operator new in this
// test program: once armed, the next allocation made off the test's own thread throws (one
// large request refused, as when memory runs out).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <sstream>
#include <thread>

#include "core/game.h"
#include "tests/uci/session.h"

namespace {
std::atomic<bool> armed{false};
std::thread::id test_thread;
}  // namespace

void* operator new(std::size_t size) {
  if (armed.load(std::memory_order_relaxed) && std::this_thread::get_id() != test_thread &&
      armed.exchange(false))
    throw std::bad_alloc();
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
// The replaced new uses malloc, so delete uses free (GCC cannot see that the two are paired).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace vblitz::test {
namespace {

// Arms the injection for the lifetime of the object.
struct FailingAllocations {
  FailingAllocations() {
    test_thread = std::this_thread::get_id();
    armed = true;
  }
  ~FailingAllocations() { armed = false; }
};

TEST(JobFailure, SearchThatRunsOutOfMemoryStillAnswersWithALegalMove) {
  std::ostringstream out;
  {
    uci::Engine engine(out);
    engine.handle("position startpos moves e2e4");
    {
      FailingAllocations failing;
      engine.handle("go depth 6");
      engine.wait_for_search();
    }
    engine.handle("position startpos moves e2e4 e7e5");
    {
      FailingAllocations failing;
      engine.handle("go depth 4 searchmoves b1c3 g1f3");
      engine.wait_for_search();
    }
    engine.handle("go depth 3");  // the engine goes on
    engine.wait_for_search();
  }
  const std::string text = out.str();
  EXPECT_TRUE(contains(text, "info string error: the search failed (not enough memory)")) << text;
  core::Game game;
  game.play({"e2e4"});
  const size_t first = text.find("bestmove ");
  ASSERT_NE(first, std::string::npos) << text;
  const std::string move = text.substr(first + 9, text.find_first_of(" \n", first + 9) - first - 9);
  EXPECT_NE(game.position().parse_uci(move), core::Move::none()) << move;
  EXPECT_TRUE(contains(text, "bestmove b1c3\n")) << text;  // the first of searchmoves
  size_t answers = 0;
  for (size_t at = 0; (at = text.find("bestmove ", at)) != std::string::npos; ++at) ++answers;
  EXPECT_EQ(answers, 3u) << text;
}

TEST(JobFailure, PerftThatRunsOutOfMemoryIsReported) {
  std::ostringstream out;
  {
    uci::Engine engine(out);
    {
      FailingAllocations failing;
      engine.handle("go perft 4");
      engine.wait_for_search();
    }
    engine.handle("go perft 2");
    engine.wait_for_search();
  }
  const std::string text = out.str();
  EXPECT_TRUE(contains(text, "info string error: not enough memory; the count was abandoned")) << text;
  EXPECT_TRUE(contains(text, "Nodes searched: 400")) << text;
}

}  // namespace
}  // namespace vblitz::test
