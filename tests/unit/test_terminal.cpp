#include "terminal.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace icx::cli {
namespace {

/// An environment holding exactly `variables`.
Environment env_of(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

TEST(Terminal, LocaleIsUtf8WhenTheFirstSetVariableSaysSo) {
  EXPECT_TRUE(locale_is_utf8(env_of({{"LANG", "en_US.UTF-8"}})));
  EXPECT_TRUE(locale_is_utf8(env_of({{"LC_CTYPE", "C.utf8"}, {"LANG", "C"}})));
  EXPECT_FALSE(locale_is_utf8(env_of({{"LC_ALL", "C"}, {"LANG", "en_US.UTF-8"}})));
  EXPECT_FALSE(locale_is_utf8(env_of({{"LANG", "C"}})));
  EXPECT_FALSE(locale_is_utf8(env_of({{"LANG", "POSIX"}})));
  EXPECT_FALSE(locale_is_utf8(env_of({})));
  // An empty variable counts as unset.
  EXPECT_TRUE(locale_is_utf8(env_of({{"LC_ALL", ""}, {"LANG", "de_DE.UTF-8"}})));
}

TEST(Terminal, ColourAutoNeedsATerminalThatIsNotDumbAndNoNoColor) {
  const Environment plain = env_of({{"TERM", "xterm-256color"}});
  EXPECT_TRUE(use_color(ColorWhen::automatic, true, plain));
  EXPECT_TRUE(use_color(ColorWhen::automatic, true, env_of({})));
  EXPECT_FALSE(use_color(ColorWhen::automatic, false, plain));
  EXPECT_FALSE(use_color(ColorWhen::automatic, true, env_of({{"TERM", "dumb"}})));
  EXPECT_FALSE(
      use_color(ColorWhen::automatic, true, env_of({{"TERM", "xterm"}, {"NO_COLOR", "1"}})));
  EXPECT_TRUE(use_color(ColorWhen::automatic, true, env_of({{"TERM", "xterm"}, {"NO_COLOR", ""}})));
  EXPECT_TRUE(use_color(ColorWhen::always, false, env_of({{"TERM", "dumb"}, {"NO_COLOR", "1"}})));
  EXPECT_FALSE(use_color(ColorWhen::never, true, plain));
}

TEST(Terminal, WidthIsTheTerminalsElseAValidColumns) {
  EXPECT_EQ(output_width(120, env_of({{"COLUMNS", "80"}})), 120U);
  EXPECT_EQ(output_width(std::nullopt, env_of({{"COLUMNS", "80"}})), 80U);
  // A terminal reporting 0 columns (a serial console) falls back to COLUMNS.
  EXPECT_EQ(output_width(0, env_of({{"COLUMNS", "100"}})), 100U);
  EXPECT_EQ(output_width(std::nullopt, env_of({})), std::nullopt);
  for (const char* bad : {"", "0", "-80", "80x", " 80", "1e3", "10000", "99999999999999999999"}) {
    EXPECT_EQ(output_width(std::nullopt, env_of({{"COLUMNS", bad}})), std::nullopt) << bad;
  }
  EXPECT_EQ(output_width(std::nullopt, env_of({{"COLUMNS", "9999"}})), 9999U);
}

TEST(Terminal, AsciiReplacesEveryNonAsciiCharacter) {
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

TEST(Terminal, WrapsProseAtSpacesAndLeavesTablesWhole) {
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
} // namespace icx::cli
