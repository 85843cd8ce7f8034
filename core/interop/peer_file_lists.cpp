#include "interop/peer_file_lists.h"

#include "common/message_text.h"
#include "common/number_text.h"

namespace parasight {
namespace {

std::string entry_path(std::string_view key, std::size_t index) {
    return std::string(key) + "[" + std::to_string(index) + "]";
}

}  // namespace

std::optional<std::vector<YAML::Node>> PeerListReader::entries(std::string_view key, bool required) {
    if (!reader_.has(key)) {
        if (required) (void)reader_.require(key);
        return std::nullopt;
    }
    const YAML::Node list = reader_.value(key);
    YamlSource& source = reader_.source();
    if (!list.IsSequence()) {
        source.error(reader_.value_location(key), std::string(key) + " must be a list, one entry per dimension (" +
                                                      std::string(key) + ": [a, b]), not " +
                                                      std::string(node_type_noun(list)));
        return std::nullopt;
    }
    std::vector<YAML::Node> items;
    bool scalars = true;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node item = list[i];
        if (!item.IsScalar()) {
            source.error(item, entry_path(key, i) + " must be one value, not " + std::string(node_type_noun(item)));
            scalars = false;
        }
        items.push_back(item);
    }
    if (!scalars) return std::nullopt;
    lists_[std::string(key)] = items;
    return items;
}

const YAML::Node& PeerListReader::entry(std::string_view key, std::size_t index) const {
    return lists_.find(key)->second.at(index);
}

std::optional<std::int64_t> PeerListReader::integer(std::string_view key, std::size_t index, IntegerRange range) {
    const YAML::Node& item = entry(key, index);
    const std::string path = entry_path(key, index);
    const auto value = parse_integer(item.Scalar());
    if (!value) {
        reader_.source().error(item, is_whole_number_text(item.Scalar())
                                         ? integer_beyond_range_problem(path, item.Scalar(), range)
                                         : path + " must be a whole number, not " + in_quotes(item.Scalar()));
        return std::nullopt;
    }
    if (const auto problem = integer_range_problem(path, *value, range)) {
        reader_.source().error(item, *problem);
        return std::nullopt;
    }
    return value;
}

std::optional<double> PeerListReader::number(std::string_view key, std::size_t index, NumberRange range) {
    const YAML::Node& item = entry(key, index);
    const std::string path = entry_path(key, index);
    const auto value = parse_number(item.Scalar());
    if (!value) {
        reader_.source().error(item, path + " must be a number, not " + in_quotes(item.Scalar()));
        return std::nullopt;
    }
    if (const auto problem = number_range_problem(path, *value, item.Scalar(), range)) {
        reader_.source().error(item, *problem);
        return std::nullopt;
    }
    return value;
}

}  // namespace parasight
