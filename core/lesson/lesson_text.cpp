#include "lesson/lesson_text.h"

#include "lesson/lesson_check.h"
#include "lesson/lesson_number.h"

namespace parasight {

namespace {

constexpr std::string_view open_mark = "{{";
constexpr std::string_view close_mark = "}}";

// Calls `on_text(piece)` for the text between templates and `on_template(expression, closed)` for each template, in
// order; an unclosed one runs to the end.
template <class OnText, class OnTemplate>
void walk(const std::string& text, OnText on_text, OnTemplate on_template) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t open = text.find(open_mark, at);
        if (open == std::string::npos) {
            on_text(std::string_view(text).substr(at));
            return;
        }
        on_text(std::string_view(text).substr(at, open - at));
        const std::size_t start = open + open_mark.size();
        const std::size_t close = text.find(close_mark, start);
        if (close == std::string::npos) {
            on_template(std::string_view(text).substr(start), false);
            return;
        }
        on_template(std::string_view(text).substr(start, close - start), true);
        at = close + close_mark.size();
    }
}

}  // namespace

std::string filled_lesson_text(const std::string& text, const std::vector<std::optional<LessonRun>>& runs,
                               std::size_t index) {
    std::string filled;
    walk(
        text, [&](std::string_view piece) { filled += piece; },
        [&](std::string_view expression_text, bool closed) {
            const auto expression = ReportExpression::parse(expression_text);
            const Expected<double> value =
                closed && expression ? evaluate_in_lesson(expression.value(), runs, index) : Expected<double>(Error{""});
            filled += value ? lesson_number_text(value.value()) : std::string("…");
        });
    return filled;
}

Diagnostics lesson_text_problems(const std::string& text, const SourceLocation& where, const std::string& what) {
    Diagnostics problems;
    walk(
        text, [](std::string_view) {},
        [&](std::string_view expression_text, bool closed) {
            const std::string written(expression_text);
            if (!closed) {
                problems.push_back({where, what + ": {{" + written.substr(0, 40) + " is not closed with }}", {}});
                return;
            }
            if (const auto expression = ReportExpression::parse(expression_text); !expression) {
                problems.push_back({where, what + ": {{" + written + "}}: " + expression.error().message, {}});
            }
        });
    return problems;
}

std::vector<std::string> lesson_text_expressions(const std::string& text) {
    std::vector<std::string> expressions;
    walk(
        text, [](std::string_view) {},
        [&](std::string_view expression_text, bool closed) {
            if (closed) expressions.emplace_back(expression_text);
        });
    return expressions;
}

}  // namespace parasight
