#pragma once
// What a device's memory holds, by purpose: the compiler allocates, the engine tracks, the report and the views
// break memory down by these, so the words live below all.

#include "common/enum_names.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace parasight {

enum class MemoryCategory : std::uint8_t { weights, gradients, optimizer, activations, buffers };
inline constexpr std::size_t memory_category_count = 5;
extern const std::array<EnumName<MemoryCategory>, 5> memory_category_names;

}  // namespace parasight
