#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "lesson/lesson_check.h"
#include "presets/preset_library.h"

#include <filesystem>
#include <ostream>

namespace parasight::cli {

const std::string_view lesson_help = R"(usage: parasight-cli lesson check LESSON [LESSON ...]

Checks lessons (docs/lessons.md) as 'make test' checks the bundled ones: the file's keys, types and targets, then
every step's scenario simulated, every question's answer evaluated and every claim compared with the simulation.
LESSON is a lesson file (a path ending in .yaml) or a bundled lesson's id ('parasight-cli presets list lesson').
Prints one line per lesson that holds true; every problem is printed as FILE:LINE:COL: message.

exit status: 0 every lesson holds true, 2 a lesson has problems (or cannot be read)
)";

namespace {

// A lesson named by path or by bundled id, read; its problems (or the unknown id's) otherwise.
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

std::size_t claims_in(const Lesson& lesson) {
    std::size_t claims = 0;
    for (const LessonStep& step : lesson.steps) claims += step.claims.size();
    return claims;
}

}  // namespace

int run_lesson(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{});
    if (!arguments) return usage_error(err, "lesson", arguments.error());
    const auto& positional = arguments->positional();
    if (positional.empty() || positional.front() != "check") {
        return usage_error(err, "lesson", positional.empty() ? "say what to do: 'check LESSON'"
                                                             : "unknown action " + in_quotes(positional.front()) +
                                                                   "; the action is 'check'");
    }
    if (positional.size() < 2) return usage_error(err, "lesson", "name at least one LESSON to check");
    int status = exit_ok;
    for (std::size_t i = 1; i < positional.size(); ++i) {
        const LessonRead read = read_named_lesson(positional[i]);
        Diagnostics problems = read.diagnostics;
        if (read.lesson) {
            for (Diagnostic& problem : check_lesson(*read.lesson)) problems.push_back(std::move(problem));
        }
        if (!read.lesson || !problems.empty()) {
            for (const Diagnostic& problem : problems) err << problem.to_string() << '\n';
            status = exit_bad_input;
            continue;
        }
        out << positional[i] << ": ok — " << shortened(read.lesson->title) << ", "
            << count_phrase(static_cast<std::int64_t>(read.lesson->steps.size()), "step") << ", "
            << count_phrase(static_cast<std::int64_t>(claims_in(*read.lesson)), "claim") << " true\n";
    }
    return status;
}

}  // namespace parasight::cli
