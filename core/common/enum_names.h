#pragma once
// The spellings of an enum in scenario files, both ways, from one table per enum.

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace parasight {

template <class Enum>
struct EnumName {
    Enum value;
    std::string_view name;
};

template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::string_view name_of(Enum value, const std::array<EnumName<Enum>, N>& names) noexcept {
    for (const auto& entry : names) {
        if (entry.value == value) return entry.name;
    }
    return "?";
}

template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::optional<Enum> value_of(std::string_view text,
                                                     const std::array<EnumName<Enum>, N>& names) noexcept {
    for (const auto& entry : names) {
        if (entry.name == text) return entry.value;
    }
    return std::nullopt;
}

template <class Enum, std::size_t N>
[[nodiscard]] std::vector<std::string_view> names_of(const std::array<EnumName<Enum>, N>& names) {
    std::vector<std::string_view> result;
    result.reserve(N);
    for (const auto& entry : names) result.push_back(entry.name);
    return result;
}

}  // namespace parasight
