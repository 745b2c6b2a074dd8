// A third-party client: Debian's polyglot adapter presents the engine as an xboard engine and
// a short game is played through it, every engine move checked against the legal moves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "core/game.h"
#include "core/movegen.h"
#include "tests/uci/child_process.h"

namespace vblitz::test {
namespace {

using std::chrono::milliseconds;

constexpr const char* kPolyglot = "/usr/games/polyglot";

TEST(Polyglot, PlaysAShortGameWithLegalMoves) {
  // .ci/install-deps.sh installs polyglot, so under CI its absence is a failure; elsewhere the
  // test is skipped with the reason.
  if (access(kPolyglot, X_OK) != 0) {
    if (std::getenv("CI")) FAIL() << "polyglot is missing although .ci/install-deps.sh installs it";
    GTEST_SKIP() << "polyglot is not installed (apt-get install polyglot)";
  }
  ChildProcess adapter({kPolyglot, "-noini", "-ec", VBLITZ_BINARY});
  adapter.send("xboard");
  adapter.send("protover 2");
  bool found = false;
  std::string out = adapter.read_until("feature done=1", milliseconds(10000), &found);
  ASSERT_TRUE(found) << out;
  EXPECT_NE(out.find("myname=\"VBlitz"), std::string::npos);
  adapter.send("new");
  adapter.send("sd 4");
  adapter.send("go");  // the engine plays White

  core::Game game;
  for (int move = 0; move < 12; ++move) {
    out = adapter.read_until("move ", milliseconds(20000), &found);
    ASSERT_TRUE(found) << "no move from the engine after " << move << " moves:\n" << out;
    std::string text = out.substr(out.rfind("move ") + 5);
    text = text.substr(0, text.find_first_of(" \r\n"));
    ASSERT_FALSE(game.play({text})) << "illegal engine move '" << text << "' in " << game.position().fen();
    core::MoveList<core::LEGAL> replies(game.position());
    if (replies.size() == 0) break;
    // Our reply: the legal move in the middle of the list (deterministic, not always the same piece).
    core::Move reply = *(replies.begin() + replies.size() / 2);
    std::string reply_text = game.position().to_uci(reply);
    ASSERT_FALSE(game.play({reply_text}));
    adapter.send("usermove " + reply_text);
  }
  adapter.send("quit");
  EXPECT_EQ(adapter.wait(milliseconds(5000)), 0);
}

}  // namespace
}  // namespace vblitz::test
