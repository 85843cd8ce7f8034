#include "cli_arguments.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "common/number_text.h"

namespace parasight::cli {

Expected<Arguments> Arguments::parse(const std::vector<std::string>& words, const OptionSpec& spec) {
    Arguments arguments;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& word = words[i];
        if (word.size() >= 2 && word[0] == '-' && word[1] != '-') {
            // Only long options exist; a file whose name starts with '-' can be written ./-name.
            return Error{"unknown option " + in_quotes(word) + "; options are written --name"};
        }
        if (word.size() < 3 || word.rfind("--", 0) != 0) {
            arguments.positional_.push_back(word);
            continue;
        }
        std::string name = word.substr(2);
        std::optional<std::string> inline_value;
        if (const auto equals = name.find('='); equals != std::string::npos) {
            inline_value = name.substr(equals + 1);
            name.resize(equals);
        }
        if (spec.flags.count(name) > 0) {
            if (inline_value) return Error{"option --" + name + " takes no value"};
            arguments.flags_.insert(name);
            continue;
        }
        if (spec.with_value.count(name) > 0) {
            std::string value;
            if (inline_value) {
                if (inline_value->empty()) return Error{"option --" + name + " needs a value"};
                value = *inline_value;
            } else if (i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0) {
                value = words[++i];
            } else {
                return Error{"option --" + name + " needs a value"};
            }
            if (arguments.options_.count(name) > 0 && spec.repeatable.count(name) == 0) {
                return Error{"option --" + name + " is given twice"};
            }
            arguments.options_.emplace(name, value);
            continue;
        }
        std::vector<std::string> spelled;
        for (const auto& option : spec.with_value) spelled.push_back("--" + option);
        for (const auto& option : spec.flags) spelled.push_back("--" + option);
        spelled.push_back("--help");
        const std::vector<std::string_view> known(spelled.begin(), spelled.end());
        return Error{"unknown option " + in_quotes("--" + name) + did_you_mean_suffix("--" + name, known)};
    }
    return arguments;
}

std::optional<std::string> Arguments::option(std::string_view name) const {
    const auto it = options_.find(name);
    if (it == options_.end()) return std::nullopt;
    return it->second;
}

std::vector<std::string> Arguments::all(std::string_view name) const {
    std::vector<std::string> values;
    const auto [first, last] = options_.equal_range(name);
    for (auto it = first; it != last; ++it) values.push_back(it->second);
    return values;
}

Expected<std::int64_t> Arguments::whole_number(std::string_view name, std::int64_t fallback, std::int64_t minimum,
                                               std::int64_t maximum) const {
    const auto text = option(name);
    if (!text) return fallback;
    const auto parsed = parse_integer(*text);
    if (!parsed || *parsed < minimum || *parsed > maximum) {
        return Error{"--" + std::string(name) + " must be a whole number from " + std::to_string(minimum) + " to " +
                     std::to_string(maximum) + ", not " + in_quotes(*text)};
    }
    return static_cast<std::int64_t>(*parsed);
}

}  // namespace parasight::cli
