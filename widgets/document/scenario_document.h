#pragma once
// The scenario being edited: a Scenario value, the file it came from, whether it changed since it was saved, and the
// undo stack through which every edit goes (each edit a ScenarioEditCommand). It validates the value after every
// change with the core's validate() — the same checks the loader makes — and keeps the result: the ValidatedScenario
// the runner simulates, or the diagnostics the problems panel lists (each with the scenario path of its field).

#include "diagnostics/diagnostic.h"
#include "document/loaded_scenario_file.h"
#include "scenario/scenario.h"
#include "scenario/validated_scenario.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <functional>
#include <memory>

namespace parasight::gui {

class ScenarioDocument : public QObject {
    Q_OBJECT

public:
    explicit ScenarioDocument(QObject* parent = nullptr);

    [[nodiscard]] const Scenario& scenario() const noexcept { return *scenario_; }
    // The same value, shared: never changed once made (an edit makes a new one), so that a worker can read it while
    // the document goes on — without a copy, which for the largest strategy trees takes the GUI thread ~100 ms.
    [[nodiscard]] std::shared_ptr<const Scenario> sharedScenario() const noexcept { return scenario_; }
    // The current value once it passes validate(), or null: an invalid scenario is never simulated.
    [[nodiscard]] std::shared_ptr<const ValidatedScenario> validated() const noexcept { return validated_; }
    // The strategy tree of validated(), or null with it.
    [[nodiscard]] std::shared_ptr<const StrategyTree> strategyTree() const noexcept { return strategy_tree_; }
    [[nodiscard]] const Diagnostics& problems() const noexcept { return problems_; }
    // Absolute and canonical (links resolved), or empty for a scenario never saved.
    [[nodiscard]] const QString& filePath() const noexcept { return file_path_; }
    // "default.yaml", or "Untitled" for a scenario never saved.
    [[nodiscard]] QString displayName() const;
    [[nodiscard]] bool isModified() const { return !undo_stack_.isClean(); }
    [[nodiscard]] QUndoStack* undoStack() noexcept { return &undo_stack_; }

    // Replaces the document with a scenario read from `path`, forgetting the undo history. On failure the document
    // is unchanged and `problems` holds the loader's FILE:LINE:COL diagnostics. Reads on the calling thread: the
    // window reads on a worker instead (ScenarioFileLoader) and adopts the result with openLoaded().
    bool openFile(const QString& path, Diagnostics& problems);
    // Replaces the document with a file read by load_scenario_for_document(), which must have loaded (file.ok()); its
    // validation is adopted, not made again.
    void openLoaded(LoadedScenarioFile file);
    // Replaces the document with a scenario read from text (a bundled preset, a new scenario), with no file.
    bool openText(std::string_view text, const std::string& name, Diagnostics& problems);
    // Replaces the document with a new scenario that has no file yet (one made from a preset), with the preset's
    // sweep section (`sweep_yaml` as read_sweep_section gives it; empty: none).
    void openNew(Scenario scenario, std::string sweep_yaml);
    // Replaces the document with a scenario recovered after a crash: it belongs to `file_path` (empty, or a
    // relative path that names no file for certain: untitled) and counts as unsaved until it is saved; `sweep_yaml`
    // is the sweep section its copy carried.
    void openRecovered(Scenario scenario, const QString& file_path, std::string sweep_yaml = {});
    // The opened file's sweep section as YAML (scenario_file/sweep_section.h), written back after the scenario by
    // Save and by the autosave; empty when it had none.
    [[nodiscard]] const std::string& sweepSection() const noexcept { return sweep_yaml_; }
    // Writes the scenario as YAML to `path` (atomically: a failed save leaves the file as it was) and makes it the
    // document's file. On failure returns the reason and changes nothing. The document holds the paths inside
    // (measured_operations) absolute; the file gets them relative to its folder, so a copy saved elsewhere still
    // names the same tables. A sweep section the opened file had is written back after the scenario.
    [[nodiscard]] std::optional<QString> saveAs(const QString& path);

    // An undoable edit: `change` patches a copy of the scenario. Consecutive edits with the same non-empty
    // `merge_key` (one field typed into character by character) merge into one undo step. Refused while locked:
    // editRefused, then scenarioChanged so that a view showing what was typed shows the value again.
    void edit(const QString& text, const QString& merge_key, const std::function<void(Scenario&)>& change);

    // A locked document refuses edits (a lesson step's scenario until the students press Try It); opening another
    // scenario unlocks it.
    void setLocked(bool locked);
    [[nodiscard]] bool isLocked() const noexcept { return locked_; }

Q_SIGNALS:
    // After every change of the value (an edit, an undo, an open); validated() and problems() are current.
    void scenarioChanged();
    void filePathChanged(const QString& path);
    // Another scenario replaced this one (opened, new, recovered), after its scenarioChanged: views drop what they
    // held of the one before.
    void replaced();
    void modifiedChanged(bool modified);
    void lockedChanged(bool locked);
    // An edit was refused: the document is locked.
    void editRefused();

private:
    friend class ScenarioEditCommand;
    void replace(Scenario scenario);  // sets the value and validates it; for the edit command
    // Sets the value with its validation and strategy tree (built here when not given).
    void replace(Scenario scenario, Validation validation, std::shared_ptr<const StrategyTree> tree = nullptr);
    // The sweep section comes in with the scenario, before anyone is told of it (the Sweeps tab counts its points).
    void reset(Scenario scenario, QString file_path, std::string sweep_yaml);
    void reset(Scenario scenario, Validation validation, std::shared_ptr<const StrategyTree> tree, QString file_path,
               std::string sweep_yaml);

    std::shared_ptr<const Scenario> scenario_ = std::make_shared<const Scenario>();
    std::shared_ptr<const ValidatedScenario> validated_;
    std::shared_ptr<const StrategyTree> strategy_tree_;
    Diagnostics problems_;
    QString file_path_;
    std::string sweep_yaml_;  // the opened file's sweep section, written back after the scenario on save
    QUndoStack undo_stack_;
    bool locked_ = false;
};

}  // namespace parasight::gui
