#include "store/run_comparison.h"

#include "export/json_writer.h"
#include "store/stored_rows_writer.h"
#include "store/stored_table.h"

namespace parasight {

std::optional<double> ComparedColumn::difference() const {
    const auto x = stored_number(a);
    const auto y = stored_number(b);
    if (!x || !y) return std::nullopt;
    return *y - *x;
}

std::optional<double> ComparedColumn::ratio() const {
    const auto x = stored_number(a);
    const auto y = stored_number(b);
    if (!x || !y || *x == 0.0) return std::nullopt;
    return *y / *x;
}

Expected<RunComparison, ComparisonProblem> compare_runs(ResultStore& store, std::int64_t a, std::int64_t b) {
    StoredTable first;
    StoredTable second;
    if (auto problem = store.read_run(a, first)) return ComparisonProblem{true, *problem};
    if (auto problem = store.read_run(b, second)) return ComparisonProblem{true, *problem};
    RunComparison comparison{a, b, {}, {}};
    // Which inputs differ: the two runs' scenarios, path by path.
    if (first.column("scenario_hash") >= 0) {
        Expected<std::string> before = store.scenario_yaml(stored_text(first.at(0, "scenario_hash")));
        if (!before) return ComparisonProblem{false, before.error()};
        Expected<std::string> after = store.scenario_yaml(stored_text(second.at(0, "scenario_hash")));
        if (!after) return ComparisonProblem{false, after.error()};
        comparison.inputs = scenario_differences(before.value(), after.value());
    }
    for (std::size_t c = 0; c < first.names.size(); ++c) {
        if (first.names[c] == "id") continue;
        comparison.columns.push_back({first.names[c], first.rows.front()[c], second.rows.front()[c]});
    }
    return comparison;
}

std::string run_comparison_json(const RunComparison& comparison) {
    JsonWriter json;
    json.begin_object().key("a").value(comparison.a).key("b").value(comparison.b).key("inputs").begin_array();
    for (const ScenarioDifference& difference : comparison.inputs) {
        json.begin_object().key("path").value(difference.path).key("a").value(difference.before);
        json.key("b").value(difference.after).end_object();
    }
    json.end_array().key("metrics").begin_object();
    for (const ComparedColumn& column : comparison.columns) {
        json.key(column.name).begin_object().key("a");
        write_stored_value(json, column.a);
        json.key("b");
        write_stored_value(json, column.b);
        if (const auto difference = column.difference()) json.key("difference").value(*difference);
        json.end_object();
    }
    json.end_object().end_object();
    return json.text();
}

}  // namespace parasight
