#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "io/atomic_output.h"
#include "lesson/lesson_check.h"
#include "lesson/lesson_handout.h"
#include "lesson/named_lesson.h"
#include "path_checks.h"
#include "presets/preset_library.h"

#include <filesystem>
#include <memory>
#include <ostream>

namespace parasight::cli {

const std::string_view lesson_help = R"(usage: parasight-cli lesson check LESSON [LESSON ...]
       parasight-cli lesson handout LESSON [--teacher] [--variant N] [--out FILE]

Lessons (docs/lessons.md). LESSON is a lesson file (a path ending in .yaml) or a bundled lesson's id
('parasight-cli presets list lesson').

check    checks lessons as 'make test' checks the bundled ones: the file's keys, types and targets, then every step's
         scenario simulated, every question's answer evaluated and every claim compared with the simulation. Prints
         one line per lesson that holds true; every problem is printed as FILE:LINE:COL: message.
handout  writes the lesson as a Markdown handout for the students — each step's narrative, its question with room
         for the prediction, its challenge — without figures (the window's handout adds each step's picture, and
         PDF); --teacher adds each step's notes and the simulation's answer to its question with the explanation;
         --variant N writes the lesson's variant N (its per-student sizes; 0, the default, is the lesson as written).
         To standard output, or to --out FILE (written whole or not at all).

exit status: 0 ok, 2 a lesson has problems (or cannot be read), 1 the handout could not be written
)";

namespace {

std::size_t claims_in(const Lesson& lesson) {
    std::size_t claims = 0;
    for (const LessonStep& step : lesson.steps) claims += step.claims.size();
    return claims;
}

}  // namespace

namespace {

int check_lessons(const std::vector<std::string>& names, std::ostream& out, std::ostream& err) {
    if (names.empty()) return usage_error(err, "lesson", "name at least one LESSON to check");
    int status = exit_ok;
    for (const std::string& name : names) {
        const LessonRead read = read_named_lesson(name);
        Diagnostics problems = read.diagnostics;
        if (read.lesson) {
            for (Diagnostic& problem : check_lesson(*read.lesson)) problems.push_back(std::move(problem));
        }
        if (!read.lesson || !problems.empty()) {
            for (const Diagnostic& problem : problems) err << problem.to_string() << '\n';
            status = exit_bad_input;
            continue;
        }
        out << name << ": ok — " << shortened(read.lesson->title) << ", "
            << count_phrase(static_cast<std::int64_t>(read.lesson->steps.size()), "step") << ", "
            << count_phrase(static_cast<std::int64_t>(claims_in(*read.lesson)), "claim") << " true\n";
    }
    return status;
}

int write_handout(const std::vector<std::string>& names, const Arguments& arguments, std::ostream& out,
                  std::ostream& err) {
    if (names.size() != 1) return usage_error(err, "lesson", "handout takes one LESSON");
    const LessonRead read = read_named_lesson(names.front());
    if (!read.lesson) {
        for (const Diagnostic& problem : read.diagnostics) err << problem.to_string() << '\n';
        return exit_bad_input;
    }
    const HandoutReader reader = arguments.flag("teacher") ? HandoutReader::teacher : HandoutReader::students;
    const Expected<std::int64_t> variant = arguments.whole_number("variant", 0, 0, 1'000'000);
    if (!variant) return usage_error(err, "lesson", variant.error());
    std::unique_ptr<AtomicOutput> file;
    if (const auto path = arguments.option("out")) {
        if (const auto refused = refuse_path_clash(err, "lesson", {{"--out", *path, false}},
                                                   {{"the lesson", names.front(), false}})) {
            return *refused;
        }
        auto opened = AtomicOutput::open(*path);
        if (!opened) return usage_error(err, "lesson", "--out: cannot write " + quoted_path(*path) + ": " + opened.error());
        file = std::move(opened).value();
    }
    // The teacher's answers and the run's numbers in the texts ({{EXPR}}) come from each step's run.
    const std::vector<std::optional<LessonRun>> runs = simulate_lesson(*read.lesson, static_cast<int>(variant.value()));
    (file ? file->stream() : out) << lesson_handout_markdown(*read.lesson, {}, runs, reader,
                                                             static_cast<int>(variant.value()));
    if (file) {
        if (auto error = file->commit()) {
            err << "parasight-cli lesson: writing " << quoted_path(file->target().string()) << " failed: " << *error
                << '\n';
            return exit_internal_error;
        }
    }
    return exit_ok;
}

}  // namespace

int run_lesson(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{{"out", "variant"}, {"teacher"}, {}});
    if (!arguments) return usage_error(err, "lesson", arguments.error());
    const auto& positional = arguments->positional();
    if (positional.empty()) return usage_error(err, "lesson", "say what to do: 'check LESSON' or 'handout LESSON'");
    const std::string& action = positional.front();
    const std::vector<std::string> names(positional.begin() + 1, positional.end());
    if (action == "handout") return write_handout(names, arguments.value(), out, err);
    if (action != "check") {
        return usage_error(err, "lesson", "unknown action " + in_quotes(action) + "; the actions are check and handout");
    }
    if (arguments->option("out") || arguments->option("variant") || arguments->flag("teacher")) {
        return usage_error(err, "lesson", "check takes no --out, --teacher or --variant (they are handout's)");
    }
    return check_lessons(names, out, err);
}

}  // namespace parasight::cli
