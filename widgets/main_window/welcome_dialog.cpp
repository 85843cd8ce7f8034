#include "main_window/welcome_dialog.h"

#include "presets/preset_library.h"
#include "scenario_file/preset_name.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>

#include <algorithm>

namespace parasight::gui {

namespace {

const QString at_start_key = QStringLiteral("welcome/at_start");

}  // namespace

WelcomeDialog::WelcomeDialog(QWidget* parent) : QDialog(parent), bundled_(bundled_lessons()) {
    setWindowTitle(tr("Welcome to ParaSight"));
    auto* intro = new QLabel(
        tr("<b>ParaSight</b> simulates a training iteration of a model on every device of a cluster, for a "
           "parallelization strategy — and shows its timeline, its exposed communication and its memory. Start with "
           "a lesson, which runs the real simulation step by step, or with a scenario, and change it."),
        this);
    intro->setWordWrap(true);

    lessons_ = new QListWidget(this);
    lessons_->setAccessibleName(tr("Lessons"));
    for (const BundledLesson& bundled : bundled_) {
        const QString title = QString::fromStdString(bundled.lesson.title);
        auto* item = new QListWidgetItem(
            bundled.lesson.number ? tr("%1. %2").arg(*bundled.lesson.number).arg(title) : title, lessons_);
        item->setToolTip(QString::fromStdString(bundled.lesson.summary));
    }
    scenarios_ = new QListWidget(this);
    scenarios_->setAccessibleName(tr("Scenarios"));
    // The default scenario first (what the window opens with), then the others as the presets list them.
    std::vector<const Preset*> scenarios;
    for (const Preset& preset : all_presets()) {
        if (preset.kind == PresetKind::scenario) scenarios.push_back(&preset);
    }
    std::stable_partition(scenarios.begin(), scenarios.end(), [](const Preset* preset) { return preset->id == "default"; });
    for (const Preset* scenario : scenarios) {
        const Preset& preset = *scenario;
        auto* item = new QListWidgetItem(QString::fromStdString(preset_name(preset)), scenarios_);
        item->setData(Qt::UserRole, QString::fromUtf8(preset.id.data(), static_cast<qsizetype>(preset.id.size())));
        item->setToolTip(item->data(Qt::UserRole).toString());
    }
    for (QListWidget* list : {lessons_, scenarios_}) {
        list->setWordWrap(true);
        list->setSpacing(2);
    }

    at_start_ = new QCheckBox(tr("Show this at start"), this);
    at_start_->setChecked(showsAtStart());
    connect(at_start_, &QCheckBox::toggled, this, [](bool on) { QSettings().setValue(at_start_key, on); });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    open_ = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    open_->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(open_, &QPushButton::clicked, this, &WelcomeDialog::openChosen);
    // One choice at a time, across both lists.
    connect(lessons_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0) scenarios_->setCurrentRow(-1);
        open_->setEnabled(lessons_->currentRow() >= 0 || scenarios_->currentRow() >= 0);
    });
    connect(scenarios_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0) lessons_->setCurrentRow(-1);
        open_->setEnabled(lessons_->currentRow() >= 0 || scenarios_->currentRow() >= 0);
    });
    connect(lessons_, &QListWidget::itemActivated, this, &WelcomeDialog::openChosen);
    connect(scenarios_, &QListWidget::itemActivated, this, &WelcomeDialog::openChosen);

    auto* layout = new QGridLayout(this);
    layout->addWidget(intro, 0, 0, 1, 2);
    layout->addWidget(new QLabel(tr("<b>Lessons</b> — for a class, or to learn on one's own"), this), 1, 0);
    layout->addWidget(new QLabel(tr("<b>Scenarios</b> — to explore and change"), this), 1, 1);
    layout->addWidget(lessons_, 2, 0);
    layout->addWidget(scenarios_, 2, 1);
    layout->addWidget(at_start_, 3, 0);
    layout->addWidget(buttons, 3, 1);
    resize(760, 440);
}

bool WelcomeDialog::showsAtStart() { return QSettings().value(at_start_key, true).toBool(); }

void WelcomeDialog::openChosen() {
    if (const int row = lessons_->currentRow(); row >= 0) {
        Q_EMIT lessonChosen(bundled_.at(static_cast<std::size_t>(row)).lesson);
        accept();
    } else if (const QListWidgetItem* item = scenarios_->currentItem()) {
        Q_EMIT scenarioChosen(item->data(Qt::UserRole).toString());
        accept();
    }
}

}  // namespace parasight::gui
