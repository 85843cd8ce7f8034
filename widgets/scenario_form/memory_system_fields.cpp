#include "scenario_form/memory_system_fields.h"

#include "scenario_form/field_builders.h"

#include "common/message_text.h"
#include "common/number_text.h"

#include <QCoreApplication>

#include <limits>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("MemorySystemFields", text); }

const QString section = QStringLiteral("Memory system");

// A quantity of one tier, shown empty while the tier is not there and while it is 0 (not given yet: no real capacity
// or bandwidth is 0, and a "0 B/s" shown would be typed after). Writing into it adds the tier; emptying the tier's
// first field (`removes_tier`) removes it, emptying another sets it back to not given.
template <typename Tier>
ScenarioField tier_quantity_field(QString path, QString label, QString placeholder, units::Dimension dimension,
                                  std::optional<Tier> MemorySystemSpec::*tier, double Tier::*value, bool removes_tier) {
    ScenarioField field = make_field(path, section, std::move(label), FieldKind::quantity, dimension);
    field.placeholder = std::move(placeholder);
    field.read = [tier, value, dimension](const Scenario& scenario) {
        const auto& present = scenario.cluster.memory_system.*tier;
        if (!present || (*present).*value == 0.0) return QString();
        return QString::fromStdString(units::format_quantity((*present).*value, dimension));
    };
    field.write = [tier, value, path, dimension, removes_tier](Scenario& scenario,
                                                                const QString& text) -> std::optional<std::string> {
        auto& present = scenario.cluster.memory_system.*tier;
        const std::string written = text.trimmed().toStdString();
        if (written.empty()) {
            if (removes_tier) {
                present.reset();
            } else if (present) {
                (*present).*value = 0.0;
            }
            return std::nullopt;
        }
        const auto parsed = units::parse_quantity(written, dimension);
        if (!parsed) return path.toStdString() + ": " + parsed.error();
        if (!present) present.emplace();
        (*present).*value = *parsed;
        return std::nullopt;
    };
    return field;
}

// A whole number of the pool, shown only while the pool is there.
ScenarioField pool_integer_field(QString path, QString label, int MemoryPool::*value) {
    ScenarioField field = make_field(path, section, std::move(label), FieldKind::integer);
    field.read = [value](const Scenario& scenario) {
        const auto& pool = scenario.cluster.memory_system.pool;
        return pool ? QString::number((*pool).*value) : QString();
    };
    field.write = [value, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        const auto parsed = parse_integer(written);
        if (!parsed || *parsed < std::numeric_limits<int>::min() || *parsed > std::numeric_limits<int>::max()) {
            return path.toStdString() + " must be a whole number, not " + in_quotes(written);
        }
        auto& pool = scenario.cluster.memory_system.pool;
        if (!pool) pool.emplace();
        (*pool).*value = static_cast<int>(*parsed);
        return std::nullopt;
    };
    return field;
}

ScenarioField in_switch_collectives_field() {
    ScenarioField field = make_field(QStringLiteral("cluster.memory_system.pool.in_switch_collectives"), section,
                                     tr("In-switch collectives"), FieldKind::flag);
    field.read = [](const Scenario& scenario) {
        const auto& pool = scenario.cluster.memory_system.pool;
        return pool && pool->in_switch_collectives ? QStringLiteral("true") : QStringLiteral("false");
    };
    field.write = [](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        auto& pool = scenario.cluster.memory_system.pool;
        if (!pool) pool.emplace();
        pool->in_switch_collectives = text == QStringLiteral("true");
        return std::nullopt;
    };
    return field;
}

}  // namespace

void append_memory_system_fields(const Scenario& scenario, std::vector<ScenarioField>& fields) {
    using units::Dimension;
    const QString prefix = QStringLiteral("cluster.memory_system.");
    const QString unit = tr("with its unit");
    // Empty while not written (0: the innermost dimension's size).
    fields.push_back(positive_or_unset_field(prefix + QStringLiteral("gpus_per_node"), section, tr("GPUs a node"),
                                             tr("empty: dimension 0's"),
                                             [](Scenario& s) -> int& { return s.cluster.memory_system.gpus_per_node; }));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("host.capacity"), tr("Host memory"),
                                         tr("with its unit; empty: no host memory"), Dimension::size,
                                         &MemorySystemSpec::host, &HostMemory::capacity_bytes, true));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("host.link_bandwidth"), tr("Host link"), unit,
                                         Dimension::bandwidth, &MemorySystemSpec::host,
                                         &HostMemory::link_bandwidth_Bps, false));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("host.memory_bandwidth"), tr("Host memory bandwidth"),
                                         tr("with its unit; for a step on the host"), Dimension::bandwidth,
                                         &MemorySystemSpec::host, &HostMemory::memory_bandwidth_Bps, false));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("nvme.capacity"), tr("NVMe"),
                                         tr("with its unit; empty: no NVMe"), Dimension::size, &MemorySystemSpec::nvme,
                                         &NvmeStorage::capacity_bytes, true));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("nvme.bandwidth"), tr("NVMe bandwidth"), unit,
                                         Dimension::bandwidth, &MemorySystemSpec::nvme, &NvmeStorage::bandwidth_Bps,
                                         false));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("pool.in_node_bandwidth"), tr("Pool fabric"),
                                         tr("with its unit; empty: no memory pool"), Dimension::bandwidth,
                                         &MemorySystemSpec::pool, &MemoryPool::in_node_bandwidth_Bps, true));
    if (!scenario.cluster.memory_system.pool) return;
    fields.push_back(pool_integer_field(prefix + QStringLiteral("pool.out_node_switches"), tr("Out-node switches"),
                                        &MemoryPool::out_node_switches));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("pool.node_link_bandwidth"), tr("Switch–node link"),
                                         unit, Dimension::bandwidth, &MemorySystemSpec::pool,
                                         &MemoryPool::node_link_bandwidth_Bps, false));
    fields.push_back(pool_integer_field(prefix + QStringLiteral("pool.remote_groups"), tr("Remote groups"),
                                        &MemoryPool::remote_groups));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("pool.remote_group_bandwidth"), tr("Group bandwidth"),
                                         unit, Dimension::bandwidth, &MemorySystemSpec::pool,
                                         &MemoryPool::remote_group_bandwidth_Bps, false));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("pool.group_capacity"), tr("Group capacity"), unit,
                                         Dimension::size, &MemorySystemSpec::pool, &MemoryPool::group_capacity_bytes,
                                         false));
    fields.push_back(tier_quantity_field(prefix + QStringLiteral("pool.chunk"), tr("Pool chunk"), unit,
                                         Dimension::size, &MemorySystemSpec::pool, &MemoryPool::chunk_bytes, false));
    fields.push_back(in_switch_collectives_field());
}

}  // namespace parasight::gui
