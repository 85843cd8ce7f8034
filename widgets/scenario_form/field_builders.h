#pragma once
// The pieces scenario fields are made of (scenario_form/scenario_fields.h), for every editor of scenario values: a
// quantity with its unit or a plain number reached in the scenario by a function, read as the file writes it and
// written back from text as the file reads it, with the loader's words for text that does not parse.

#include "common/enum_names.h"
#include "scenario_form/scenario_fields.h"

#include <array>
#include <functional>

namespace parasight::gui {

[[nodiscard]] inline QString utf8_text(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The names of an enum's values, as the file writes them.
template <typename Enum, std::size_t N>
[[nodiscard]] QStringList enum_names(const std::array<EnumName<Enum>, N>& table) {
    QStringList list;
    for (const auto& entry : table) list << utf8_text(entry.name);
    return list;
}

[[nodiscard]] ScenarioField make_field(QString path, QString section, QString label, FieldKind kind,
                                       units::Dimension dimension = units::Dimension::size);
[[nodiscard]] ScenarioField quantity_field(QString path, QString section, QString label, units::Dimension dimension,
                                           std::function<double&(Scenario&)> at);
[[nodiscard]] ScenarioField number_field(QString path, QString section, QString label,
                                         std::function<double&(Scenario&)> at);
// A whole number of at least 1 held in an int where 0 means not given (the file leaves the key out): empty text
// writes 0, and the empty editor shows `placeholder`, what leaving it out means.
[[nodiscard]] ScenarioField positive_or_unset_field(QString path, QString section, QString label, QString placeholder,
                                                    std::function<int&(Scenario&)> at);
// A quantity held in a double where 0 means not given (the file leaves the key out): empty text writes 0, and the
// empty editor shows `placeholder`, what leaving it out means.
[[nodiscard]] ScenarioField quantity_or_unset_field(QString path, QString section, QString label, QString placeholder,
                                                    units::Dimension dimension, std::function<double&(Scenario&)> at);

}  // namespace parasight::gui
