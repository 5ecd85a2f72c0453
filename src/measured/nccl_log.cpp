#include "icx/measured/nccl_log.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/util/number_text.hpp"
#include "icx/util/text_file.hpp"

namespace icx {

namespace {

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) {
      ++at;
    }
    const std::size_t start = at;
    while (at < text.size() && text[at] != ' ' && text[at] != '\t') {
      ++at;
    }
    if (at > start) {
      words.push_back(text.substr(start, at - start));
    }
  }
  return words;
}

/// Where the fields of a row sit, from the column header.
struct Columns {
  std::size_t header_line = 0;
  std::size_t count = 0;
  std::size_t size = 0;
  /// Index of "time" in each group (one or two groups).
  std::vector<std::size_t> groups;
  /// Index of each group's "#wrong" count (results that failed nccl-tests' check).
  std::vector<std::size_t> wrong;
  /// Seconds per printed time unit.
  double time_unit = micro;
};

std::optional<Columns> read_header(const std::vector<std::string_view>& words, std::size_t line) {
  if (words.empty() || words.front() != "size" ||
      std::ranges::find(words, "count") == words.end()) {
    return std::nullopt;
  }
  Columns columns;
  columns.header_line = line;
  columns.count = words.size();
  for (std::size_t i = 0; i + 2 < words.size(); ++i) {
    if (words[i] == "time" && words[i + 1] == "algbw" && words[i + 2] == "busbw") {
      columns.groups.push_back(i);
      if (i + 3 < words.size() && words[i + 3] == "#wrong") {
        columns.wrong.push_back(i + 3);
      }
    }
  }
  if (columns.groups.empty()) {
    return std::nullopt;
  }
  return columns;
}

class Reader {
public:
  explicit Reader(const std::string& origin) : origin_(origin) {}

  [[noreturn]] void fail(std::size_t line, const std::string& what) const {
    throw InputError(fmt::format("{}:{}: {}", origin_, line, what));
  }

  void comment(std::string_view body, std::size_t line) {
    const std::vector<std::string_view> words = split_words(body);
    if (words.empty()) {
      return;
    }
    if (auto header = read_header(words, line)) {
      if (finished_ || !log_.rows.empty()) {
        fail(line, "a second result table; give one nccl-tests run per file");
      }
      columns_ = *header;
      return;
    }
    if (words.size() >= 2 && words[0] == "Rank") {
      rank(words, line);
      return;
    }
    if (const auto gpus = std::ranges::find(words, "nGpus"); gpus != words.end()) {
      threads_per_process(words, gpus, line);
      return;
    }
    if (columns_ && std::ranges::find(words, "(ms)") != words.end()) {
      columns_->time_unit = milli;
      return;
    }
    constexpr std::string_view test_marker = "Collective test starting:";
    if (const auto at = body.find(test_marker); at != std::string_view::npos) {
      const auto name = split_words(body.substr(at + test_marker.size()));
      log_.test = name.empty() ? "" : std::string(name.front());
      return;
    }
    if (words.size() >= 3 && words[0] == "Avg" && words[1] == "bus" && words[2] == "bandwidth") {
      trailer(words, line);
    }
  }

  /// "#  Rank  3 Group  0 Pid 6902 on host-a device  3 ..." under "# Using devices": the
  /// ranks seen so far grow to 4, and rank 3 ran on host-a.
  void rank(const std::vector<std::string_view>& words, std::size_t line) {
    const std::string_view word = words[1];
    const auto rank = parse_decimal(word);
    if (!rank) {
      return;
    }
    if (*rank < 0 || *rank >= limits::max_domain || std::trunc(*rank) != *rank) {
      fail(line, fmt::format("rank '{}' is not a whole number from 0 to {}", word,
                             limits::max_domain - 1));
    }
    log_.ranks = std::max(log_.ranks.value_or(0), static_cast<int>(*rank) + 1);
    if (const auto on = std::ranges::find(words, "on");
        on != words.end() && on + 1 != words.end()) {
      log_.rank_hosts[static_cast<int>(*rank)] = std::string(*(on + 1));
    }
  }

  /// "# nThread 1 nGpus 8 minBytes …": each process runs nThread × nGpus ranks.
  void threads_per_process(const std::vector<std::string_view>& words,
                           std::vector<std::string_view>::const_iterator gpus, std::size_t line) {
    const auto value_after = [&](std::vector<std::string_view>::const_iterator at) {
      return at != words.end() && at + 1 != words.end() ? parse_decimal(*(at + 1))
                                                        : std::optional<double>();
    };
    const std::optional<double> per_thread = value_after(gpus);
    const std::optional<double> threads = value_after(std::ranges::find(words, "nThread"));
    if (per_thread && *per_thread >= 1 && *per_thread <= limits::max_domain) {
      ranks_per_process_ =
          static_cast<int>(*per_thread) *
          (threads && *threads >= 1 && *threads <= limits::max_domain ? static_cast<int>(*threads)
                                                                      : 1);
      ranks_line_ = line;
    }
  }

  /// A result nccl-tests' own check found wrong (-c 1): the run measured a broken collective.
  void check_wrong(const std::vector<std::string_view>& words, std::size_t line) const {
    for (const std::size_t at : columns_->wrong) {
      const auto wrong = parse_decimal(words[at]);
      if (wrong && *wrong > 0) {
        fail(line, fmt::format("nccl-tests counted {} wrong result{} (#wrong): the run's data "
                               "was corrupted, so its times are not a measurement; rerun it",
                               words[at], *wrong == 1 ? "" : "s"));
      }
    }
  }

  void row(std::string_view text, std::size_t line) {
    const std::vector<std::string_view> words = split_words(text);
    if (finished_) {
      fail(line, "text after the '# Avg bus bandwidth' line; give one nccl-tests run per file");
    }
    if (words.size() != columns_->count) {
      fail(line, fmt::format("expected {} fields as in the column header on line {}, got {}",
                             columns_->count, columns_->header_line, words.size()));
    }
    check_wrong(words, line);
    NcclTestRow row;
    row.line = line;
    const auto size = parse_decimal(words[columns_->size]);
    if (!size || *size <= 0 || *size > limits::max_exact_double || std::trunc(*size) != *size) {
      fail(line, fmt::format("size '{}' is not a whole number of bytes from 1 to 2^53",
                             words[columns_->size]));
    }
    row.size = Bytes::of(*size);
    for (std::size_t g = 0; g < columns_->groups.size(); ++g) {
      const NcclTestTiming timing = group(words, columns_->groups[g], line);
      if (g == 0) {
        row.out_of_place = timing;
      } else {
        row.in_place = timing;
      }
    }
    log_.rows.push_back(row);
  }

  NcclTestLog finish(std::size_t last_line) {
    if (!columns_) {
      throw InputError(fmt::format("{}: no nccl-tests result table (expected a column header "
                                   "line '#  size  count  type … time  algbw  busbw …')",
                                   origin_));
    }
    if (log_.rows.empty()) {
      fail(columns_->header_line, "the result table has no rows");
    }
    if (!finished_) {
      fail(last_line, "the log ends before its '# Avg bus bandwidth' line; it looks truncated");
    }
    if (ranks_per_process_ && log_.ranks && *log_.ranks % *ranks_per_process_ != 0) {
      fail(ranks_line_, fmt::format("the header runs {} ranks per process (nThread × nGpus), but "
                                    "{} ranks are listed, not a whole number of processes; give "
                                    "the log of one run as nccl-tests printed it",
                                    *ranks_per_process_, *log_.ranks));
    }
    return log_;
  }

  [[nodiscard]] bool in_table() const { return columns_.has_value(); }

private:
  NcclTestTiming group(const std::vector<std::string_view>& words, std::size_t at,
                       std::size_t line) const {
    const auto time = parse_decimal(words[at]);
    const auto algbw = parse_decimal(words[at + 1]);
    const auto busbw = parse_decimal(words[at + 2]);
    if (!time || *time <= 0) {
      fail(line, fmt::format("time '{}' is not a positive number", words[at]));
    }
    if (!algbw || *algbw < 0 || !busbw || *busbw < 0) {
      fail(line, fmt::format("bandwidths '{}' and '{}' are not numbers of GB/s", words[at + 1],
                             words[at + 2]));
    }
    return {Seconds::of(*time * columns_->time_unit), gigabytes_per_second(*algbw),
            gigabytes_per_second(*busbw)};
  }

  void trailer(const std::vector<std::string_view>& words, std::size_t line) {
    const auto colon = std::ranges::find(words, ":");
    const auto value = colon != words.end() && colon + 1 != words.end()
                           ? parse_decimal(*(colon + 1))
                           : std::optional<double>();
    if (!value || *value < 0) {
      fail(line, "'# Avg bus bandwidth' line without a number of GB/s");
    }
    if (!columns_) {
      fail(line, "'# Avg bus bandwidth' line before any result table");
    }
    log_.average_busbw = gigabytes_per_second(*value);
    finished_ = true;
  }

  const std::string& origin_;
  std::optional<Columns> columns_;
  NcclTestLog log_;
  bool finished_ = false;
  std::optional<int> ranks_per_process_;
  std::size_t ranks_line_ = 0;
};

/// NCCL's own diagnostics, printed into the same stream with NCCL_DEBUG=INFO or WARN.
bool is_nccl_diagnostic(std::string_view line) {
  return line.find("NCCL INFO") != std::string_view::npos ||
         line.find("NCCL WARN") != std::string_view::npos || line.starts_with("NCCL version");
}

} // namespace

Seconds NcclTestRow::mean_time() const {
  return in_place ? (out_of_place.time + in_place->time) / 2.0 : out_of_place.time;
}

std::optional<int> ranks_per_host(const NcclTestLog& log, const std::string& origin) {
  std::map<std::string, int> per_host;
  for (const auto& [rank, host] : log.rank_hosts) {
    ++per_host[host];
  }
  if (per_host.empty() || !log.ranks ||
      log.rank_hosts.size() != static_cast<std::size_t>(*log.ranks)) {
    return std::nullopt; // a trimmed list: the hosts of some ranks are unknown
  }
  const auto [fewest, most] = std::ranges::minmax_element(
      per_host, {}, [](const std::pair<const std::string, int>& entry) { return entry.second; });
  if (fewest->second != most->second) {
    throw InputError(fmt::format("{}: the hosts run different numbers of ranks ({} on {}, {} on "
                                 "{}); icx models nodes of equal size",
                                 origin, fewest->second, fewest->first, most->second, most->first));
  }
  return most->second;
}

NcclTestLog parse_nccl_test_log(std::string_view text, const std::string& origin) {
  Reader reader(origin);
  std::size_t last_line = 1;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    last_line = number;
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || is_nccl_diagnostic(line)) {
      return;
    }
    if (line[first] == '#') {
      reader.comment(line.substr(first + 1), number);
    } else if (reader.in_table()) {
      reader.row(line, number);
    }
    // Before the column header: launcher banners and the like, not part of the results.
  });
  return reader.finish(last_line);
}

} // namespace icx
