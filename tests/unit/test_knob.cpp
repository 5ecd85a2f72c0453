#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "commands/app.hpp"
#include "icx/base/knob.hpp"
#include "options/flags.hpp"

namespace icx::unit_knob {
namespace {

/// Every test sees the core's sentences as the CLI prints them: with its flags.
class CliSpellings : public testing::Environment {
public:
  void SetUp() override { use_knob_spellings(cli::flag_spellings()); }
};
const testing::Environment* const cli_spellings =
    testing::AddGlobalTestEnvironment(new CliSpellings); // NOLINT(cppcoreguidelines-owning-memory)

TEST(Knob, ASentenceWritesTheSpellingHandedOver) {
  EXPECT_EQ(fmt::format("raise {}", Knob::max_nodes), "raise --max-nodes");
  EXPECT_EQ(fmt::format("({})", Knob::output_file), "(-o)");
}

TEST(Knob, WithoutASpellingAKnobIsWrittenByItsName) {
  use_knob_spellings({});
  EXPECT_EQ(fmt::format("raise {}", Knob::max_nodes), "raise max-nodes");
  use_knob_spellings(cli::flag_spellings());
}

TEST(Knob, EveryKnobHasAFlagAndEveryFlagIsAnOption) {
  CLI::App app;
  const std::vector<cli::Command> commands = cli::add_commands(app);
  for (const EnumName<Knob>& entry : enum_names(Knob{})) {
    const std::string flag(spelled(entry.value));
    ASSERT_TRUE(flag.starts_with("-")) << to_string(entry.value) << " has no flag";
    bool defined = false;
    for (const cli::Command& command : commands) {
      for (const CLI::Option* option : command.app->get_options()) {
        defined = defined || option->check_name(flag);
      }
    }
    EXPECT_TRUE(defined) << flag << " is no option of any subcommand";
  }
}

} // namespace
} // namespace icx::unit_knob
