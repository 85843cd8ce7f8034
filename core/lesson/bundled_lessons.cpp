#include "lesson/bundled_lessons.h"

#include <algorithm>
#include <climits>

namespace parasight {

std::vector<BundledLesson> bundled_lessons() {
    std::vector<BundledLesson> lessons;
    for (const Preset& preset : all_presets()) {
        if (preset.kind != PresetKind::lesson) continue;
        LessonRead read = read_lesson(preset.text, std::string(preset.file), ".");
        if (read.lesson) lessons.push_back({&preset, std::move(*read.lesson)});
    }
    std::stable_sort(lessons.begin(), lessons.end(), [](const BundledLesson& a, const BundledLesson& b) {
        const int a_number = a.lesson.number.value_or(INT_MAX);
        const int b_number = b.lesson.number.value_or(INT_MAX);
        return a_number != b_number ? a_number < b_number : a.lesson.title < b.lesson.title;
    });
    return lessons;
}

}  // namespace parasight
