#include "lesson/lesson_handout.h"

#include "lesson/lesson_check.h"
#include "lesson/lesson_number.h"
#include "lesson/lesson_text.h"

#include <sstream>

namespace parasight {

namespace {

void write_list(std::ostringstream& out, const std::string& heading, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out << "**" << heading << "**\n\n";
    for (const std::string& item : items) out << "- " << item << '\n';
    out << '\n';
}

// Markdown block text ends with one newline, whatever the YAML left.
std::string block(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text + '\n';
}

// The simulation's answer to step `index`'s question, or why there is none.
std::string answer_of(const LessonQuestion& question, const std::vector<std::optional<LessonRun>>& runs,
                      std::size_t index) {
    const Expected<ReportExpression, Diagnostic> expression = lesson_expression(question.answer);
    if (!expression) return expression.error().message;
    const Expected<double> answer = evaluate_in_lesson(expression.value(), runs, index);
    if (!answer) return "no run to answer it (" + answer.error() + ")";
    return lesson_answer_text(answer.value());
}

}  // namespace

std::string lesson_handout_markdown(const Lesson& lesson, const std::vector<std::string>& figures,
                                    const std::vector<std::optional<LessonRun>>& runs, HandoutReader reader,
                                    int variant) {
    std::ostringstream out;
    out << "# " << (lesson.number ? std::to_string(*lesson.number) + ". " : std::string()) << lesson.title
        << (reader == HandoutReader::teacher ? " — teacher's handout" : "") << "\n\n";
    if (const std::vector<AxisValue> varied = lesson_variant_values(lesson, variant); !varied.empty()) {
        out << "*Variant " << variant << ":";
        for (std::size_t i = 0; i < varied.size(); ++i) {
            out << (i == 0 ? " " : ", ") << varied[i].path << " " << varied[i].value;
        }
        out << "*\n\n";
    }
    if (!lesson.summary.empty()) out << block(lesson.summary) << '\n';
    write_list(out, "Goals", lesson.goals);
    write_list(out, "Before you start", lesson.prerequisites);
    const std::size_t steps = lesson.steps.size();
    for (std::size_t i = 0; i < steps; ++i) {
        const LessonStep& step = lesson.steps[i];
        out << "## Step " << i + 1 << " of " << steps << ": " << step.title << "\n\n";
        if (i < figures.size() && !figures[i].empty()) {
            out << "![Step " << i + 1 << ": " << step.title << "](" << figures[i] << ")\n\n";
        }
        if (!step.text.empty()) out << block(filled_lesson_text(step.text, runs, i)) << '\n';
        if (step.question) {
            const LessonQuestion& question = *step.question;
            out << "**Predict:** " << question.prompt << "\n\n";
            if (!question.choices.empty()) {
                for (const std::string& choice : question.choices) out << "- [ ] " << choice << '\n';
                out << '\n';
            } else {
                out << "Your prediction: ____________________\n\n";
            }
            if (!question.hint.empty()) out << "*Hint:* " << question.hint << "\n\n";
            if (reader == HandoutReader::teacher) {
                out << "**Answer:** " << answer_of(question, runs, i) << "\n\n";
                if (!question.explanation.empty()) out << block(filled_lesson_text(question.explanation, runs, i)) << '\n';
            }
        }
        if (step.challenge) out << "**Challenge:** " << step.challenge->goal << "\n\n";
        if (reader == HandoutReader::teacher && !step.notes.empty()) {
            out << "*Teacher's notes:* " << block(step.notes) << '\n';
        }
    }
    std::string text = out.str();
    while (text.size() >= 2 && text.ends_with("\n\n")) text.pop_back();
    return text;
}

}  // namespace parasight
