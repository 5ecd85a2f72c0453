#include "icx/util/text_file.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"

namespace icx::unit_text_file {
namespace {

namespace fs = std::filesystem;

/// A file of `bytes` 'x' characters in the test's temporary directory.
fs::path file_of_size(const std::string& name, std::size_t bytes) {
  fs::path path = fs::temp_directory_path() / ("icx_test_text_file_" + name);
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
  return path;
}

std::string error_of(const fs::path& path, const FileKind& kind) {
  try {
    (void)read_text_file(path, kind);
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(TextFile, ReadsAFileOfExactlyTheLimit) {
  const fs::path path = file_of_size("exact", 100);
  EXPECT_EQ(read_text_file(path, {"a test file", 100}), std::string(100, 'x'));
  fs::remove(path);
}

TEST(TextFile, ReadsAFileLargerThanOneChunk) {
  const std::size_t size = (std::size_t{1} << 17) + 3; // two 64 KiB chunks and a bit
  const fs::path path = file_of_size("chunks", size);
  EXPECT_EQ(read_text_file(path, {"a test file", size}).size(), size);
  fs::remove(path);
}

TEST(TextFile, RefusesOneByteOverTheLimit) {
  const fs::path path = file_of_size("over", 101);
  EXPECT_EQ(error_of(path, {"a test file", 100}),
            path.string() + ": file is larger than the 100 bytes limit for a test file");
  fs::remove(path);
}

TEST(TextFile, RefusesAnEndlessFileAfterTheLimit) {
  if (!fs::exists("/dev/zero")) {
    GTEST_SKIP() << "no /dev/zero";
  }
  EXPECT_EQ(error_of("/dev/zero", {"a test file", std::size_t{2} << 20}),
            "/dev/zero: file is larger than the 2 MiB limit for a test file");
}

TEST(TextFile, DropsAByteOrderMark) {
  EXPECT_EQ(checked_text("f.csv", "\xEF\xBB\xBFsize,time\n"), "size,time\n");
  // Only at the start: elsewhere it is text (U+FEFF, a zero-width no-break space).
  EXPECT_EQ(checked_text("f.csv", "a\xEF\xBB\xBF"), "a\xEF\xBB\xBF");
}

TEST(TextFile, RefusesTextThatIsNotUtf8WithItsLine) {
  // Latin-1 "café" on line 2, column 4.
  try {
    (void)checked_text("rows.csv", "wire,gpus\ncaf\xE9,8\n");
    FAIL() << "Latin-1 accepted";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "rows.csv: line 2, column 4: byte 0xE9 is not UTF-8; save the file as UTF-8");
  }
}

TEST(TextFile, DirectoryAndMissingFileSayWhy) {
  const fs::path dir = fs::temp_directory_path();
  EXPECT_EQ(error_of(dir, {"a test file", 10}),
            dir.string() + ": is a directory; expected a test file");
  EXPECT_EQ(error_of(dir / "icx_no_such_file", {"a test file", 10}),
            (dir / "icx_no_such_file").string() + ": cannot open: No such file or directory");
}

/// A fresh, empty directory for one test.
fs::path empty_directory(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("icx_test_write_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string write_error_of(const fs::path& path, const std::vector<fs::path>& inputs = {}) {
  try {
    write_text_file_atomically(path, "new", inputs);
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

std::string content_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TextFile, WriteReplacesTheTargetAndLeavesNothingElse) {
  const fs::path dir = empty_directory("replace");
  std::ofstream(dir / "out.json") << "old content, longer than the new";
  write_text_file_atomically(dir / "out.json", "new", {});
  EXPECT_EQ(content_of(dir / "out.json"), "new");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(TextFile, WriteRefusesAnInputUnderAnotherName) {
  const fs::path dir = empty_directory("input");
  std::ofstream(dir / "run.log") << "measured";
  const fs::path other_spelling = dir / "." / "run.log";
  EXPECT_EQ(write_error_of(other_spelling, {dir / "run.log"}),
            other_spelling.string() + ": is also an input (" + (dir / "run.log").string() +
                "); writing it would destroy what was read; choose another file name");
  EXPECT_EQ(content_of(dir / "run.log"), "measured");
  fs::remove_all(dir);
}

TEST(TextFile, WriteErrorsSayWhy) {
  const fs::path dir = empty_directory("errors");
  EXPECT_EQ(write_error_of(""), "empty file name; give the path of the file to write");
  EXPECT_EQ(write_error_of(dir), dir.string() + ": is a directory; give a file name");
  EXPECT_EQ(write_error_of(dir / "missing" / "out.json"),
            (dir / "missing" / "out.json").string() + ": cannot create a file in '" +
                (dir / "missing").string() + "': No such file or directory");
  // An input that does not exist yet is not the target.
  EXPECT_EQ(write_error_of(dir / "out.json", {dir / "not-yet.json"}), "(no error)");
  fs::remove_all(dir);
}

TEST(TextFile, WriteGoesThroughASymbolicLink) {
  const fs::path dir = empty_directory("symlink");
  std::ofstream(dir / "real.json") << "old";
  fs::create_symlink(dir / "real.json", dir / "link.json");
  write_text_file_atomically(dir / "link.json", "new", {});
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(content_of(dir / "real.json"), "new");
  fs::remove_all(dir);
}

TEST(TextFile, WriteRefusesDevicesRatherThanReplacingThem) {
  if (!fs::exists("/dev/null")) {
    GTEST_SKIP() << "no /dev/null";
  }
  EXPECT_EQ(write_error_of("/dev/null"), "/dev/null: is not a regular file; give a file name");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(TextFile, DescribesLimitsInMebibytesWhenWhole) {
  EXPECT_EQ(describe_byte_limit(std::size_t{4} << 20), "4 MiB");
  EXPECT_EQ(describe_byte_limit(1000), "1000 bytes");
}

TEST(TextFile, ForEachLineStripsLineEndings) {
  std::vector<std::string> lines;
  for_each_line("a\r\nb\n\nc", [&](std::string_view line, std::size_t number) {
    lines.push_back(std::to_string(number) + ":" + std::string(line));
  });
  EXPECT_EQ(lines, (std::vector<std::string>{"1:a", "2:b", "3:", "4:c"}));
}

} // namespace
} // namespace icx::unit_text_file
