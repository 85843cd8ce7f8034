#include "lesson/named_lesson.h"

#include "common/did_you_mean.h"
#include "presets/preset_library.h"

namespace parasight {

LessonRead read_named_lesson(const std::string& name) {
    if (name.ends_with(".yaml") || name.find('/') != std::string::npos) return read_lesson_file(name);
    if (const Preset* preset = find_preset(PresetKind::lesson, name)) {
        return read_lesson(preset->text, std::string(preset->file), ".");
    }
    const auto ids = preset_ids(PresetKind::lesson);
    LessonRead unknown;
    unknown.diagnostics.push_back(Diagnostic{SourceLocation{name, 0, 0},
                                             "no lesson file or bundled lesson by this name" +
                                                 did_you_mean_suffix(name, ids) + "; the bundled lessons are " +
                                                 join_alternatives(ids),
                                             ""});
    return unknown;
}

}  // namespace parasight
