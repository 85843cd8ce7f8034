#include "document/scenario_document.h"

#include "document/scenario_edit_command.h"
#include "io/atomic_output.h"
#include "scenario/scenario_names.h"
#include "scenario_file/relocate_paths.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "scenario_file/sweep_section.h"
#include "validation/validate.h"

#include <QFileInfo>

namespace parasight::gui {

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent) {
    connect(&undo_stack_, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
    replace(Scenario{});
}

QString ScenarioDocument::displayName() const {
    return file_path_.isEmpty() ? tr("Untitled") : QFileInfo(file_path_).fileName();
}

bool ScenarioDocument::openFile(const QString& path, Diagnostics& problems) {
    LoadedScenarioFile file = load_scenario_for_document(path);
    if (!file.ok()) {
        problems = std::move(file.problems);
        return false;
    }
    openLoaded(std::move(file));
    return true;
}

void ScenarioDocument::openLoaded(LoadedScenarioFile file) {
    // The file by its canonical path, so that the autosave, the recent files and a later Save name it wherever the
    // application's working folder is then.
    reset(std::move(*file.scenario), std::move(file.validation), std::move(file.strategy_tree), file.path,
          std::move(file.sweep_yaml));
}

bool ScenarioDocument::openText(std::string_view text, const std::string& name, Diagnostics& problems) {
    LoadResult loaded = load_scenario_text(text, name);
    if (!loaded.ok()) {
        problems = std::move(loaded.diagnostics);
        return false;
    }
    reset(loaded.scenario->value(), QString(), {});
    return true;
}

void ScenarioDocument::openNew(Scenario scenario, std::string sweep_yaml) {
    reset(std::move(scenario), QString(), std::move(sweep_yaml));
}

void ScenarioDocument::openRecovered(Scenario scenario, const QString& file_path, std::string sweep_yaml) {
    // A relative path (an autosave of an older version) names no file for certain: recovered untitled instead, so
    // that Save asks where rather than writing over whatever that path means now.
    reset(std::move(scenario), QFileInfo(file_path).isAbsolute() ? file_path : QString(), std::move(sweep_yaml));
    undo_stack_.resetClean();  // no state of the undo stack is the saved one
}

std::optional<QString> ScenarioDocument::saveAs(const QString& path) {
    auto output = AtomicOutput::open(path.toStdString());
    if (!output) return QString::fromStdString(output.error());
    // Written with paths relative to the file's own folder, as a user would write them next to it.
    (*output)->stream() << write_scenario_yaml(
        with_relative_paths(*scenario_, QFileInfo(path).absolutePath().toStdString()))
                        << sweep_yaml_;
    if (const auto error = (*output)->commit()) return QString::fromStdString(*error);
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (file_path_ != canonical) {
        file_path_ = canonical;
        Q_EMIT filePathChanged(file_path_);
    }
    undo_stack_.setClean();
    return std::nullopt;
}

void ScenarioDocument::edit(const QString& text, const QString& merge_key,
                            const std::function<void(Scenario&)>& change) {
    if (locked_) {
        Q_EMIT editRefused();
        Q_EMIT scenarioChanged();
        return;
    }
    Scenario after = *scenario_;
    change(after);
    // "GPT-3 175B on 1024 A100-80GB" must not survive an edit to 512 devices into the saved file.
    keep_names_true(name_facts(*scenario_), after);
    if (after == *scenario_) return;  // nothing to undo
    undo_stack_.push(new ScenarioEditCommand(*this, text, merge_key, *scenario_, std::move(after)));
}

void ScenarioDocument::setLocked(bool locked) {
    if (locked == locked_) return;
    locked_ = locked;
    Q_EMIT lockedChanged(locked_);
}

void ScenarioDocument::replace(Scenario scenario) {
    Validation validation = validate(scenario);
    replace(std::move(scenario), std::move(validation));
}

void ScenarioDocument::replace(Scenario scenario, Validation validation, std::shared_ptr<const StrategyTree> tree) {
    scenario_ = std::make_shared<const Scenario>(std::move(scenario));
    problems_ = std::move(validation.diagnostics);
    validated_ = validation.scenario ? std::make_shared<const ValidatedScenario>(std::move(*validation.scenario))
                                     : nullptr;
    if (!validated_) {
        strategy_tree_.reset();
    } else {
        strategy_tree_ = tree ? std::move(tree) : std::make_shared<const StrategyTree>(*validated_);
    }
    Q_EMIT scenarioChanged();
}

void ScenarioDocument::reset(Scenario scenario, QString file_path, std::string sweep_yaml) {
    Validation validation = validate(scenario);
    reset(std::move(scenario), std::move(validation), nullptr, std::move(file_path), std::move(sweep_yaml));
}

void ScenarioDocument::reset(Scenario scenario, Validation validation, std::shared_ptr<const StrategyTree> tree,
                             QString file_path, std::string sweep_yaml) {
    undo_stack_.clear();
    sweep_yaml_ = std::move(sweep_yaml);
    setLocked(false);
    replace(std::move(scenario), std::move(validation), std::move(tree));
    if (file_path_ != file_path) {
        file_path_ = std::move(file_path);
        Q_EMIT filePathChanged(file_path_);
    }
    undo_stack_.setClean();
    Q_EMIT replaced();
}

}  // namespace parasight::gui
