#include "scenario_form/field_builders.h"

#include "common/message_text.h"
#include "common/number_text.h"

#include <limits>

namespace parasight::gui {

ScenarioField make_field(QString path, QString section, QString label, FieldKind kind, units::Dimension dimension) {
    ScenarioField field;
    field.path = std::move(path);
    field.section = std::move(section);
    field.label = std::move(label);
    field.kind = kind;
    field.dimension = dimension;
    return field;
}

ScenarioField quantity_field(QString path, QString section, QString label, units::Dimension dimension,
                             std::function<double&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::quantity, dimension);
    field.read = [at, dimension](const Scenario& scenario) {
        return QString::fromStdString(units::format_quantity(at(const_cast<Scenario&>(scenario)), dimension));
    };
    field.write = [at, path, dimension](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const auto value = units::parse_quantity(text.trimmed().toStdString(), dimension);
        if (!value) return path.toStdString() + ": " + value.error();
        at(scenario) = *value;
        return std::nullopt;
    };
    return field;
}

ScenarioField number_field(QString path, QString section, QString label, std::function<double&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::number);
    field.read = [at](const Scenario& scenario) {
        return QString::fromStdString(units::format_number(at(const_cast<Scenario&>(scenario))));
    };
    field.write = [at, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        const auto value = parse_number(written);
        if (!value) {
            return path.toStdString() + " must be a number, not " + in_quotes(written);
        }
        at(scenario) = *value;
        return std::nullopt;
    };
    return field;
}

ScenarioField quantity_or_unset_field(QString path, QString section, QString label, QString placeholder,
                                      units::Dimension dimension, std::function<double&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::quantity, dimension);
    field.placeholder = std::move(placeholder);
    field.read = [at, dimension](const Scenario& scenario) {
        const double value = at(const_cast<Scenario&>(scenario));  // read only
        return value > 0.0 ? QString::fromStdString(units::format_quantity(value, dimension)) : QString();
    };
    field.write = [at, path, dimension](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        if (written.empty()) {
            at(scenario) = 0.0;
            return std::nullopt;
        }
        const auto value = units::parse_quantity(written, dimension);
        if (!value) return path.toStdString() + ": " + value.error();
        at(scenario) = *value;
        return std::nullopt;
    };
    return field;
}

ScenarioField positive_or_unset_field(QString path, QString section, QString label, QString placeholder,
                                      std::function<int&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::integer);
    field.placeholder = std::move(placeholder);
    field.read = [at](const Scenario& scenario) {
        const int value = at(const_cast<Scenario&>(scenario));  // read only
        return value > 0 ? QString::number(value) : QString();
    };
    field.write = [at, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        if (written.empty()) {
            at(scenario) = 0;
            return std::nullopt;
        }
        const auto value = parse_integer(written);
        if (!value || *value < 1 || *value > std::numeric_limits<int>::max()) {
            return path.toStdString() + " must be a whole number of at least 1 (or empty), not " + in_quotes(written);
        }
        at(scenario) = static_cast<int>(*value);
        return std::nullopt;
    };
    return field;
}

}  // namespace parasight::gui
