#pragma once
// The scenario's editable fields, as data: for each, the scenario path that diagnostics name it by
// ("training.micro_batch", "cluster.topology[1].bandwidth"), its section and label, the kind of editor, how to read
// it as text and how to write text back — whole numbers, quantities with units and choices accepted as the scenario
// file accepts them ("300 GB/s"). A value that parses is written even when out of range, so that validate() names
// the problem as the loader would; text that does not parse is refused with the loader's words.

#include "scenario/scenario.h"
#include "units/quantity.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parasight::gui {

enum class FieldKind { text, integer, quantity, number, choice, flag };

struct ScenarioField {
    QString path;
    QString section;  // "Model", "Training", "Cluster", "Topology dimension 0", …, "Parallelism", "Simulation"
    QString label;
    FieldKind kind = FieldKind::text;
    units::Dimension dimension = units::Dimension::size;  // of a quantity
    QStringList choices;                                   // of a choice, as written in the file
    QString placeholder;  // shown in an empty editor: what an optional value left out means
    std::function<QString(const Scenario&)> read;
    // Writes `text` into the scenario; the reason when it cannot be read as this field's value.
    std::function<std::optional<std::string>(Scenario&, const QString&)> write;
};

// The fields of this scenario: the topology has a row of fields per dimension it has.
[[nodiscard]] std::vector<ScenarioField> scenario_fields(const Scenario& scenario);

// Whether a problem about `problem_path` belongs to the field at `field_path`: the field itself or a value inside it.
[[nodiscard]] bool path_belongs_to(const std::string& problem_path, const QString& field_path);

}  // namespace parasight::gui
