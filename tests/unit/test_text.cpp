#include "icx/util/text.hpp"

#include <gtest/gtest.h>

namespace icx::unit_text {
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

TEST(Text, WrapsProseAtSpacesAndAlignedColumnsUnderTheLast) {
  EXPECT_EQ(wrap_prose("one two three four\n", 9), "one two\nthree\nfour\n");
  // Continuation lines keep the indentation.
  EXPECT_EQ(wrap_prose("  aaa bbb ccc\n", 9), "  aaa bbb\n  ccc\n");
  // Two spaces in a row after the indentation: aligned columns, of which only the last
  // wraps, under itself, and only when it keeps 24 columns.
  EXPECT_EQ(wrap_prose("wire   time  verdict\n", 9), "wire   time  verdict\n");
  EXPECT_EQ(wrap_prose("key  one two three four five six seven\n", 29),
            "key  one two three four five\n     six seven\n");
  EXPECT_EQ(wrap_prose("  --flag N  what it does to the result\n", 36),
            "  --flag N  what it does to the\n            result\n");
  EXPECT_EQ(wrap_prose("a long key  one two three four five six seven\n", 30),
            "a long key  one two three four five six seven\n");
  // A word longer than the width stays whole on its own line.
  EXPECT_EQ(wrap_prose("a abcdefghijk b\n", 5), "a\nabcdefghijk\nb\n");
  // Width counts characters, not bytes: "× × ×" is 5 columns.
  EXPECT_EQ(wrap_prose("× × ×\n", 5), "× × ×\n");
  EXPECT_EQ(wrap_prose("short\nno newline at the end", 10), "short\nno newline\nat the end");
  // A number keeps its unit on its line: "2 B" moves down whole; a word that is not a unit,
  // or a unit after a word that is not a number, parts as any other.
  EXPECT_EQ(wrap_prose("activations (2 B per element)\n", 15), "activations\n(2 B per\nelement)\n");
  EXPECT_EQ(wrap_prose("in 45 ms, 31 % of it\n", 8), "in\n45 ms,\n31 % of\nit\n");
  EXPECT_EQ(wrap_prose("aaa 2 bees\n", 5), "aaa 2\nbees\n");
  EXPECT_EQ(wrap_prose("x B y\n", 3), "x B\ny\n");
}

TEST(Text, QuotesAShellWordOnlyWhenTheShellWouldSplitOrExpandIt) {
  EXPECT_EQ(shell_quoted("--model"), "--model");
  EXPECT_EQ(shell_quoted("/tmp/review.html"), "/tmp/review.html");
  EXPECT_EQ(shell_quoted("tokens=1k:32k:x2"), "tokens=1k:32k:x2");
  EXPECT_EQ(shell_quoted("my review.html"), "'my review.html'");
  EXPECT_EQ(shell_quoted("a$b*"), "'a$b*'");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quoted(""), "''");
  EXPECT_EQ(shell_quoted("8 × h100"), "'8 × h100'");
}

TEST(Text, CountsNounsInTheSingularOnlyForOne) {
  EXPECT_EQ(counted(1, "sequence"), "1 sequence");
  EXPECT_EQ(counted(0, "sequence"), "0 sequences");
  EXPECT_EQ(counted(32, "sequence"), "32 sequences");
}

TEST(Text, FindsTheFirstByteThatIsNotUtf8) {
  EXPECT_EQ(first_invalid_utf8("plain"), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("× µ – ≤ 😀"), std::nullopt);
  // Latin-1 "café": 0xE9 followed by nothing that continues it.
  EXPECT_EQ(first_invalid_utf8("caf\xE9"), 3U);
  EXPECT_EQ(first_invalid_utf8("a\x80"), 1U);            // a continuation byte alone
  EXPECT_EQ(first_invalid_utf8("\xC0\xAF"), 0U);         // an overlong '/'
  EXPECT_EQ(first_invalid_utf8("\xED\xA0\x80"), 0U);     // a UTF-16 surrogate, U+D800
  EXPECT_EQ(first_invalid_utf8("\xF4\x90\x80\x80"), 0U); // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("ok\xE2\x82"), 2U);       // cut inside a sequence
}

TEST(Text, FindsCharactersATerminalWouldNotShow) {
  EXPECT_EQ(first_hidden_character("H100 × 8"), std::nullopt);
  EXPECT_EQ(first_hidden_character("a\tb"), 1U);
  EXPECT_EQ(first_hidden_character("a\x1B[31m"), 1U);  // an escape sequence
  EXPECT_EQ(first_hidden_character("ab\u202Ecd"), 2U); // right-to-left override
  EXPECT_EQ(first_hidden_character("x\u2066"), 1U);    // left-to-right isolate
  EXPECT_EQ(first_hidden_character("\xC2\x85"), 0U);   // C1 next line
}

} // namespace
} // namespace icx::unit_text
