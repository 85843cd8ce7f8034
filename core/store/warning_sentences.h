#pragma once
// The sentences results databases of schema version 2 stored for warnings and for why a point ran out of memory,
// read back into the Warning that words them so (export/warning_text.h) — for the migration to version 3, which
// stores codes and parameters instead. Numbers come back as precisely as the sentence wrote them, so that the
// sentence worded again is the same. Internal to core/store.

#include "common/warning.h"

#include <optional>
#include <string_view>

namespace parasight::store {

// The warning `sentence` words, or nothing when it is none of the sentences version 2 wrote.
[[nodiscard]] std::optional<Warning> warning_from_sentence(std::string_view sentence);

}  // namespace parasight::store
