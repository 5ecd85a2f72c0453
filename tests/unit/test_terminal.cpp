#include "output/terminal.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace icx::cli::unit_terminal {
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

} // namespace
} // namespace icx::cli::unit_terminal
