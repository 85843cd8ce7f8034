#pragma once
// What a device's memory holds, by purpose: the compiler allocates, the engine tracks, the report and the views
// break memory down by these, so the words live below all.

#include "common/enum_names.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace parasight {

// runtime: what the device's runtime holds before the model allocates anything (the CUDA context with its kernel
// images, cluster.device.context_memory), for the whole iteration.
enum class MemoryCategory : std::uint8_t { weights, gradients, optimizer, activations, buffers, runtime };
inline constexpr std::size_t memory_category_count = 6;
extern const std::array<EnumName<MemoryCategory>, 6> memory_category_names;

}  // namespace parasight
