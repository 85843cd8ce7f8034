#include "store/run_warnings.h"

#include <array>

namespace parasight::store {
namespace {

// The parameters of a warning: the Warning's fields, a column each.
enum class Field : std::uint8_t {
    subject, micro_batches, requested_micro_batches, operation, layers, first_layer, npu, needed_bytes,
    capacity_bytes, tensor, time_s, stage, model_state_bytes, activation_bytes, runtime_bytes, gpu_time_s,
};
constexpr std::array<std::string_view, 16> field_columns{
    "subject", "micro_batches", "requested_micro_batches", "operation", "layers", "first_layer", "npu",
    "needed_bytes", "capacity_bytes", "tensor", "time_s", "stage", "model_state_bytes", "activation_bytes",
    "runtime_bytes", "gpu_time_s"};

// The fields each code has (common/warning.h); the others are stored as NULL.
std::vector<Field> fields_of(WarningCode code) {
    using F = Field;
    switch (code) {
        case WarningCode::in_flight_capped: return {F::subject, F::micro_batches};
        case WarningCode::recomputation_frees_nothing: return {F::subject, F::operation, F::layers, F::first_layer};
        case WarningCode::out_of_memory:
            return {F::subject, F::npu, F::needed_bytes, F::capacity_bytes, F::tensor, F::time_s};
        case WarningCode::in_flight_cap_without_effect:
            return {F::subject, F::requested_micro_batches, F::micro_batches};
        case WarningCode::implausible_iteration_time: return {F::time_s};
        case WarningCode::what_if_matches_nothing: return {F::subject};
        case WarningCode::memory_bound_exceeded:
            return {F::subject,       F::stage,          F::needed_bytes,  F::model_state_bytes, F::activation_bytes,
                    F::runtime_bytes, F::micro_batches, F::capacity_bytes};
        case WarningCode::offload_over_capacity:
            return {F::subject, F::npu, F::needed_bytes, F::capacity_bytes};
        case WarningCode::host_bound_layers: return {F::subject, F::layers, F::time_s, F::gpu_time_s};
    }
    return {F::subject};
}

void bind_field(Statement& insert, Field field, const Warning& warning) {
    const std::string_view column = field_columns[static_cast<std::size_t>(field)];
    switch (field) {
        case Field::subject: insert.bind(column, std::string_view(warning.subject)); break;
        case Field::micro_batches: insert.bind(column, std::int64_t{warning.micro_batches}); break;
        case Field::requested_micro_batches: insert.bind(column, std::int64_t{warning.requested_micro_batches}); break;
        case Field::operation: insert.bind(column, std::string_view(warning.operation)); break;
        case Field::layers: insert.bind(column, std::int64_t{warning.layers}); break;
        case Field::first_layer: insert.bind(column, std::int64_t{warning.first_layer}); break;
        case Field::npu: insert.bind(column, warning.npu); break;
        case Field::needed_bytes: insert.bind(column, warning.needed_bytes); break;
        case Field::capacity_bytes: insert.bind(column, warning.capacity_bytes); break;
        case Field::tensor: insert.bind(column, std::string_view(warning.tensor)); break;
        case Field::time_s: insert.bind(column, warning.time_s); break;
        case Field::stage: insert.bind(column, std::int64_t{warning.stage}); break;
        case Field::model_state_bytes: insert.bind(column, warning.model_state_bytes); break;
        case Field::activation_bytes: insert.bind(column, warning.activation_bytes); break;
        case Field::runtime_bytes: insert.bind(column, warning.runtime_bytes); break;
        case Field::gpu_time_s: insert.bind(column, warning.gpu_time_s); break;
    }
}

// Column `column` of `row` into the Warning's field; NULL leaves the field as it is.
void read_field(const Statement& row, int column, Field field, Warning& warning) {
    if (row.is_null(column)) return;
    const auto whole = [&] { return static_cast<int>(row.integer(column)); };
    switch (field) {
        case Field::subject: warning.subject = row.text(column); break;
        case Field::micro_batches: warning.micro_batches = whole(); break;
        case Field::requested_micro_batches: warning.requested_micro_batches = whole(); break;
        case Field::operation: warning.operation = row.text(column); break;
        case Field::layers: warning.layers = whole(); break;
        case Field::first_layer: warning.first_layer = whole(); break;
        case Field::npu: warning.npu = row.integer(column); break;
        case Field::needed_bytes: warning.needed_bytes = row.real(column); break;
        case Field::capacity_bytes: warning.capacity_bytes = row.real(column); break;
        case Field::tensor: warning.tensor = row.text(column); break;
        case Field::time_s: warning.time_s = row.real(column); break;
        case Field::stage: warning.stage = whole(); break;
        case Field::model_state_bytes: warning.model_state_bytes = row.real(column); break;
        case Field::activation_bytes: warning.activation_bytes = row.real(column); break;
        case Field::runtime_bytes: warning.runtime_bytes = row.real(column); break;
        case Field::gpu_time_s: warning.gpu_time_s = row.real(column); break;
    }
}

std::string field_list() {
    std::string text;
    for (const std::string_view column : field_columns) {
        text += ", ";
        text += column;
    }
    return text;
}

}  // namespace

std::optional<std::string> insert_run_warning(Database& database, std::int64_t run_id, std::string_view role,
                                              std::int64_t position, const Warning& warning) {
    // The code's parameters, each a column; the others stay NULL. A runtime of 0 is none counted (the device gave no
    // context_memory): NULL too — which is also how schema version 3's conversion of sentences, made before the
    // column existed, stores the warnings of version 2.
    std::vector<Field> fields = fields_of(warning.code);
    std::erase_if(fields, [&](Field field) { return field == Field::runtime_bytes && warning.runtime_bytes <= 0.0; });
    std::string columns;
    std::string values;
    for (const Field field : fields) {
        const std::string_view column = field_columns[static_cast<std::size_t>(field)];
        columns += ", " + std::string(column);
        values += ", :" + std::string(column);
    }
    Expected<Statement*> insert = database.reused("INSERT INTO run_warnings (run_id, role, position, code" + columns +
                                                  ") VALUES (:run_id, :role, :position, :code" + values + ")");
    if (!insert) return insert.error();
    insert.value()->bind("run_id", run_id).bind("role", role).bind("position", position);
    insert.value()->bind("code", name_of(warning.code, warning_code_names));
    for (const Field field : fields) bind_field(*insert.value(), field, warning);
    return insert.value()->run();
}

Expected<std::map<std::int64_t, RunWarnings>> read_run_warnings(Database& database, const std::string& run_filter) {
    Expected<Statement> select = database.prepare("SELECT run_id, role, code" + field_list() +
                                                  " FROM run_warnings WHERE " + run_filter +
                                                  " ORDER BY run_id, role, position");
    if (!select) return Error{select.error()};
    std::map<std::int64_t, RunWarnings> by_run;
    std::string unknown;
    const auto problem = select.value().each_row([&](const Statement& row) {
        const std::optional<WarningCode> code = value_of(row.text(2), warning_code_names);
        if (!code) {
            unknown = row.text(2);
            return;
        }
        Warning warning;
        warning.code = *code;
        for (std::size_t f = 0; f < field_columns.size(); ++f) {
            read_field(row, static_cast<int>(f) + 3, static_cast<Field>(f), warning);
        }
        RunWarnings& run = by_run[row.integer(0)];
        if (row.text(1) == "reason") {
            run.reason = std::move(warning);
        } else {
            run.warnings.push_back(std::move(warning));
        }
    });
    if (problem) return Error{*problem};
    if (!unknown.empty()) return Error{"holds a warning of code '" + unknown + "', which this version does not know"};
    return by_run;
}

std::string warning_codes_column(std::string_view run_alias) {
    const std::string alias(run_alias);
    return "(SELECT json_group_array(code) FROM (SELECT code FROM run_warnings w WHERE w.run_id = " + alias +
           ".id AND w.role = 'warning' ORDER BY w.position)) AS warnings";
}

}  // namespace parasight::store
