#pragma once
// A lesson named as a user names one: a lesson file — a path ending in .yaml or holding a '/' — or the id of a
// bundled lesson. The command line's `lesson` verbs and the window's --lesson read lessons so.

#include "scenario_file/lesson_file.h"

#include <string>

namespace parasight {

// The lesson read, or its problems; an id that names no bundled lesson says which do (with a did-you-mean).
[[nodiscard]] LessonRead read_named_lesson(const std::string& name);

}  // namespace parasight
