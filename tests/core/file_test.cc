// core::read_file: whole regular files within a size bound, and clear reasons otherwise.
#include "core/file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/test_support.h"

namespace vblitz::test {
namespace {

std::string temp_file(const std::string& name, const std::string& contents) {
  const std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST(ReadFile, ReadsAWholeFileUpToItsBound) {
  const std::string bytes("binary\0data\n", 12);
  const std::string path = temp_file("vblitz_read_file.bin", bytes);
  std::string contents = "old";
  EXPECT_EQ(core::read_file(path, 12, contents), std::nullopt);
  EXPECT_EQ(contents, bytes);
  const std::string empty = temp_file("vblitz_read_file_empty.bin", "");
  EXPECT_EQ(core::read_file(empty, 0, contents), std::nullopt);
  EXPECT_EQ(contents, "");
}

TEST(ReadFile, RefusesMissingTooLargeAndNonRegularFilesLeavingContents) {
  const std::string path = temp_file("vblitz_read_file_big.bin", std::string(100, 'x'));
  const std::pair<std::string, std::string> cases[] = {
      {"/nonexistent/file", "cannot read '/nonexistent/file'"},
      {path, "is too large: 100 bytes, at most 99"},
      {temp_dir(), "is not a regular file"},
      {"/dev/zero", "'/dev/zero' is not a regular file"},  // reading it would never end
  };
  for (const auto& [file, reason] : cases) {
    std::string contents = "kept";
    const auto error = core::read_file(file, 99, contents);
    ASSERT_TRUE(error) << file;
    EXPECT_NE(error->find(reason), std::string::npos) << *error;
    EXPECT_EQ(contents, "kept");
  }
}

}  // namespace
}  // namespace vblitz::test
