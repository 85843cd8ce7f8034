#include "document/loaded_scenario_file.h"

#include "scenario_file/relocate_paths.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/sweep_section.h"

#include <QFileInfo>

namespace parasight::gui {

LoadedScenarioFile load_scenario_for_document(const QString& path) {
    LoadedScenarioFile file;
    const QFileInfo info(path);
    file.path = info.exists() ? info.canonicalFilePath() : path;
    LoadResult loaded = load_scenario_file(path.toStdString());
    if (!loaded.ok()) {
        file.problems = std::move(loaded.diagnostics);
        return file;
    }
    // Held with absolute paths, so that Save As into another folder still names the same tables.
    file.scenario = with_absolute_paths(loaded.scenario->value(), info.absolutePath().toStdString());
    file.validation = validate(*file.scenario);
    if (file.validation.ok()) file.strategy_tree = std::make_shared<const StrategyTree>(*file.validation.scenario);
    file.sweep_yaml = read_sweep_section_file(path.toStdString()).yaml;
    return file;
}

}  // namespace parasight::gui
