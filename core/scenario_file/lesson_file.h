#pragma once
// A lesson file (docs/lessons.md): a title, what it teaches, and steps — each a scenario (a bundled preset or a
// scenario file, with fields set on it), the tab to show, targets to reveal and spotlight, the narrative (Markdown),
// teacher notes, an optional question whose answer is an expression over the step's run, and claims: the numbers the
// narrative states, each an expression with the value it must have. Read with the scenario files' located errors
// (FILE:LINE:COL, did-you-mean for keys); what the texts mean — expressions, targets, scenarios — is checked by
// lesson/lesson_check.h.

#include "diagnostics/diagnostic.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

// A text and where it was written (an expression, a target, a scenario field's value).
struct LocatedText {
    std::string text;
    SourceLocation where;
};

struct LessonScenario {
    std::string preset;          // a scenario preset's name (presets/scenarios), or
    std::filesystem::path file;  // a scenario file, relative to the lesson's folder
    SourceLocation where;        // of the preset's or file's name
    std::vector<std::pair<std::string, LocatedText>> set;  // field path → value as written, in the file's order
};

struct LessonQuestion {
    std::string prompt;
    LocatedText answer;          // an expression over the step's run
    double tolerance = 0.05;     // relative: a guess within 5% of the answer is right
    std::string hint;
    std::string explanation;     // Markdown shown with the answer, once guessed: what the numbers mean
    SourceLocation explanation_where;
    std::vector<std::string> choices;  // multiple choice, when given: numbers as written
    // A slider from the first to the second, when given: the guess is where the student leaves it.
    std::optional<std::pair<double, double>> range;
};

struct LessonClaim {
    LocatedText expression;
    double value = 0.0;       // what the narrative says it is
    double tolerance = 0.01;  // relative
};

// A target for the students to reach by changing the scenario, checked on every run: an expression below or above a
// value, with the fields they must leave as the step set them.
struct LessonChallenge {
    std::string goal;                // in words: "Bring the bubble below 21% without changing the stages"
    LocatedText expression;
    std::optional<double> below;     // met when the expression is below this (strictly)
    std::optional<double> above;     // or above this
    std::vector<LocatedText> keep;   // field paths to leave as they are
    SourceLocation where;
};

// A sweep the step runs on its scenario, shown on the Sweeps tab: its axes as --axis writes them, a strategy space,
// and what the lesson states of it — its count of points, the best point's values — checked by running the sweep.
struct LessonSweep {
    std::vector<LocatedText> axes;                            // "parallelism.tp=1,2,4,8"
    std::optional<LocatedText> strategies;                    // "degrees" or "all"
    std::optional<std::int64_t> points;                       // the points it has
    SourceLocation points_where;
    std::vector<std::pair<std::string, LocatedText>> best;    // axis path → the best point's value
    SourceLocation where;
};

struct LessonStep {
    std::string title;
    LessonScenario scenario;
    std::string tab;                    // empty: the tab stays
    SourceLocation tab_where;
    std::vector<LocatedText> reveal;    // targets (target/target.h)
    std::optional<LocatedText> spotlight;
    bool playhead = false;              // the Timeline's playhead shown at the start, to step through the schedule
    std::string text;                   // Markdown; {{EXPR}} the run's numbers (lesson/lesson_text.h)
    SourceLocation text_where;
    std::string notes;                  // for the teacher only
    std::optional<LessonQuestion> question;
    std::optional<LessonChallenge> challenge;
    std::optional<LessonSweep> sweep;
    std::vector<LessonClaim> claims;
};

// A field the lesson's variants vary (per-student variants, docs/lessons.md): variant n ≥ 1 sets `path` to one of
// `values` — the alternatives to the lesson's own value — in every step that does not set it itself.
struct LessonVariant {
    std::string path;
    std::vector<LocatedText> values;
    SourceLocation where;
};

struct Lesson {
    std::string file;
    std::filesystem::path directory;  // where its scenario files are read from
    std::string title;
    std::optional<int> number;        // its place in a course: lessons are listed by number, then title
    std::string summary;
    std::vector<std::string> goals;
    std::vector<std::string> prerequisites;
    std::vector<LessonStep> steps;
    std::vector<LessonVariant> variants;
};

struct LessonRead {
    std::optional<Lesson> lesson;  // none when the diagnostics hold an error
    Diagnostics diagnostics;
};

[[nodiscard]] LessonRead read_lesson(std::string_view text, const std::string& file_name,
                                     const std::filesystem::path& directory);
[[nodiscard]] LessonRead read_lesson_file(const std::filesystem::path& path);

}  // namespace parasight
