#include "scenario_form/scenario_form.h"

#include "document/topology_edits.h"
#include "scenario_form/field_help.h"
#include "scenario_form/wrapped_text_label.h"
#include "style/activity_colors.h"
#include "validation/valid_layouts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGroupBox>
#include <QKeyEvent>
#include <QMenu>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace parasight::gui {

ScenarioForm::ScenarioForm(ScenarioDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    // The fields narrow with the dock; only a form taller than the dock scrolls.
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll_);
    setAccessibleName(tr("Scenario"));
    connect(&document_, &ScenarioDocument::scenarioChanged, this, &ScenarioForm::refresh);
    refresh();
}

ScenarioForm::~ScenarioForm() {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (auto* line = qobject_cast<QLineEdit*>(rows_[i].editor); line != nullptr && line->hasFocus()) {
            commit(i, line->text());
            break;
        }
    }
    // A commit may have rebuilt the form: the rows are read again.
    for (const Row& row : rows_) {
        QObject::disconnect(row.editor, nullptr, this, nullptr);
        row.editor->removeEventFilter(this);
    }
}

void ScenarioForm::setFieldFilter(std::function<bool(const ScenarioField& field)> shown) {
    field_shown_ = std::move(shown);
    rebuild();
}

void ScenarioForm::refresh() {
    QStringList paths;
    for (const ScenarioField& field : scenario_fields(document_.scenario())) {
        if (!field_shown_ || field_shown_(field)) paths << field.path;
    }
    if (paths != paths_) {
        rebuild();
        return;
    }
    for (Row& row : rows_) {
        row.unreadable.clear();
        showValue(row);
        showMessage(row);
    }
}

namespace {

// The topology dimension whose section `field` ends (`next` is the field after it, if any, still to be shown).
std::optional<std::size_t> topology_dimension_ending(const ScenarioField& field, const ScenarioField* next) {
    static const QRegularExpression dimension_path(QStringLiteral("^cluster\\.topology\\[(\\d+)\\]\\."));
    const QRegularExpressionMatch match = dimension_path.match(field.path);
    if (!match.hasMatch()) return std::nullopt;
    if (next != nullptr && next->section == field.section) return std::nullopt;
    return match.captured(1).toULongLong();
}

}  // namespace

void ScenarioForm::addDimensionButtons(QFormLayout& form, std::size_t dimension) {
    const std::size_t count = document_.scenario().cluster.topology.size();
    auto* remove = new QPushButton(tr("Remove Dimension %1").arg(dimension), content_);
    remove->setObjectName(QStringLiteral("RemoveTopologyDimension%1").arg(dimension));
    remove->setToolTip(count > 1 ? tr("The parallel degrees must then match the fewer NPUs")
                                 : tr("A topology has at least one dimension"));
    remove->setEnabled(count > 1);
    connect(remove, &QPushButton::clicked, this, [this, dimension] { removeDimension(dimension); });
    form.addRow(QString(), remove);
    if (dimension + 1 == count) {
        auto* add = new QPushButton(tr("Add Outer Dimension"), content_);
        add->setObjectName(QStringLiteral("AddTopologyDimension"));
        add->setToolTip(tr("A switch of 2 around the outermost dimension, with its bandwidth and latency"));
        connect(add, &QPushButton::clicked, this, &ScenarioForm::addDimension);
        form.addRow(QString(), add);
    }
}

void ScenarioForm::addLayoutPicker(QFormLayout& form) {
    auto* picker = new QPushButton(tr("Valid Layouts…"), content_);
    picker->setObjectName(QStringLiteral("LayoutPicker"));
    picker->setToolTip(tr("Every tensor × pipeline × data (× expert) degree that lays this model onto the cluster's "
                          "devices and passes every check with the rest of the scenario; one click sets them "
                          "together, as one undo step"));
    auto* menu = new QMenu(picker);
    connect(menu, &QMenu::aboutToShow, this, [this, menu] { fillLayoutMenu(*menu); });
    picker->setMenu(menu);
    form.addRow(tr("Layout"), picker);
}

void ScenarioForm::fillLayoutMenu(QMenu& menu) {
    menu.clear();
    const Scenario& scenario = document_.scenario();
    // The degrees as they are (an `auto` one as derived), to check the current layout.
    const ParallelismSpec current =
        document_.validated() ? document_.validated()->value().parallelism : scenario.parallelism;
    const std::vector<DegreeCandidate> layouts = valid_layouts(scenario);
    for (const DegreeCandidate& layout : layouts) {
        QString name = tr("tp %1 × pp %2 × dp %3").arg(layout.tp).arg(layout.pp).arg(layout.dp);
        if (layout.ep > 1) name += tr(" × ep %1").arg(layout.ep);
        QAction* action = menu.addAction(name, this, [this, layout, name] {
            document_.edit(tr("Choose layout %1").arg(name), QString(),
                           [layout](Scenario& edited) { edited = with_degrees(std::move(edited), layout); });
        });
        action->setCheckable(true);
        action->setChecked(current.tp == layout.tp && current.pp == layout.pp && current.dp == layout.dp &&
                           current.ep == layout.ep);
    }
    if (layouts.empty()) {
        menu.addAction(tr("No layout of the degrees passes the checks with this scenario"))->setEnabled(false);
    }
}

void ScenarioForm::addDimension() {
    document_.edit(tr("Add a topology dimension"), QString(),
                   [](Scenario& scenario) { add_outer_dimension(scenario, DimensionKind::switch_fabric); });
}

void ScenarioForm::removeDimension(std::size_t dimension) {
    document_.edit(tr("Remove topology dimension %1").arg(dimension), QString(),
                   [dimension](Scenario& scenario) { remove_dimension(scenario, dimension); });
}

void ScenarioForm::rebuild() {
    // Where the form was scrolled to and which field had the focus: an edit that adds or removes fields (a topology
    // dimension, a model of another kind) rebuilds the form, which must not jump to its top under the pointer.
    const int scrolled_to = scroll_->verticalScrollBar()->value();
    QString focused;
    for (const Row& row : rows_) {
        if (row.editor->hasFocus()) focused = row.field.path;
    }
    rows_.clear();
    paths_.clear();
    content_ = new QWidget;
    auto* sections = new QVBoxLayout(content_);
    QFormLayout* form = nullptr;
    QString section;
    std::vector<ScenarioField> fields = scenario_fields(document_.scenario());
    if (field_shown_) std::erase_if(fields, [this](const ScenarioField& field) { return !field_shown_(field); });
    rows_.reserve(fields.size());
    for (ScenarioField& field : fields) {
        if (form == nullptr || field.section != section) {
            section = field.section;
            auto* box = new QGroupBox(section, content_);
            form = new QFormLayout(box);
            form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
            sections->addWidget(box);
        }
        if (field.path == QStringLiteral("parallelism.tp") && !field_shown_) addLayoutPicker(*form);
        const std::size_t index = rows_.size();
        Row row;
        row.field = std::move(field);
        paths_ << row.field.path;
        auto* cell = new QWidget(content_);
        auto* cell_layout = new QVBoxLayout(cell);
        cell_layout->setContentsMargins(0, 0, 0, 0);
        cell_layout->setSpacing(2);
        switch (row.field.kind) {
        case FieldKind::choice: {
            auto* box = new QComboBox(cell);
            box->addItems(row.field.choices);
            box->setPlaceholderText(tr("(as written in the file)"));
            box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            box->setMinimumContentsLength(6);
            // A wheel turned over a choice the user has not clicked scrolls the form instead of changing it (Qt's
            // combo box takes every wheel event under the pointer: scrolling down the form changed the stack and the
            // attention it passed over).
            box->setFocusPolicy(Qt::StrongFocus);
            box->installEventFilter(this);
            connect(box, &QComboBox::activated, this, [this, index, box](int) { commit(index, box->currentText()); });
            row.editor = box;
            break;
        }
        case FieldKind::flag: {
            auto* check = new QCheckBox(cell);
            connect(check, &QCheckBox::toggled, this, [this, index](bool on) {
                commit(index, on ? QStringLiteral("true") : QStringLiteral("false"));
            });
            row.editor = check;
            break;
        }
        default: {
            auto* line = new QLineEdit(cell);
            line->setMinimumWidth(60);
            line->setPlaceholderText(row.field.placeholder);
            if (row.field.kind == FieldKind::quantity) {
                // The unit wanted, where an empty field says it before anything is typed.
                if (line->placeholderText().isEmpty()) {
                    line->setPlaceholderText(tr("with its unit, e.g. %1")
                                                 .arg(QString::fromStdString(units::format_quantity(
                                                     row.field.dimension == units::Dimension::bandwidth ? 300e9
                                                     : row.field.dimension == units::Dimension::time    ? 1e-6
                                                                                                        : 80.0 * (1ull << 30),
                                                     row.field.dimension))));
                }
            }
            connect(line, &QLineEdit::editingFinished, this, [this, index, line] { commit(index, line->text()); });
            line->installEventFilter(this);
            row.editor = line;
            break;
        }
        }
        row.editor->setObjectName(row.field.path);
        row.editor->setAccessibleName(row.field.label);
        row.message = new WrappedTextLabel(cell);
        row.message->hide();
        QPalette red = row.message->palette();
        red.setColor(QPalette::WindowText, over_capacity_color());
        row.message->setPalette(red);
        cell_layout->addWidget(row.editor);
        cell_layout->addWidget(row.message);
        form->addRow(row.field.label, cell);
        // What the field means, on its label and (unless a problem is shown) its editor.
        if (QWidget* label = form->labelForField(cell)) label->setToolTip(field_help(row.field.path));
        rows_.push_back(std::move(row));
        const ScenarioField* next = index + 1 < fields.size() ? &fields[index + 1] : nullptr;
        if (const auto dimension = topology_dimension_ending(rows_.back().field, next); dimension && !field_shown_) {
            addDimensionButtons(*form, *dimension);
        }
    }
    sections->addStretch(1);
    // The previous content goes once control returns to the event loop: the edit that rebuilt the form may have
    // come from one of its own widgets (a preset combo box, Remove), still inside its signal.
    if (QWidget* previous = scroll_->takeWidget()) previous->deleteLater();
    scroll_->setWidget(content_);
    for (Row& row : rows_) {
        showValue(row);
        showMessage(row);
    }
    // Laid out now, so that the scroll bar has its range before it is set back.
    content_->layout()->activate();
    content_->resize(scroll_->viewport()->width(), content_->sizeHint().height());
    scroll_->verticalScrollBar()->setRange(0, std::max(0, content_->height() - scroll_->viewport()->height()));
    scroll_->verticalScrollBar()->setValue(scrolled_to);
    if (const Row* row = find(focused)) row->editor->setFocus(Qt::OtherFocusReason);
}

void ScenarioForm::showValue(Row& row) {
    const QString value = row.field.read(document_.scenario());
    const QSignalBlocker quiet(row.editor);
    if (auto* box = qobject_cast<QComboBox*>(row.editor)) {
        box->setCurrentIndex(static_cast<int>(row.field.choices.indexOf(value)));  // -1: the placeholder
    } else if (auto* check = qobject_cast<QCheckBox*>(row.editor)) {
        check->setChecked(value == QStringLiteral("true"));
    } else if (auto* line = qobject_cast<QLineEdit*>(row.editor)) {
        if (line->text() != value) line->setText(value);
    }
}

void ScenarioForm::showMessage(Row& row) {
    QString message = QString::fromStdString(row.unreadable);
    if (message.isEmpty()) {
        for (const Diagnostic& problem : document_.problems()) {
            if (!path_belongs_to(problem.path, row.field.path)) continue;
            message = QString::fromStdString(problem.to_string());
            break;
        }
    }
    row.message->showText(message);
    const QString help = field_help(row.field.path);
    row.editor->setToolTip(message.isEmpty() ? help : help.isEmpty() ? message : message + QStringLiteral("\n\n") + help);
}

void ScenarioForm::commit(std::size_t index, const QString& text) {
    Row& row = rows_[index];
    Scenario trial = document_.scenario();
    if (const auto unreadable = row.field.write(trial, text)) {
        row.unreadable = *unreadable;
        showMessage(row);
        return;
    }
    row.unreadable.clear();
    if (trial == document_.scenario()) {
        showValue(row);  // e.g. "80GiB" for "80 GiB": written as the file would write it
        showMessage(row);
        return;
    }
    const ScenarioField field = row.field;  // the edit may rebuild the form
    document_.edit(tr("Change %1").arg(field.label), field.path,
                   [&field, &text](Scenario& scenario) { (void)field.write(scenario, text); });
}

namespace {

// Undo, redo (either spelling the window binds: Ctrl+Y or Ctrl+Shift+Z), or neither.
std::optional<bool> undo_key(const QKeyEvent& key) {
    if (key.matches(QKeySequence::Undo)) return false;
    if (key.matches(QKeySequence::Redo) ||
        key.keyCombination() == QKeyCombination(Qt::ControlModifier | Qt::ShiftModifier, Qt::Key_Z)) {
        return true;
    }
    return std::nullopt;
}

}  // namespace

bool ScenarioForm::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel) {
        auto* box = qobject_cast<QComboBox*>(watched);
        if (box != nullptr && !box->hasFocus()) {
            QCoreApplication::sendEvent(scroll_->verticalScrollBar(), event);
            return true;
        }
    }
    auto* line = qobject_cast<QLineEdit*>(watched);
    if (line == nullptr || (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress)) {
        return QWidget::eventFilter(watched, event);
    }
    const auto redo = undo_key(*static_cast<QKeyEvent*>(event));
    if (!redo) return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::ShortcutOverride) {
        // Claimed here, so that neither the line edit's own undo nor the window's shortcut takes it.
        event->accept();
        return true;
    }
    handleUndoKey(*line, *redo);
    return true;
}

void ScenarioForm::handleUndoKey(QLineEdit& line, bool redo) {
    for (Row& row : rows_) {
        if (row.editor != &line) continue;
        if (line.text() != row.field.read(document_.scenario()) || !row.unreadable.empty()) {
            row.unreadable.clear();
            showValue(row);
            showMessage(row);
            return;
        }
        break;
    }
    QUndoStack* stack = document_.undoStack();
    if (redo) {
        stack->redo();
    } else {
        stack->undo();
    }
}

const ScenarioForm::Row* ScenarioForm::find(const QString& path) const {
    for (const Row& row : rows_) {
        if (row.field.path == path) return &row;
    }
    return nullptr;
}

QWidget* ScenarioForm::editor(const QString& path) const {
    const Row* row = find(path);
    return row != nullptr ? row->editor : nullptr;
}

QString ScenarioForm::message(const QString& path) const {
    const Row* row = find(path);
    return row != nullptr && !row->message->isHidden() ? row->message->plainText() : QString();
}

void ScenarioForm::enter(const QString& path, const QString& text) {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].field.path == path) {
            commit(i, text);
            return;
        }
    }
}

bool ScenarioForm::focusField(const QString& path) {
    const std::string problem = path.toStdString();
    const Row* target = nullptr;
    // The field the problem is about, the most specific first; else the first field inside the path's value.
    for (const Row& row : rows_) {
        if (path_belongs_to(problem, row.field.path) &&
            (target == nullptr || row.field.path.size() > target->field.path.size())) {
            target = &row;
        }
    }
    if (target == nullptr && !path.isEmpty()) {
        for (const Row& row : rows_) {
            if (path_belongs_to(row.field.path.toStdString(), path)) {
                target = &row;
                break;
            }
        }
    }
    if (target == nullptr) return false;
    // The field with its message under it (the editor's cell), once the dock that may just have been opened is laid
    // out: scrolled before that, the cell could end half out of view.
    QWidget* cell = target->editor->parentWidget();
    const auto reveal = [this, cell = QPointer<QWidget>(cell)] {
        if (cell) scroll_->ensureWidgetVisible(cell, 0, 8);
    };
    reveal();
    QTimer::singleShot(0, this, reveal);
    target->editor->setFocus(Qt::OtherFocusReason);
    return true;
}


bool ScenarioForm::reveal(const Target& target) {
    return target.kind == TargetKind::field && focusField(QString::fromStdString(target.name));
}

std::optional<TargetArea> ScenarioForm::areaOf(const Target& target) const {
    if (target.kind != TargetKind::field) return std::nullopt;
    QWidget* field = editor(QString::fromStdString(target.name));
    if (field == nullptr || !field->isVisible()) return std::nullopt;
    return whole(field);
}

}  // namespace parasight::gui
