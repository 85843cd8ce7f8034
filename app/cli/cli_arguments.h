#pragma once
// The command line of one parasight-cli subcommand: positional words, `--name value` options and `--flag`s, checked
// against what the subcommand accepts.

#include "common/expected.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace parasight::cli {

struct OptionSpec {
    std::set<std::string, std::less<>> with_value;  // --size 1GiB (or --size=1GiB)
    std::set<std::string, std::less<>> flags;       // --json
    std::set<std::string, std::less<>> repeatable;  // options that may be given more than once
};

class Arguments {
public:
    // Parses `words` (after the subcommand name). Unknown options and missing values are errors.
    [[nodiscard]] static Expected<Arguments> parse(const std::vector<std::string>& words, const OptionSpec& spec);

    [[nodiscard]] const std::vector<std::string>& positional() const noexcept { return positional_; }
    [[nodiscard]] bool flag(std::string_view name) const { return flags_.count(std::string(name)) > 0; }
    [[nodiscard]] std::optional<std::string> option(std::string_view name) const;
    [[nodiscard]] std::vector<std::string> all(std::string_view name) const;
    // --NAME as a whole number from `minimum` to `maximum`, `fallback` when absent; the error says so: "--top must be
    // a whole number from 0 to 1000000, not 'x'".
    [[nodiscard]] Expected<std::int64_t> whole_number(std::string_view name, std::int64_t fallback,
                                                      std::int64_t minimum, std::int64_t maximum) const;

private:
    std::vector<std::string> positional_;
    std::set<std::string, std::less<>> flags_;
    std::multimap<std::string, std::string, std::less<>> options_;
};

}  // namespace parasight::cli
