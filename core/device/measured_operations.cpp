#include "device/measured_operations.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "units/quantity.h"

#include <algorithm>
#include <vector>

namespace parasight {

const std::array<std::string_view, 13> measured_operation_names{
    "embedding", "layernorm", "qkv",      "attention_scores", "softmax_dropout", "attention_values", "attention_out",
    "dropout_residual", "mlp_up", "activation", "mlp_down", "logits", "optimizer"};

std::string measured_key(std::string_view operation, Pass pass) {
    return std::string(operation) + (pass == Pass::forward ? "/forward" : "/backward");
}

namespace {

struct Field {
    std::string_view text;
    int column;  // 1-based
};

std::vector<Field> split_fields(std::string_view line) {
    std::vector<Field> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        std::string_view field = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        std::size_t lead = 0;
        while (lead < field.size() && (field[lead] == ' ' || field[lead] == '\t')) ++lead;
        std::size_t end = field.size();
        while (end > lead && (field[end - 1] == ' ' || field[end - 1] == '\t' || field[end - 1] == '\r')) --end;
        fields.push_back(Field{field.substr(lead, end - lead), static_cast<int>(start + lead) + 1});
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return fields;
}

}  // namespace

std::map<std::string, double> parse_measured_operations(std::string_view text, const std::string& file,
                                                        Diagnostics& diagnostics) {
    std::map<std::string, double> times;
    std::map<std::string, int> first_line;
    const std::vector<std::string_view> names(measured_operation_names.begin(), measured_operation_names.end());
    const std::vector<std::string_view> passes{"forward", "backward"};
    auto error = [&](int line, int column, std::string message) {
        diagnostics.push_back(Diagnostic{SourceLocation{file, line, column}, std::move(message), {}});
    };
    bool header_seen = false;
    int line_number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() + 1 : end + 1;
        ++line_number;
        const auto fields = split_fields(line);
        if (fields.size() == 1 && (fields[0].text.empty() || fields[0].text.front() == '#')) continue;
        if (!fields.empty() && !fields[0].text.empty() && fields[0].text.front() == '#') continue;
        if (!header_seen) {
            header_seen = true;
            if (fields.size() != 3 || fields[0].text != "operation" || fields[1].text != "pass" || fields[2].text != "time") {
                error(line_number, 1, "the first line must be the header 'operation,pass,time'");
                return times;
            }
            continue;
        }
        if (fields.size() != 3) {
            error(line_number, 1, "expected 3 fields (operation,pass,time), found " + std::to_string(fields.size()));
            continue;
        }
        const std::string operation(fields[0].text);
        if (std::find(names.begin(), names.end(), fields[0].text) == names.end()) {
            error(line_number, fields[0].column, "unknown operation " + in_quotes(operation) +
                                                     did_you_mean_suffix(operation, names) + "; known: " +
                                                     join_alternatives(names));
            continue;
        }
        if (fields[1].text != "forward" && fields[1].text != "backward") {
            error(line_number, fields[1].column, "pass must be forward or backward, not " +
                                                     in_quotes(fields[1].text) +
                                                     did_you_mean_suffix(fields[1].text, passes));
            continue;
        }
        const auto time = units::parse_quantity(fields[2].text, units::Dimension::time);
        if (!time) {
            error(line_number, fields[2].column, "time: " + time.error());
            continue;
        }
        if (*time < 0.0 || *time > 3600.0) {
            error(line_number, fields[2].column, "time must be between 0 s and 1 hour, not " +
                                                     in_quotes(fields[2].text));
            continue;
        }
        const std::string key = measured_key(operation, fields[1].text == "forward" ? Pass::forward : Pass::backward);
        if (const auto it = first_line.find(key); it != first_line.end()) {
            error(line_number, 1, operation + " " + std::string(fields[1].text) + " is measured twice (first at line " +
                                      std::to_string(it->second) + ")");
            continue;
        }
        first_line[key] = line_number;
        times[key] = *time;
    }
    if (!header_seen) error(1, 1, "the table is empty; it starts with the header 'operation,pass,time'");
    return times;
}

}  // namespace parasight
