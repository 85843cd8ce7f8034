#include "common/memory_category.h"

namespace parasight {

const std::array<EnumName<MemoryCategory>, 6> memory_category_names{{{MemoryCategory::weights, "weights"},
                                                                     {MemoryCategory::gradients, "gradients"},
                                                                     {MemoryCategory::optimizer, "optimizer"},
                                                                     {MemoryCategory::activations, "activations"},
                                                                     {MemoryCategory::buffers, "buffers"},
                                                                     {MemoryCategory::runtime, "runtime"}}};

}  // namespace parasight
