#pragma once
// A lesson's Markdown with the run's numbers in it: `{{EXPR}}` — an expression as a question's answer is written
// (lesson/report_expression.h) — stands for its value on the step's run, with four significant digits. A number a
// text states so follows the students' changes and the lesson's variants, where a number written out describes the
// lesson as written (and is a claim). Used in a step's text and a question's explanation.

#include "diagnostics/diagnostic.h"
#include "lesson/lesson_run.h"

#include <optional>
#include <string>
#include <vector>

namespace parasight {

// `text` with each {{EXPR}} replaced by its value on step `index`'s run ("…" while the run, or an earlier step's it
// names, is not there).
[[nodiscard]] std::string filled_lesson_text(const std::string& text, const std::vector<std::optional<LessonRun>>& runs,
                                             std::size_t index);

// Each {{EXPR}} of `text` that is not closed or does not read, said at `where` (the text's place in the lesson) with
// the expression; `what` names the text ("steps[0].text").
[[nodiscard]] Diagnostics lesson_text_problems(const std::string& text, const SourceLocation& where,
                                               const std::string& what);

// The expressions of `text`'s {{EXPR}}s, as written (for check_lesson to evaluate on the step's run).
[[nodiscard]] std::vector<std::string> lesson_text_expressions(const std::string& text);

}  // namespace parasight
