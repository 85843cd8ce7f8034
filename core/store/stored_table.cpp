#include "store/stored_table.h"

#include "units/quantity.h"

namespace parasight {

int StoredTable::column(std::string_view name) const {
    for (std::size_t c = 0; c < names.size(); ++c) {
        if (names[c] == name) return static_cast<int>(c);
    }
    return -1;
}

const StoredValue& StoredTable::at(std::size_t row, std::string_view name) const {
    static const StoredValue null_value;
    const int index = column(name);
    return index < 0 ? null_value : rows[row][static_cast<std::size_t>(index)];
}

std::string stored_text(const StoredValue& value) {
    if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
    if (const auto* real = std::get_if<double>(&value)) return units::format_number(*real);
    if (const auto* text = std::get_if<std::string>(&value)) return *text;
    return {};
}

std::optional<double> stored_number(const StoredValue& value) {
    if (const auto* real = std::get_if<double>(&value)) return *real;
    if (const auto* integer = std::get_if<std::int64_t>(&value)) return static_cast<double>(*integer);
    return std::nullopt;
}

}  // namespace parasight
