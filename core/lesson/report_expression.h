#pragma once
// An arithmetic expression over a simulated run's numbers, as a lesson asks a question or states a number:
// `bubble_s / iteration_time_s`, `peak_memory_bytes / 2^30`, `step[1].peak_memory_bytes / peak_memory_bytes` — numbers,
// the names of a lesson's run (lesson/lesson_run.h: the run columns' and the oracle's) for this step's run or `step[K].NAME` for step K's (1-based, an
// earlier step), + - * / ^ (power, right-associative, binding tighter than a sign), unary minus and parentheses.
// Every name is checked when the text is read; a mistake says where, by its offset in the text.

#include "common/expected.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct ExpressionProblem {
    std::size_t offset = 0;  // into the text, 0-based
    std::string message;     // "unknown name 'bubbel_s' (did you mean 'bubble_s'?)"
};

class ReportExpression {
public:
    // A name's value: `step` 0 for this step's run, K for step K's; none when the run has no value by that name.
    using Lookup = std::function<std::optional<double>(int step, const std::string& name)>;

    [[nodiscard]] static Expected<ReportExpression, ExpressionProblem> parse(std::string_view text);

    // The value, or why there is none ("division by zero", "not a finite number", a name without a value).
    [[nodiscard]] Expected<double> evaluate(const Lookup& lookup) const;
    // The earlier steps it names (K of each step[K]), each once, in increasing order.
    [[nodiscard]] std::vector<int> steps() const;
    [[nodiscard]] const std::string& text() const noexcept { return text_; }

    struct Item {  // one item of the expression in postfix order
        enum class Kind { number, name, add, subtract, multiply, divide, power, negate } kind = Kind::number;
        double number = 0.0;
        int step = 0;
        std::string name;
    };

private:
    std::string text_;
    std::vector<Item> postfix_;
};

}  // namespace parasight
