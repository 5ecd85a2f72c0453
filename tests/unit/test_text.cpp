#include "icx/util/text.hpp"

#include <gtest/gtest.h>

namespace icx {
namespace {

TEST(Text, DisplayWidthCountsCodePoints) {
  EXPECT_EQ(display_width("abc"), 3U);
  EXPECT_EQ(display_width("µs"), 2U);
  EXPECT_EQ(display_width("–"), 1U);
}

TEST(Text, AsciiReplacesEveryNonAsciiCharacter) {
  EXPECT_EQ(to_ascii("8 × h100"), "8 x h100");
  EXPECT_EQ(to_ascii("23.9 µs"), "23.9 us");
  EXPECT_EQ(to_ascii("25–50 GB/s"), "25-50 GB/s");
  EXPECT_EQ(to_ascii("ok ≤ 1×"), "ok <= 1x");
  EXPECT_EQ(to_ascii("storage → host"), "storage -> host");
  EXPECT_EQ(to_ascii("±10 %, 1 − x, a ÷ b, …"), "+/-10 %, 1 - x, a / b, ...");
  EXPECT_EQ(to_ascii("████▌"), "#####");
  // Characters without a stand-in become one '?' each, whatever their length in bytes.
  EXPECT_EQ(to_ascii("é漢😀"), "???");
  // A stray continuation byte or a cut sequence is one unknown character too.
  EXPECT_EQ(to_ascii("a\x80z"), "a?z");
  EXPECT_EQ(to_ascii("a\xC3"), "a?");
  EXPECT_EQ(to_ascii("plain\n"), "plain\n");
}

TEST(Text, WrapsProseAtSpacesAndLeavesTablesWhole) {
  EXPECT_EQ(wrap_prose("one two three four\n", 9), "one two\nthree\nfour\n");
  // Continuation lines keep the indentation.
  EXPECT_EQ(wrap_prose("  aaa bbb ccc\n", 9), "  aaa bbb\n  ccc\n");
  // Two spaces in a row after the indentation: a table row, never wrapped.
  EXPECT_EQ(wrap_prose("wire   time  verdict\n", 9), "wire   time  verdict\n");
  // A word longer than the width stays whole on its own line.
  EXPECT_EQ(wrap_prose("a abcdefghijk b\n", 5), "a\nabcdefghijk\nb\n");
  // Width counts characters, not bytes: "× × ×" is 5 columns.
  EXPECT_EQ(wrap_prose("× × ×\n", 5), "× × ×\n");
  EXPECT_EQ(wrap_prose("short\nno newline at the end", 10), "short\nno newline\nat the end");
}

} // namespace
} // namespace icx
