#pragma once
// The What-if tab (NeuronaBox, Liu et al. 2024 §3.3; docs/what-if.md). On the left the scenario's what_if rules,
// edited in place as undoable edits of the document — delays added to chosen collectives, slow devices, degraded
// links — which every run then applies (the Timeline draws injected delays in their own colour). On the right a
// delay sweep: one chosen kind of communication delayed by each of a range of delays, simulated on a worker
// (sweep_delay() as a job of run/job_runner.h), drawn as iteration time against delay with the knee (the delay the overlap
// hides) marked, and said in a sentence.

#include "document/what_if_edits.h"
#include "navigation/target_area.h"
#include "scenario/validated_scenario.h"
#include "sweep/delay_sweep.h"
#include "target/target.h"

#include <optional>

#include <QWidget>

#include <array>
#include <memory>

class QChart;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace parasight::gui {

class JobRunner;
class ScenarioDocument;
class WhatIfRulesModel;

class WhatIfPage : public QWidget {
    Q_OBJECT

public:
    explicit WhatIfPage(ScenarioDocument& document, QWidget* parent = nullptr);
    ~WhatIfPage() override;
    // Brings `target` into view when this view shows it (target/target.h); false when it does not.
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;


    [[nodiscard]] WhatIfRulesModel* rulesModel(WhatIfList list) const;
    [[nodiscard]] QTableView* rulesTable(WhatIfList list) const;
    [[nodiscard]] QComboBox* groupBox() const noexcept { return group_; }
    [[nodiscard]] QComboBox* operationBox() const noexcept { return operation_; }
    [[nodiscard]] QLineEdit* layersEdit() const noexcept { return layers_; }
    [[nodiscard]] QLineEdit* delaysEdit() const noexcept { return delays_; }
    [[nodiscard]] QCheckBox* everyDeviceBox() const noexcept { return every_device_; }
    [[nodiscard]] QPushButton* sweepButton() const noexcept { return sweep_button_; }
    [[nodiscard]] QChart* chart() const noexcept { return chart_; }
    // What the last sweep found, in words; or why it could not run.
    [[nodiscard]] QLabel* summary() const noexcept { return summary_; }
    // The last sweep's result; null before one has finished.
    [[nodiscard]] std::shared_ptr<const DelaySweep> lastSweep() const noexcept { return sweep_; }
    [[nodiscard]] JobRunner& runner() noexcept { return *runner_; }

    // Sweeps the delay the controls describe over the current scenario; false (with the reason in the summary)
    // when the scenario has problems or the controls cannot be read.
    bool sweep();
    // Selects the rule cell a problem's scenario path names; false when it names none.
    bool focusProblem(const std::string& path);

Q_SIGNALS:
    // The sweep ended: with a result, an error or cancelled.
    void sweepSettled();
    // Text typed into a rule's cell was not a value of its kind (the reason, naming the value's path); the scenario
    // is unchanged. The main window says it in its status bar.
    void editRefused(const QString& reason);

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildRules();
    QWidget* buildSweep();
    void onScenarioChanged();
    void showSweep();
    void showSweepError(const QString& message);
    void showSweepFailure(const QString& what);

    ScenarioDocument& document_;
    std::unique_ptr<JobRunner> runner_;
    std::array<WhatIfRulesModel*, what_if_lists.size()> models_{};
    std::array<QTableView*, what_if_lists.size()> tables_{};
    QLabel* rules_status_ = nullptr;
    QComboBox* group_ = nullptr;
    QComboBox* operation_ = nullptr;
    QLineEdit* layers_ = nullptr;
    QLineEdit* delays_ = nullptr;
    QCheckBox* every_device_ = nullptr;
    QPushButton* sweep_button_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QChart* chart_ = nullptr;
    QLabel* summary_ = nullptr;
    std::shared_ptr<const DelaySweep> sweep_;
    CollectiveDelay swept_rule_;
    std::shared_ptr<const ValidatedScenario> swept_scenario_;  // the value swept: stale once the document moves on
};

}  // namespace parasight::gui
