#pragma once
// A scenario file read for the document, on any thread: its canonical path, the scenario as the document holds it
// (paths inside absolute), that scenario's validation and the file's sweep section — or, when the file does not
// load, the loader's FILE:LINE:COL problems and nothing else. Reading a large file takes seconds (the largest strategy
// tree a scenario may hold, 100 000 entries, about a second; 100 000 unknown keys as long), so the window reads on a
// worker (ScenarioFileLoader) and the document only adopts the value (ScenarioDocument::openLoaded).

#include "diagnostics/diagnostic.h"
#include "scenario/scenario.h"
#include "strategy/strategy_tree.h"
#include "validation/validate.h"

#include <QString>

#include <memory>
#include <optional>
#include <string>

namespace parasight::gui {

struct LoadedScenarioFile {
    QString path;  // absolute and canonical when the file exists; as given otherwise
    // Set when the file loads.
    std::optional<Scenario> scenario;
    Validation validation;  // of `scenario`
    // Its strategy tree when it is valid, built here too: for the largest tree (100 000 entries) building it takes
    // a good part of the GUI thread's 50 ms.
    std::shared_ptr<const StrategyTree> strategy_tree;
    std::string sweep_yaml;
    // Set when it does not: why, as the loader words it (never empty then).
    Diagnostics problems;

    [[nodiscard]] bool ok() const noexcept { return scenario.has_value(); }
};

// Reads `path` as ScenarioDocument::openFile would open it; safe on any thread.
[[nodiscard]] LoadedScenarioFile load_scenario_for_document(const QString& path);

}  // namespace parasight::gui
