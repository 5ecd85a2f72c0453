// The files a command reads and the files it writes, as its options name them: no file icx
// writes may be a file it reads.
#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace icx::cli {

/// Marks an option whose values are files the command reads ("-" is standard input).
CLI::Validator input_file(std::string_view flag);

/// Marks an option whose value is a file the command writes.
CLI::Validator output_file(std::string_view flag);

/// Forgets the files of an earlier parse (one parse per run).
void clear_file_arguments();

/// Throws InputError "<out flag> <path>: is also an input (<in flag> <path>); …" when a file
/// to write is, as a file (same inode, through any symbolic link), one of the files to read.
void check_outputs_spare_inputs();

} // namespace icx::cli
