#include "lesson/report_expression.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "lesson/lesson_run.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

namespace parasight {
namespace {

using Item = ReportExpression::Item;

// Recursive descent over the text, writing items in postfix order:
//   sum     = product { (+|-) product }
//   product = unary { (*|/) unary }
//   unary   = - unary | power
//   power   = atom [ ^ unary ]
//   atom    = NUMBER | NAME | step[K].NAME | ( sum )
class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    std::optional<ExpressionProblem> parse(std::vector<Item>& out) {
        out_ = &out;
        skip_space();
        if (at_end()) return ExpressionProblem{0, "an empty expression; write one, as bubble_s / iteration_time_s"};
        if (!sum()) return problem_;
        skip_space();
        if (!at_end()) {
            return ExpressionProblem{at_, "unexpected " + in_quotes(std::string(1, text_[at_])) + " after a whole expression"};
        }
        return std::nullopt;
    }

private:
    [[nodiscard]] bool at_end() const { return at_ >= text_.size(); }
    void skip_space() {
        while (!at_end() && std::isspace(static_cast<unsigned char>(text_[at_])) != 0) ++at_;
    }
    bool fail(std::size_t offset, std::string message) {
        problem_ = ExpressionProblem{offset, std::move(message)};
        return false;
    }
    void emit(Item::Kind kind) {
        Item item;
        item.kind = kind;
        out_->push_back(std::move(item));
    }
    bool take(char c) {
        skip_space();
        if (at_end() || text_[at_] != c) return false;
        ++at_;
        return true;
    }

    bool sum() {
        if (!product()) return false;
        for (;;) {
            if (take('+')) {
                if (!product()) return false;
                emit(Item::Kind::add);
            } else if (take('-')) {
                if (!product()) return false;
                emit(Item::Kind::subtract);
            } else {
                return true;
            }
        }
    }
    bool product() {
        if (!unary()) return false;
        for (;;) {
            if (take('*')) {
                if (!unary()) return false;
                emit(Item::Kind::multiply);
            } else if (take('/')) {
                if (!unary()) return false;
                emit(Item::Kind::divide);
            } else {
                return true;
            }
        }
    }
    bool unary() {
        if (take('-')) {
            if (!unary()) return false;
            emit(Item::Kind::negate);
            return true;
        }
        return power();
    }
    bool power() {
        if (!atom()) return false;
        if (take('^')) {
            if (!unary()) return false;
            emit(Item::Kind::power);
        }
        return true;
    }
    bool atom() {
        skip_space();
        if (at_end()) return fail(at_, "the expression ends where a number, a name or '(' was expected");
        const char c = text_[at_];
        if (c == '(') {
            const std::size_t open = at_++;
            if (!sum()) return false;
            if (!take(')')) return fail(open, "this '(' is not closed");
            return true;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_') return name();
        return fail(at_, "unexpected " + in_quotes(std::string(1, c)) + "; expected a number, a name or '('");
    }
    bool number() {
        const std::size_t start = at_;
        while (!at_end() && (std::isdigit(static_cast<unsigned char>(text_[at_])) != 0 || text_[at_] == '.')) ++at_;
        if (!at_end() && (text_[at_] == 'e' || text_[at_] == 'E')) {
            std::size_t exponent = at_ + 1;
            if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-')) ++exponent;
            if (exponent < text_.size() && std::isdigit(static_cast<unsigned char>(text_[exponent])) != 0) {
                at_ = exponent;
                while (!at_end() && std::isdigit(static_cast<unsigned char>(text_[at_])) != 0) ++at_;
            }
        }
        const std::string_view written = text_.substr(start, at_ - start);
        const std::optional<double> value = parse_number(written);
        if (!value) return fail(start, in_quotes(std::string(written)) + " is not a number");
        Item item;
        item.number = *value;
        out_->push_back(std::move(item));
        return true;
    }
    std::string_view word() {
        const std::size_t start = at_;
        while (!at_end() && (std::isalnum(static_cast<unsigned char>(text_[at_])) != 0 || text_[at_] == '_')) ++at_;
        return text_.substr(start, at_ - start);
    }
    bool name() {
        std::size_t start = at_;
        std::string_view first = word();
        int step = 0;
        if (first == "step" && !at_end() && text_[at_] == '[') {
            const std::size_t open = at_++;
            const std::size_t digits = at_;
            while (!at_end() && std::isdigit(static_cast<unsigned char>(text_[at_])) != 0) ++at_;
            const std::optional<std::int64_t> k = parse_integer(text_.substr(digits, at_ - digits));
            if (!k || *k < 1 || *k > 1000 || at_end() || text_[at_] != ']') {
                return fail(open, "a step is named step[K], K from 1, as step[1].iteration_time_s");
            }
            ++at_;
            if (at_end() || text_[at_] != '.') return fail(at_, "step[K] is followed by .NAME, as step[1].bubble_s");
            ++at_;
            step = static_cast<int>(*k);
            start = at_;
            first = word();
        }
        const std::string name(first);
        const auto& names = lesson_run_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            return fail(start, "unknown name " + in_quotes(name) + did_you_mean_suffix(name, names) +
                                   "; a name is one of " + join_alternatives(names));
        }
        Item item;
        item.kind = Item::Kind::name;
        item.step = step;
        item.name = name;
        out_->push_back(std::move(item));
        return true;
    }

    std::string_view text_;
    std::size_t at_ = 0;
    std::vector<Item>* out_ = nullptr;
    ExpressionProblem problem_;
};

}  // namespace

Expected<ReportExpression, ExpressionProblem> ReportExpression::parse(std::string_view text) {
    ReportExpression expression;
    expression.text_ = std::string(text);
    Parser parser(text);
    if (auto problem = parser.parse(expression.postfix_)) return std::move(*problem);
    return expression;
}

Expected<double> ReportExpression::evaluate(const Lookup& lookup) const {
    std::vector<double> stack;
    for (const Item& item : postfix_) {
        if (item.kind == Item::Kind::number) {
            stack.push_back(item.number);
            continue;
        }
        if (item.kind == Item::Kind::name) {
            const std::optional<double> value = lookup(item.step, item.name);
            if (!value) {
                return Error{text_ + ": " + (item.step > 0 ? "step[" + std::to_string(item.step) + "]." : std::string()) +
                             item.name + " has no value for this run"};
            }
            stack.push_back(*value);
            continue;
        }
        if (item.kind == Item::Kind::negate) {
            stack.back() = -stack.back();
            continue;
        }
        const double right = stack.back();
        stack.pop_back();
        double& left = stack.back();
        switch (item.kind) {
            case Item::Kind::add: left += right; break;
            case Item::Kind::subtract: left -= right; break;
            case Item::Kind::multiply: left *= right; break;
            case Item::Kind::divide:
                if (right == 0.0) return Error{text_ + ": division by zero"};
                left /= right;
                break;
            case Item::Kind::power: left = std::pow(left, right); break;
            default: break;
        }
    }
    if (stack.size() != 1 || !std::isfinite(stack.front())) return Error{text_ + ": not a finite number"};
    return stack.front();
}

std::vector<int> ReportExpression::steps() const {
    std::vector<int> named;
    for (const Item& item : postfix_) {
        if (item.kind == Item::Kind::name && item.step > 0) named.push_back(item.step);
    }
    std::sort(named.begin(), named.end());
    named.erase(std::unique(named.begin(), named.end()), named.end());
    return named;
}

}  // namespace parasight
