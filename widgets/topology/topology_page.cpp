#include "topology/topology_page.h"

#include "topology/collective_probe_box.h"

#include "document/topology_edits.h"
#include "picture/export_button.h"
#include "picture/picture_export.h"
#include "problems/problem_banner.h"
#include "topology/dimension_palette_button.h"
#include "scenario_form/scenario_form.h"
#include "style/activity_colors.h"
#include "style/quantity_text.h"
#include "topology/parallel_layout.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace parasight::gui {

namespace {

QString axis_name(ParallelAxis axis) { return QString::fromUtf8(to_string(axis).data(), to_string(axis).size()); }

// The layout of the scenario's axes on its topology, or why there is none. The topology must be drawable.
Expected<ParallelLayout> layout_of(const ScenarioDocument& document) {
    if (const auto validated = document.validated()) {
        return ParallelLayout::make(validated->value().topology(), validated->value().parallelism.layout_order());
    }
    return ParallelLayout::make(document.scenario().topology(), document.scenario().parallelism.layout_order());
}

// A coloured square and a text, for the legend.
QString swatch(const QColor& colour, const QString& text) {
    return QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2").arg(colour.name(), text.toHtmlEscaped());
}

}  // namespace

TopologyPage::TopologyPage(ScenarioDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
    setObjectName(QStringLiteral("TopologyPage"));

    // The palette: a dimension of each kind, added around the others.
    auto* tools = new QHBoxLayout;
    tools->addWidget(new QLabel(tr("Add a dimension:"), this));
    for (const auto& [kind, text, name] :
         {std::tuple{DimensionKind::ring, tr("Ring"), "AddRing"},
          std::tuple{DimensionKind::fully_connected, tr("Fully Connected"), "AddFullyConnected"},
          std::tuple{DimensionKind::switch_fabric, tr("Switch"), "AddSwitch"}}) {
        auto* button = new DimensionPaletteButton(kind, text, this);
        button->setObjectName(QString::fromLatin1(name));
        button->setToolTip(tr("A %1 of 2 around the outermost dimension, with its bandwidth and latency: click, or "
                              "drag it onto the canvas")
                               .arg(dimension_kind_text(kind)));
        connect(button, &QPushButton::clicked, this, [this, kind = kind] { addDimension(kind); });
        tools->addWidget(button);
    }
    tools->addStretch(1);
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show the whole topology"));
    tools->addWidget(fit);
    // The whole drawing, not the part the canvas shows.
    const auto paint = [this](QPainter& painter) { canvas_->paintPicture(painter); };
    tools->addWidget(make_export_button(
        this, {ExportChoice{tr("Topology as &PNG…"), tr("Export the Topology as PNG"), tr("PNG images (*.png)"),
                            QStringLiteral(".png"),
                            [this, paint](const QString& path) {
                                return export_png(canvas_->pictureSize(), palette().color(QPalette::Base), paint, path);
                            }},
               ExportChoice{tr("Topology as &SVG…"), tr("Export the Topology as SVG"), tr("SVG images (*.svg)"),
                            QStringLiteral(".svg"), [this, paint](const QString& path) {
                                return export_svg(canvas_->pictureSize(), tr("ParaSight topology"), paint, path);
                            }}}));

    problem_ = new ProblemBanner({QStringLiteral("parallelism"), QStringLiteral("cluster.topology")}, this);
    problem_->setObjectName(QStringLiteral("TopologyProblem"));

    canvas_ = new TopologyCanvas(this);
    connect(fit, &QPushButton::clicked, canvas_, &TopologyCanvas::fit);
    connect(canvas_, &TopologyCanvas::npuClicked, this, [this](qint64 npu) { chooseNpu(npu); });
    connect(canvas_, &TopologyCanvas::dimensionClicked, this,
            [this](int dimension) { chooseDimension(static_cast<std::size_t>(dimension)); });
    connect(canvas_, &TopologyCanvas::foldToggled, this, [this] { refreshDimensions(); });
    connect(canvas_, &TopologyCanvas::dimensionDropped, this, &TopologyPage::addDimension);

    // The side panel: dimensions, the chosen one's fields, the parallel layout, the chosen NPU.
    auto* side = new QWidget;
    auto* side_layout = new QVBoxLayout(side);
    side_layout->setContentsMargins(0, 0, 0, 0);
    auto* dimensions_box = new QGroupBox(tr("Dimensions, innermost first"), side);
    dimensions_box->setToolTip(tr("Checked: every member drawn; unchecked: the first, standing for all"));
    auto* dimensions_layout = new QVBoxLayout(dimensions_box);
    dimensions_ = new QListWidget(dimensions_box);
    dimensions_->setObjectName(QStringLiteral("TopologyDimensions"));
    dimensions_->setMaximumHeight(120);
    dimensions_layout->addWidget(dimensions_);
    auto* dimension_buttons = new QHBoxLayout;
    move_in_ = new QPushButton(tr("Inward"), dimensions_box);
    move_in_->setToolTip(tr("Move the chosen dimension inside the one before it"));
    move_out_ = new QPushButton(tr("Outward"), dimensions_box);
    move_out_->setToolTip(tr("Move the chosen dimension around the one after it"));
    remove_ = new QPushButton(tr("Remove"), dimensions_box);
    for (QPushButton* button : {move_in_, move_out_, remove_}) dimension_buttons->addWidget(button);
    dimensions_layout->addLayout(dimension_buttons);
    connect(move_in_, &QPushButton::clicked, this, [this] {
        if (chosen_dimension_) moveDimension(*chosen_dimension_, false);
    });
    connect(move_out_, &QPushButton::clicked, this, [this] {
        if (chosen_dimension_) moveDimension(*chosen_dimension_, true);
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (chosen_dimension_) removeDimension(*chosen_dimension_);
    });
    connect(dimensions_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!refreshing_) chooseDimension(row < 0 ? std::nullopt : std::optional<std::size_t>(row));
    });
    connect(dimensions_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (refreshing_) return;
        const auto dimension = static_cast<std::size_t>(dimensions_->row(item));
        if (!canvas_->setUnfolded(dimension, item->checkState() == Qt::Checked)) {
            problem_->showText(tr("Drawing every member of dimension %1 would draw more than %2 NPUs or %3 lines: "
                                  "fold another dimension first.")
                                   .arg(dimension)
                                   .arg(max_drawn_npus)
                                   .arg(max_drawn_lines));
            refreshDimensions();
        }
    });
    side_layout->addWidget(dimensions_box);

    inspector_hint_ = new QLabel(tr("Choose a dimension — a frame on the canvas or a row above — to edit its kind, "
                                    "size, bandwidth and latency."),
                                 side);
    inspector_hint_->setWordWrap(true);
    side_layout->addWidget(inspector_hint_);
    inspector_ = new ScenarioForm(document_, side);
    inspector_->setObjectName(QStringLiteral("TopologyInspector"));
    inspector_->setFieldFilter([](const ScenarioField&) { return false; });
    side_layout->addWidget(inspector_, 1);

    auto* mapping_box = new QGroupBox(tr("Parallel layout, innermost first"), side);
    auto* mapping_layout = new QVBoxLayout(mapping_box);
    mapping_ = new QListWidget(mapping_box);
    mapping_->setObjectName(QStringLiteral("MappingStrip"));
    mapping_->setFlow(QListView::LeftToRight);
    mapping_->setDragDropMode(QAbstractItemView::InternalMove);
    mapping_->setDefaultDropAction(Qt::MoveAction);
    mapping_->setMaximumHeight(40);
    mapping_->setToolTip(tr("The parallel axes laid onto the NPUs, innermost (fastest-varying) first: an axis first "
                            "in the list spans the innermost dimensions. Drag one to reorder them."));
    connect(mapping_->model(), &QAbstractItemModel::rowsMoved, this, [this] {
        if (!refreshing_) applyMappingStrip();
    });
    mapping_layout->addWidget(mapping_);
    side_layout->addWidget(mapping_box);

    traffic_ = new QLabel(side);
    traffic_->setObjectName(QStringLiteral("TopologyTraffic"));
    traffic_->setWordWrap(true);
    traffic_->setToolTip(tr("Links are shaded from grey (idle) to red (busy the whole iteration) by how busy their "
                            "dimension was in the last run"));
    side_layout->addWidget(traffic_);

    probe_ = new CollectiveProbeBox(side);
    side_layout->addWidget(probe_);

    auto* npu_box = new QGroupBox(tr("Chosen NPU"), side);
    auto* npu_layout = new QVBoxLayout(npu_box);
    npu_info_ = new QLabel(npu_box);
    npu_info_->setObjectName(QStringLiteral("NpuInfo"));
    npu_info_->setWordWrap(true);
    legend_ = new QLabel(npu_box);
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::RichText);
    npu_layout->addWidget(npu_info_);
    npu_layout->addWidget(legend_);
    side_layout->addWidget(npu_box);

    // The panel scrolls rather than making the window taller than a small screen.
    auto* side_scroll = new QScrollArea(this);
    side_scroll->setWidgetResizable(true);
    side_scroll->setFrameShape(QFrame::NoFrame);
    side_scroll->setWidget(side);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(canvas_);
    splitter->addWidget(side_scroll);
    // The canvas takes what the window gains or loses; the panel keeps its width.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    splitter->setCollapsible(0, false);
    splitter->setSizes({1000, 380});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(problem_);
    layout->addWidget(splitter, 1);

    connect(&document_, &ScenarioDocument::scenarioChanged, this, &TopologyPage::refresh);
    refresh();
}

QString TopologyPage::problemText() const { return problem_->shownText(); }

QString TopologyPage::npuText() const { return chosen_npu_ ? npu_info_->text() : QString(); }

QString TopologyPage::legendText() const { return legend_->text(); }

QString TopologyPage::trafficText() const { return traffic_->text(); }

void TopologyPage::refresh() {
    const std::vector<Dimension>& topology = document_.scenario().cluster.topology;
    if (chosen_dimension_ && *chosen_dimension_ >= topology.size()) chosen_dimension_.reset();
    if (chosen_npu_ && (!is_drawable(topology) || *chosen_npu_ >= document_.scenario().topology().device_count())) {
        chosen_npu_.reset();
    }
    canvas_->showTopology(topology, document_.scenario().cluster.memory_system);
    refreshTraffic();
    refreshDimensions();
    refreshMapping();
    // The reasons the degrees and the topology disagree, as the loader gives them.
    problem_->showProblems(document_.problems());
    refreshGroups();
    probe_->setScenario(document_.sharedScenario());
}

void TopologyPage::refreshDimensions() {
    refreshing_ = true;
    const std::vector<Dimension>& topology = document_.scenario().cluster.topology;
    const QSignalBlocker quiet(dimensions_);
    dimensions_->clear();
    for (std::size_t d = 0; d < topology.size(); ++d) {
        auto* item = new QListWidgetItem(tr("%1 · %2 of %3").arg(d).arg(dimension_kind_text(topology[d].kind)).arg(topology[d].size),
                                         dimensions_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(d < canvas_->unfolded().size() && canvas_->unfolded()[d] ? Qt::Checked : Qt::Unchecked);
    }
    dimensions_->setCurrentRow(chosen_dimension_ ? static_cast<int>(*chosen_dimension_) : -1);
    move_in_->setEnabled(chosen_dimension_ && *chosen_dimension_ > 0);
    move_out_->setEnabled(chosen_dimension_ && *chosen_dimension_ + 1 < topology.size());
    remove_->setEnabled(chosen_dimension_ && topology.size() > 1);
    remove_->setToolTip(topology.size() > 1 ? tr("Remove the chosen dimension")
                                            : tr("A topology has at least one dimension"));
    refreshing_ = false;
}

void TopologyPage::refreshMapping() {
    refreshing_ = true;
    const ParallelismSpec& parallelism = document_.scenario().parallelism;
    mapping_->clear();
    for (const AxisDegree& axis : parallelism.layout_order()) {
        if (axis.degree <= 1) continue;
        auto* item = new QListWidgetItem(QStringLiteral("%1 %2").arg(axis_name(axis.axis)).arg(axis.degree), mapping_);
        item->setData(Qt::UserRole, static_cast<int>(axis.axis));
        item->setForeground(parallel_axis_color(axis.axis));
    }
    refreshing_ = false;
}

void TopologyPage::showResult(const std::shared_ptr<const SimulationResult>& result) {
    const bool this_topology = result && result->traffic &&
                               result->scenario->value().cluster.topology == document_.scenario().cluster.topology;
    canvas_->setTraffic(this_topology ? result->traffic : std::nullopt);
    refreshTraffic();
    refreshGroups();
}

void TopologyPage::refreshTraffic() {
    const auto& traffic = canvas_->traffic();
    if (!traffic) {
        traffic_->setText(tr("After a run, the links show how busy each dimension was."));
        return;
    }
    QStringList lines{tr("In the last run, per NPU:")};
    for (std::size_t d = 0; d < traffic->dimensions.size(); ++d) {
        lines << tr("dimension %1: %2 sent, busy %3 of the iteration")
                     .arg(d)
                     .arg(bytes_text(traffic->dimensions[d].bytes_per_npu), percent_text(100.0 * traffic->dimensions[d].busy_fraction));
    }
    traffic_->setText(lines.join(u'\n'));
}

void TopologyPage::chooseDimension(std::optional<std::size_t> dimension) {
    chosen_dimension_ = dimension;
    canvas_->setSelectedDimension(dimension);
    const QString prefix = dimension ? QStringLiteral("cluster.topology[%1].").arg(*dimension) : QStringLiteral("-");
    inspector_->setFieldFilter([prefix](const ScenarioField& field) { return field.path.startsWith(prefix); });
    inspector_hint_->setVisible(!dimension);
    refreshDimensions();
}

void TopologyPage::chooseNpu(std::optional<std::int64_t> npu) {
    // An NPU of the topology drawn, or none (one chosen in a result of an older cluster, say).
    const std::vector<Dimension>& topology = document_.scenario().cluster.topology;
    const bool known = npu && *npu >= 0 && is_drawable(topology) && *npu < document_.scenario().topology().device_count();
    chosen_npu_ = known ? npu : std::nullopt;
    refreshGroups();
}

void TopologyPage::refreshGroups() {
    if (!chosen_npu_) {
        canvas_->setGroups(std::nullopt);
        npu_info_->setText(tr("Click an NPU to colour the groups it belongs to."));
        legend_->clear();
        return;
    }
    const std::int64_t npu = *chosen_npu_;
    const Topology topology = document_.scenario().topology();
    QStringList coordinates;
    for (const int coordinate : topology.coordinates(npu)) coordinates << QString::number(coordinate);
    const auto layout = layout_of(document_);
    if (!layout) {
        canvas_->setGroups(NpuGroups{npu, {}});
        npu_info_->setText(tr("NPU %1 at (%2). Its groups cannot be laid out: %3")
                               .arg(npu)
                               .arg(coordinates.join(QStringLiteral(", ")))
                               .arg(QString::fromStdString(layout.error())));
        legend_->clear();
        return;
    }
    NpuGroups groups{npu, {}};
    QStringList ranks;
    QStringList legend;
    for (const AxisDegree& axis : layout->mapping()) {
        if (axis.degree <= 1) continue;
        const std::vector<std::int64_t> members = layout->group_members(axis.axis, npu);
        for (const std::int64_t member : members) {
            if (member != npu) groups.members[member] = axis.axis;
        }
        ranks << tr("%1 rank %2 of %3").arg(axis_name(axis.axis)).arg(layout->rank_in_group(axis.axis, npu)).arg(axis.degree);
        // Which dimensions the group spans: the lesson of keeping tp inside a node.
        QStringList spans;
        for (const DimensionSpan& span : layout->spans(axis.axis)) {
            spans << (span.members == topology.dimensions()[span.dimension].size
                          ? tr("all of dimension %1").arg(span.dimension)
                          : tr("%1 of dimension %2's %3").arg(span.members).arg(span.dimension)
                                .arg(topology.dimensions()[span.dimension].size));
        }
        QString line = tr("%1 group: %2 NPUs across %3").arg(axis_name(axis.axis)).arg(members.size())
                           .arg(spans.join(tr(" and ")));
        if (const auto& traffic = canvas_->traffic(); traffic && spans.size() > 1) {
            // A group over several dimensions costs about its slowest: say which one it was in the run.
            const CommGroup group = comm_group_of(axis.axis);
            if (const auto bottleneck = traffic->bottleneck_dimension[static_cast<std::size_t>(group)]) {
                line += tr(" · bottleneck: dimension %1").arg(*bottleneck);
            }
        }
        legend << swatch(parallel_axis_color(axis.axis), line);
    }
    canvas_->setGroups(std::move(groups));
    npu_info_->setText(tr("NPU %1 at (%2) · %3")
                           .arg(npu)
                           .arg(coordinates.join(QStringLiteral(", ")))
                           .arg(ranks.join(QStringLiteral(" · "))));
    legend_->setText(legend.join(QStringLiteral("<br>")));
}

void TopologyPage::addDimension(DimensionKind kind) {
    document_.edit(tr("Add a %1 dimension").arg(dimension_kind_text(kind)), QString(),
                   [kind](Scenario& scenario) { add_outer_dimension(scenario, kind); });
    chooseDimension(document_.scenario().cluster.topology.size() - 1);
}

void TopologyPage::moveDimension(std::size_t dimension, bool outward) {
    const std::size_t inner = outward ? dimension : dimension - 1;
    if ((!outward && dimension == 0) || inner + 1 >= document_.scenario().cluster.topology.size()) return;
    document_.edit(outward ? tr("Move dimension %1 outward").arg(dimension) : tr("Move dimension %1 inward").arg(dimension),
                   QString(), [inner](Scenario& scenario) { swap_with_outer(scenario, inner); });
    chooseDimension(outward ? dimension + 1 : dimension - 1);
}

void TopologyPage::removeDimension(std::size_t dimension) {
    document_.edit(tr("Remove topology dimension %1").arg(dimension), QString(),
                   [dimension](Scenario& scenario) { remove_dimension(scenario, dimension); });
    chooseDimension(std::nullopt);
}

void TopologyPage::applyMappingStrip() {
    std::vector<ParallelAxis> order;
    for (int row = 0; row < mapping_->count(); ++row) {
        order.push_back(static_cast<ParallelAxis>(mapping_->item(row)->data(Qt::UserRole).toInt()));
    }
    QStringList names;
    for (const ParallelAxis axis : order) names << axis_name(axis);
    document_.edit(tr("Lay out the axes as %1").arg(names.join(QStringLiteral(", "))), QString(),
                   [order](Scenario& scenario) { reorder_mapping(scenario, order); });
}

void TopologyPage::showRun(const RunState& state) {
    // The links' traffic only from a result of the scenario being edited.
    const bool current = state.kind == RunState::Kind::result && !state.stale;
    showResult(current ? state.result : nullptr);
}


bool TopologyPage::reveal(const Target& target) {
    switch (target.kind) {
        case TargetKind::npu:
        case TargetKind::group:
            chooseNpu(target.npu);
            return chosen_npu_.has_value();
        case TargetKind::field: {
            // A topology dimension's field: that dimension chosen, its field in the inspector.
            static const QRegularExpression dimension_path(QStringLiteral(R"(^cluster\.topology\[(\d+)\])"));
            const QRegularExpressionMatch match = dimension_path.match(QString::fromStdString(target.name));
            if (!match.hasMatch()) return false;
            const std::size_t dimension = match.captured(1).toULongLong();
            if (dimension >= document_.scenario().cluster.topology.size()) return false;
            chooseDimension(dimension);
            return inspector_->focusField(QString::fromStdString(target.name));
        }
        default: return false;
    }
}

std::optional<TargetArea> TopologyPage::areaOf(const Target& target) const {
    switch (target.kind) {
        case TargetKind::npu:
        case TargetKind::group:
            if (const std::optional<QRect> npu = canvas_->npuRect(target.npu)) {
                return TargetArea{canvas_->viewport(), *npu};
            }
            return std::nullopt;
        case TargetKind::field: return inspector_->areaOf(target);
        default: return std::nullopt;
    }
}

}  // namespace parasight::gui
