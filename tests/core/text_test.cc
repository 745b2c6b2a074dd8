// Text helpers: case folding, whole-number flags and quoting what a message refuses.
#include "core/text.h"

#include <gtest/gtest.h>

namespace vblitz::core {
namespace {

TEST(Text, ParseLongTakesWholeNumbersInsideTheRangeOnly) {
  EXPECT_EQ(parse_long("42", 1, 100), 42);
  EXPECT_EQ(parse_long("-3", -5, 5), -3);
  EXPECT_EQ(parse_long("100", 1, 100), 100);
  for (const char* bad : {"", "101", "0", "4x", "x4", "4.0", "99999999999999999999999"})
    EXPECT_FALSE(parse_long(bad, 1, 100)) << bad;
  EXPECT_EQ(to_lower("NoDeS"), "nodes");
}

TEST(Text, QuoteShowsAtMostEightyPrintableCharacters) {
  EXPECT_EQ(quote("e2e4"), "'e2e4'");
  EXPECT_EQ(quote(std::string("a\0b\n\xff", 5)), "'a\\x00b\\x0a\\xff'");
  // Built by appending: GCC 12's -Wrestrict misreads `"'" + std::string` (a known false positive).
  const auto quoted = [](std::string inside, const char* after) {
    return inside.insert(0, 1, '\'').append(after);
  };
  const std::string eighty(80, 'x');
  EXPECT_EQ(quote(eighty), quoted(eighty, "'"));
  EXPECT_EQ(quote(eighty + "y"), quoted(eighty, "...' (81 bytes)"));
  EXPECT_EQ(quote(std::string(1 << 20, 'e')), quoted(std::string(80, 'e'), "...' (1048576 bytes)"));
  // An escape is never split: 79 letters and a NUL show the letters only.
  EXPECT_EQ(quote(std::string(79, 'a') + std::string(1, '\0')),
            quoted(std::string(79, 'a'), "...' (80 bytes)"));
  EXPECT_EQ(quote(""), "''");
}

}  // namespace
}  // namespace vblitz::core
