#pragma once
// The lists of scalars the peers' files hold, one entry per topology dimension (ASTRA-sim's `bandwidth: [200, 100]`,
// its `all-reduce-implementation: ["ring", "direct"]`): each entry located, read as a whole number, a number or a
// word, its problem reported at the entry as "bandwidth[1] must be a number, not 'tbd'".

#include "scenario/scenario_limits.h"
#include "scenario_file/yaml_reader.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

class PeerListReader {
public:
    explicit PeerListReader(MapReader& reader) : reader_(reader) {}

    // The entries of `key`, each a scalar; nullopt when it is absent (reported when `required`), not a list, or holds
    // a list or mapping (reported).
    [[nodiscard]] std::optional<std::vector<YAML::Node>> entries(std::string_view key, bool required = true);
    // Entry `index` of a list entries() read; nullopt, reported, when it is not one or out of `range`.
    [[nodiscard]] std::optional<std::int64_t> integer(std::string_view key, std::size_t index, IntegerRange range);
    [[nodiscard]] std::optional<double> number(std::string_view key, std::size_t index, NumberRange range);

private:
    [[nodiscard]] const YAML::Node& entry(std::string_view key, std::size_t index) const;

    MapReader& reader_;
    std::map<std::string, std::vector<YAML::Node>, std::less<>> lists_;
};

}  // namespace parasight
