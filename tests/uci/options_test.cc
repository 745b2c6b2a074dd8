// The option table (uci/options.h): the `uci` listing, `setoption` and docs/uci.md's table all
// come from one declaration per option.
#include "uci/options.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/text.h"
#include "tests/uci/session.h"

namespace vblitz::test {
namespace {

constexpr const char* kTableStart = "<!-- option table: made by `vblitz options --markdown` -->\n";
constexpr const char* kTableEnd = "<!-- end of option table -->";

std::string read_docs(const std::string& name) {
  std::ifstream in(std::string(VBLITZ_DOCS_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// docs/uci.md holds exactly the table the declarations make: an option added, renamed or
// changed without its documentation fails here.
TEST(OptionTable, DocsTableIsTheDeclaredTable) {
  std::ostringstream silent;
  uci::Engine engine(silent);
  const std::string docs = read_docs("uci.md");
  const size_t start = docs.find(kTableStart), end = docs.find(kTableEnd);
  ASSERT_NE(start, std::string::npos) << "docs/uci.md lacks the line " << kTableStart;
  ASSERT_NE(end, std::string::npos) << "docs/uci.md lacks the line " << kTableEnd;
  const std::string documented =
      docs.substr(start + std::string(kTableStart).size(), end - start - std::string(kTableStart).size());
  EXPECT_EQ(documented, uci::options_markdown(engine.options()))
      << "docs/uci.md's option table differs from the declarations; paste `vblitz options --markdown`";
}

TEST(OptionTable, EachOptionDeclaredOnceWithHelp) {
  std::ostringstream silent;
  uci::Engine engine(silent);
  std::set<std::string> names;
  for (const uci::Option& o : engine.options()) {
    EXPECT_TRUE(names.insert(core::to_lower(o.name)).second) << o.name << " is declared twice";
    EXPECT_FALSE(o.help.empty()) << o.name;
    EXPECT_TRUE(o.set) << o.name;
    uci::OptionValue value;
    if (o.type != uci::OptionType::kString && o.type != uci::OptionType::kButton) {
      EXPECT_EQ(o.parse(o.default_value, value), std::nullopt)
          << o.name << "'s default does not fit its type";
    }
  }
  EXPECT_GT(names.size(), 25u);
}

// `uci` lists every declaration once, in order (the cluster's options only in a cluster run).
TEST(OptionTable, UciListsEveryDeclaration) {
  std::ostringstream silent;
  uci::Engine engine(silent);
  std::string expected;
  for (const uci::Option& o : engine.options())
    if (!o.cluster_only) expected += o.declaration() + "\n";
  std::string listed;
  std::istringstream out(waiting_session({"uci"}));
  for (std::string line; std::getline(out, line);)
    if (line.rfind("option name ", 0) == 0) listed += line + "\n";
  EXPECT_EQ(listed, expected);
  EXPECT_TRUE(contains(listed, "option name Hash type spin default 16 min 1 max 65536\n"));
  EXPECT_TRUE(contains(listed, "option name Clear Hash type button\n"));
  EXPECT_TRUE(contains(listed, "option name TTLayout type combo default bucket var bucket var cray\n"));
  EXPECT_FALSE(contains(listed, "ClusterShareDepth"));
}

// Every declared option is accepted by setoption with its default (names in any case), and a
// value outside its type is refused with the declaration's words.
TEST(OptionTable, SetoptionFollowsTheDeclarations) {
  std::ostringstream silent;
  uci::Engine probe(silent);
  std::vector<std::string> lines;
  for (const uci::Option& o : probe.options()) {
    if (o.cluster_only || o.name == "EvalFile") continue;  // EvalFile needs a file
    lines.push_back("setoption name " + core::to_lower(o.name) +
                    (o.type == uci::OptionType::kButton ? "" : " value " + o.default_value));
  }
  const std::string out = waiting_session(lines);
  EXPECT_FALSE(contains(out, "error")) << out;
  const std::string bad = waiting_session(
      {"setoption name Hash value 0", "setoption name Ponder value yes", "setoption name TTLayout value flat",
       "setoption name Nonsense value 1", "setoption name ClusterShareDepth value 4"});
  EXPECT_TRUE(contains(bad, "error: Hash takes a size in MB from 1 to 65536, not '0'")) << bad;
  EXPECT_TRUE(contains(bad, "error: Ponder takes true or false, not 'yes'")) << bad;
  EXPECT_TRUE(contains(bad, "error: TTLayout takes bucket or cray, not 'flat'")) << bad;
  EXPECT_TRUE(contains(bad, "error: unknown option 'Nonsense'")) << bad;
  EXPECT_TRUE(contains(bad, "error: unknown option 'ClusterShareDepth'")) << bad;  // one process
}

}  // namespace
}  // namespace vblitz::test
