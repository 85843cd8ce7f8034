#pragma once
// The lessons bundled with ParaSight (presets of kind lesson, presets/lessons), read, in course order: by their
// number, then — for lessons without one, after those with — by title. Help → Lessons, the welcome and
// `parasight-cli presets list lesson` list them so.

#include "presets/preset_library.h"
#include "scenario_file/lesson_file.h"

#include <vector>

namespace parasight {

struct BundledLesson {
    const Preset* preset = nullptr;
    Lesson lesson;
};

// Every bundled lesson that reads (the test suite reads each one; one that did not would be left out, not crash).
[[nodiscard]] std::vector<BundledLesson> bundled_lessons();

}  // namespace parasight
