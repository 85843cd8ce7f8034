#include "whatif/what_if_fields.h"

#include "common/did_you_mean.h"
#include "common/index_range_text.h"
#include "common/message_text.h"
#include "scenario/scenario_limits.h"
#include "scenario_form/field_builders.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("WhatIfFields", text); }

const QString any_choice = QStringLiteral("any");
const QString every_choice = QStringLiteral("every");

// An optional enum: `unset` (the first choice) leaves the key out.
template <typename Enum, std::size_t N>
ScenarioField optional_enum_field(const std::string& path, QString label, const QString& unset,
                                  const std::array<EnumName<Enum>, N>& table,
                                  std::function<std::optional<Enum>&(Scenario&)> at) {
    ScenarioField field = make_field(QString::fromStdString(path), tr("What-if"), std::move(label), FieldKind::choice);
    field.choices = QStringList{unset} + enum_names(table);
    field.read = [at, &table, unset](const Scenario& scenario) {
        const auto& value = at(const_cast<Scenario&>(scenario));  // read only
        return value ? utf8_text(name_of(*value, table)) : unset;
    };
    field.write = [at, &table, path, unset,
                   choices = field.choices](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const QString written = text.trimmed();
        if (written == unset) {
            at(scenario).reset();
            return std::nullopt;
        }
        const auto value = value_of(written.toStdString(), table);
        if (!value) {
            std::vector<std::string> words;
            for (const QString& choice : choices) words.push_back(choice.toStdString());
            const std::vector<std::string_view> alternatives(words.begin(), words.end());
            return path + ": unknown value " + in_quotes(written.toStdString()) + "; expected " +
                   join_alternatives(alternatives);
        }
        at(scenario) = *value;
        return std::nullopt;
    };
    return field;
}

ScenarioField layers_field(const std::string& path, std::function<std::optional<LayerRange>&(Scenario&)> at) {
    ScenarioField field = make_field(QString::fromStdString(path), tr("What-if"), tr("Layers"), FieldKind::text);
    field.placeholder = tr("every layer");
    field.read = [at](const Scenario& scenario) {
        const auto& layers = at(const_cast<Scenario&>(scenario));  // read only
        return layers ? QString::fromStdString(index_range_text(layers->first, layers->last)) : QString();
    };
    field.write = [at, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        if (written.empty()) {
            at(scenario).reset();
            return std::nullopt;
        }
        const auto range = parse_index_range(written);
        constexpr auto int_max = std::numeric_limits<int>::max();
        constexpr auto int_min = std::numeric_limits<int>::min();
        if (!range || range->first < int_min || range->first > int_max || range->second < int_min ||
            range->second > int_max) {
            return path + " must be a layer number or a range of them written first..last, such as 4..11, not " +
                   in_quotes(written);
        }
        at(scenario) = LayerRange{static_cast<int>(range->first), static_cast<int>(range->second)};
        return std::nullopt;
    };
    return field;
}

// `every_npu`: what an empty list means, when it may be empty (degraded links: every NPU's links).
ScenarioField npus_field(const std::string& path, const QString& every_npu,
                         std::function<std::vector<std::int64_t>&(Scenario&)> at) {
    ScenarioField field = make_field(QString::fromStdString(path), tr("What-if"), tr("NPUs"), FieldKind::text);
    field.placeholder = every_npu;
    field.read = [at](const Scenario& scenario) {
        return QString::fromStdString(index_list_text(at(const_cast<Scenario&>(scenario))));  // read only
    };
    field.write = [at, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        auto npus = parse_npu_list(text, path);
        if (!npus) return npus.error();
        at(scenario) = std::move(*npus);
        return std::nullopt;
    };
    return field;
}

ScenarioField dimension_field(const std::string& path, int dimensions,
                              std::function<std::optional<int>&(Scenario&)> at) {
    ScenarioField field = make_field(QString::fromStdString(path), tr("What-if"), tr("Dimension"), FieldKind::choice);
    field.choices << every_choice;
    for (int d = 0; d < dimensions; ++d) field.choices << QString::number(d);
    field.read = [at](const Scenario& scenario) {
        const auto& dimension = at(const_cast<Scenario&>(scenario));  // read only
        return dimension ? QString::number(*dimension) : every_choice;
    };
    field.write = [at, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const QString written = text.trimmed();
        if (written == every_choice) {
            at(scenario).reset();
            return std::nullopt;
        }
        bool ok = false;
        const int dimension = written.toInt(&ok);
        if (!ok) return path + " must be a dimension number or every, not " + in_quotes(written.toStdString());
        at(scenario) = dimension;
        return std::nullopt;
    };
    return field;
}

}  // namespace

Expected<std::vector<std::int64_t>> parse_npu_list(const QString& text, const std::string& path) {
    std::vector<std::int64_t> npus;
    for (const QString& item : text.split(QLatin1Char(','))) {
        const std::string written = item.trimmed().toStdString();
        if (written.empty() && text.trimmed().isEmpty()) break;
        const auto range = parse_index_range(written);
        if (!range) {
            return Error{path + " must list NPU ids or ranges of them written first..last, such as 0, 8..15; " +
                         in_quotes(written) + " is neither"};
        }
        if (range->first > range->second) {
            return Error{path + " runs from " + std::to_string(range->first) + " down to " +
                         std::to_string(range->second) + "; write the smaller end first"};
        }
        // Counted before they are listed: 0..1000000000000 must not fill the memory.
        const auto listed = static_cast<std::int64_t>(npus.size());
        if (range->second - range->first >= limits::max_what_if_npus - listed) {
            const std::string limit = std::to_string(limits::max_what_if_npus);
            return Error{path + " lists more than " + limit + " NPUs; the limit is " + limit};
        }
        for (std::int64_t npu = range->first; npu <= range->second; ++npu) npus.push_back(npu);
    }
    std::sort(npus.begin(), npus.end());
    npus.erase(std::unique(npus.begin(), npus.end()), npus.end());
    return npus;
}

std::vector<ScenarioField> what_if_rule_fields(const Scenario& scenario, WhatIfList list, int row) {
    const std::string path = what_if_rule_path(list, row);
    const auto index = static_cast<std::size_t>(row);
    std::vector<ScenarioField> fields;
    switch (list) {
    case WhatIfList::collective_delays: {
        const auto rule = [index](Scenario& s) -> CollectiveDelay& { return s.what_if.collective_delays.at(index); };
        fields.push_back(optional_enum_field<ParallelAxis>(
            path + ".group", tr("Group"), any_choice, parallel_axis_names,
            [rule](Scenario& s) -> std::optional<ParallelAxis>& { return rule(s).group; }));
        fields.push_back(optional_enum_field<CommOperation>(
            path + ".operation", tr("Operation"), any_choice, comm_operation_names,
            [rule](Scenario& s) -> std::optional<CommOperation>& { return rule(s).operation; }));
        fields.push_back(layers_field(path + ".layers",
                                      [rule](Scenario& s) -> std::optional<LayerRange>& { return rule(s).layers; }));
        fields.push_back(quantity_field(QString::fromStdString(path + ".delay"), tr("What-if"), tr("Delay"),
                                        units::Dimension::time,
                                        [rule](Scenario& s) -> double& { return rule(s).delay_s; }));
        break;
    }
    case WhatIfList::slow_devices: {
        const auto rule = [index](Scenario& s) -> SlowDevices& { return s.what_if.slow_devices.at(index); };
        fields.push_back(npus_field(path + ".npus", QString(),
                                    [rule](Scenario& s) -> std::vector<std::int64_t>& { return rule(s).npus; }));
        fields.push_back(number_field(QString::fromStdString(path + ".compute_time_factor"), tr("What-if"),
                                      tr("Compute time ×"),
                                      [rule](Scenario& s) -> double& { return rule(s).compute_time_factor; }));
        break;
    }
    case WhatIfList::degraded_links: {
        const auto rule = [index](Scenario& s) -> DegradedLinks& { return s.what_if.degraded_links.at(index); };
        fields.push_back(dimension_field(path + ".dimension", static_cast<int>(scenario.cluster.topology.size()),
                                         [rule](Scenario& s) -> std::optional<int>& { return rule(s).dimension; }));
        fields.push_back(npus_field(path + ".npus", tr("every NPU"),
                                    [rule](Scenario& s) -> std::vector<std::int64_t>& { return rule(s).npus; }));
        fields.push_back(number_field(QString::fromStdString(path + ".bandwidth_factor"), tr("What-if"),
                                      tr("Bandwidth ×"),
                                      [rule](Scenario& s) -> double& { return rule(s).bandwidth_factor; }));
        break;
    }
    }
    return fields;
}

}  // namespace parasight::gui
