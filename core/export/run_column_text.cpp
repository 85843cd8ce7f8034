#include "export/run_column_text.h"

#include "units/quantity.h"

namespace parasight {

std::string run_column_text(std::string_view column, double value, bool signed_value) {
    using units::Dimension;
    const auto ends_with = [&](std::string_view suffix) {
        return column.size() >= suffix.size() && column.substr(column.size() - suffix.size()) == suffix;
    };
    std::string text;
    if (column == "samples_per_s") {
        text = units::format_fixed(value, 2) + " samples/s";
    } else if (column == "tokens_per_s") {
        text = units::format_fixed(value, 0) + " tokens/s";
    } else if (column == "mfu" || column == "hfu" || ends_with("_share")) {
        text = units::format_fixed(100.0 * value, 1) + "%";
    } else if (column == "model_tflops_per_device") {
        text = units::format_fixed(value, 1) + " TFLOP/s";
    } else if (ends_with("_flops_per_iteration")) {
        text = units::format_number(value) + " FLOP";
    } else if (ends_with("_bytes")) {
        text = units::format_readable(value, Dimension::size, 4, true);
    } else if (ends_with("_s")) {
        text = units::format_readable(value, Dimension::time);
    } else {
        text = units::format_number(value);
    }
    return signed_value && value > 0.0 ? "+" + text : text;
}

bool is_counted_run_column(std::string_view column) noexcept {
    return column == "devices" || column == "events" || column == "oom_npu";
}

}  // namespace parasight
