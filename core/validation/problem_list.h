#pragma once
// The problems validate() finds, each at the scenario path of the value it is about; internal to core/validation.

#include "diagnostics/diagnostic.h"
#include "scenario/scenario_limits.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace parasight {

class ProblemList {
public:
    void add(std::string path, std::string message) {
        diagnostics_.push_back(Diagnostic{SourceLocation{}, std::move(message), std::move(path)});
    }

    // A range check each; they report the value as the loader would.
    void integer(const std::string& path, std::int64_t value, IntegerRange range);
    void quantity(const std::string& path, double value, units::Dimension dimension, QuantityRange range);
    void number(const std::string& path, double value, NumberRange range);
    // A name written to a scenario file: one line of printable UTF-8 text; `required` refuses an empty one.
    void text(const std::string& path, std::string_view value, bool required);

    [[nodiscard]] std::size_t count() const noexcept { return diagnostics_.size(); }
    [[nodiscard]] Diagnostics take() noexcept { return std::move(diagnostics_); }

private:
    Diagnostics diagnostics_;
};

}  // namespace parasight
