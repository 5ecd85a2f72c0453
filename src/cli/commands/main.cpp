#include "commands/app.hpp"

int main(int argc, char** argv) {
  return icx::cli::run(argc, argv);
}
