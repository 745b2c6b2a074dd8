// Text helpers: case folding and whole-number flags.
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

}  // namespace
}  // namespace vblitz::core
