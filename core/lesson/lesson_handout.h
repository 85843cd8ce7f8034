#pragma once
// A lesson as a handout (docs/lessons.md, "Handouts"): Markdown with the title, summary, goals and prerequisites, and
// for each step its figure, narrative, question with room for the prediction, and challenge. The students' handout
// keeps the answers back; the teacher's adds each step's notes, the simulation's answer to its question (evaluated on
// the step's run, as the Lesson dock does) and the explanation.

#include "lesson/lesson_run.h"
#include "scenario_file/lesson_file.h"

#include <optional>
#include <string>
#include <vector>

namespace parasight {

enum class HandoutReader { students, teacher };

// `figures[i]`: step i's picture as the Markdown links it (a path relative to the handout), or empty for none;
// `runs[i]`: its run, for the run's numbers in the texts and the teacher's answers (a step without one says so);
// `variant`: the lesson's variant they are of (0: as written), said under the title with the values it sets.
[[nodiscard]] std::string lesson_handout_markdown(const Lesson& lesson, const std::vector<std::string>& figures,
                                                  const std::vector<std::optional<LessonRun>>& runs,
                                                  HandoutReader reader, int variant = 0);

}  // namespace parasight
