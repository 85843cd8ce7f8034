#include "scenario_form/scenario_fields.h"

#include "scenario_form/field_builders.h"
#include "scenario_form/memory_system_fields.h"

#include "common/message_text.h"
#include "common/number_text.h"
#include "presets/preset_library.h"
#include "scenario/training_stack.h"
#include "scenario_file/preset_specs.h"
#include "validation/validate.h"

#include <QCoreApplication>

#include <limits>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ScenarioFields", text); }

QStringList preset_choices(PresetKind kind) {
    QStringList list;
    for (const auto id : preset_ids(kind)) list << utf8_text(id);
    return list;
}

// A whole-number field held in an int or an int64 (`Value`) reached by `at`.
template <typename Value>
ScenarioField integer_field(QString path, QString section, QString label, std::function<Value&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::integer);
    field.read = [at](const Scenario& scenario) {
        return QString::number(at(const_cast<Scenario&>(scenario)));  // read only
    };
    field.write = [at, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        const auto value = parse_integer(written);
        if (!value || *value < std::numeric_limits<Value>::min() || *value > std::numeric_limits<Value>::max()) {
            return path.toStdString() + " must be a whole number, not " + in_quotes(written);
        }
        at(scenario) = static_cast<Value>(*value);
        return std::nullopt;
    };
    return field;
}

// An optional whole number held in a std::optional<std::int64_t> reached by `at`: empty text leaves it out, and the
// editor then shows `placeholder`, what leaving it out means.
ScenarioField optional_integer_field(QString path, QString section, QString label, QString placeholder,
                                     std::function<std::optional<std::int64_t>&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::integer);
    field.placeholder = std::move(placeholder);
    field.read = [at](const Scenario& scenario) {
        const auto& value = at(const_cast<Scenario&>(scenario));  // read only
        return value ? QString::number(*value) : QString();
    };
    field.write = [at, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        if (written.empty()) {
            at(scenario).reset();
            return std::nullopt;
        }
        const auto value = parse_integer(written);
        if (!value) return path.toStdString() + " must be a whole number, not " + in_quotes(written);
        at(scenario) = *value;
        return std::nullopt;
    };
    return field;
}

ScenarioField flag_field(QString path, QString section, QString label, std::function<bool&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::flag);
    field.read = [at](const Scenario& scenario) {
        return at(const_cast<Scenario&>(scenario)) ? QStringLiteral("true") : QStringLiteral("false");
    };
    field.write = [at](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        at(scenario) = text == QStringLiteral("true");
        return std::nullopt;
    };
    return field;
}

template <typename Enum, std::size_t N>
ScenarioField enum_field(QString path, QString section, QString label, const std::array<EnumName<Enum>, N>& table,
                         std::function<Enum&(Scenario&)> at) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::choice);
    field.choices = enum_names(table);
    field.read = [at, &table](const Scenario& scenario) {
        return utf8_text(name_of(at(const_cast<Scenario&>(scenario)), table));
    };
    field.write = [at, &table, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const auto value = value_of(text.toStdString(), table);
        if (!value) return path.toStdString() + ": unknown value " + in_quotes(text.toStdString());
        at(scenario) = *value;
        return std::nullopt;
    };
    return field;
}

// cluster.device.fp8_matmul_efficiency: empty while not given (0: fp8 GEMMs at matmul_efficiency), as a file leaves
// the key out; only what fp8 training reads.
ScenarioField fp8_matmul_efficiency_field(QString section) {
    const QString path = QStringLiteral("cluster.device.fp8_matmul_efficiency");
    ScenarioField field = make_field(path, std::move(section), tr("fp8 GEMM eff."), FieldKind::number);
    field.placeholder = tr("empty: as bf16's");
    field.read = [](const Scenario& scenario) {
        const double efficiency = scenario.cluster.device.fp8_matmul_efficiency;
        return efficiency > 0.0 ? QString::fromStdString(units::format_number(efficiency)) : QString();
    };
    field.write = [path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        if (written.empty()) {
            scenario.cluster.device.fp8_matmul_efficiency = 0.0;
            return std::nullopt;
        }
        const auto value = parse_number(written);
        if (!value) return path.toStdString() + " must be a number (or empty: as bf16's), not " + in_quotes(written);
        scenario.cluster.device.fp8_matmul_efficiency = *value;
        return std::nullopt;
    };
    return field;
}

// training.stack. Choosing one also sets the behaviours that still have the previous stack's values
// (scenario/training_stack.h), as one edit.
ScenarioField stack_field(QString section) {
    ScenarioField field = enum_field<TrainingStack>(QStringLiteral("training.stack"), std::move(section), tr("Stack"),
                                                    training_stack_names,
                                                    [](Scenario& s) -> TrainingStack& { return s.training.stack; });
    field.write = [](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const auto stack = value_of(text.toStdString(), training_stack_names);
        if (!stack) return "training.stack: unknown stack " + in_quotes(text.toStdString());
        change_stack(scenario, *stack);
        return std::nullopt;
    };
    return field;
}

// A preset choice: choosing one replaces the part of the scenario it describes, as naming it in the file would.
template <typename Spec>
ScenarioField preset_field(QString path, QString section, QString label, PresetKind kind,
                           std::function<Spec&(Scenario&)> at, std::optional<Spec> (*spec_of)(std::string_view)) {
    ScenarioField field = make_field(path, std::move(section), std::move(label), FieldKind::choice);
    field.choices = preset_choices(kind);
    field.read = [at](const Scenario& scenario) { return QString::fromStdString(at(const_cast<Scenario&>(scenario)).preset); };
    field.write = [at, spec_of, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        auto spec = spec_of(text.toStdString());
        if (!spec) return path.toStdString() + ": no bundled preset " + in_quotes(text.toStdString());
        at(scenario) = std::move(*spec);
        return std::nullopt;
    };
    return field;
}

// A parallel degree, or `auto` (derived from the device count, as a file writes it): writing a number to the axis
// written as `auto` makes it an ordinary degree; writing `auto` to another axis fixes the one that was `auto` at the
// degree it had.
ScenarioField degree_field(ParallelAxis axis, QString label) {
    const QString path = QStringLiteral("parallelism.") + utf8_text(to_string(axis));
    ScenarioField field = make_field(path, tr("Parallelism"), std::move(label), FieldKind::integer);
    field.read = [axis](const Scenario& scenario) {
        if (scenario.parallelism.derived_axis == axis) return QStringLiteral("auto");
        return QString::number(scenario.parallelism.degree(axis));
    };
    field.write = [axis, path](Scenario& scenario, const QString& text) -> std::optional<std::string> {
        const std::string written = text.trimmed().toStdString();
        if (written == "auto") {
            const std::optional<ParallelAxis> before = scenario.parallelism.derived_axis;
            if (before && *before != axis) {
                // The degree it was derived to, when the scenario says (else as it stands, for validate() to name).
                const Validation validation = validate(scenario);
                if (validation.ok()) {
                    scenario.parallelism.set_degree(*before, validation.scenario->value().parallelism.degree(*before));
                }
            }
            scenario.parallelism.derived_axis = axis;
            return std::nullopt;
        }
        const auto value = parse_integer(written);
        if (!value || *value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max()) {
            return path.toStdString() + " must be a whole number or auto, not " + in_quotes(written);
        }
        if (scenario.parallelism.derived_axis == axis) scenario.parallelism.derived_axis.reset();
        scenario.parallelism.set_degree(axis, static_cast<int>(*value));
        return std::nullopt;
    };
    return field;
}

}  // namespace

std::vector<ScenarioField> scenario_fields(const Scenario& scenario) {
    const QString model = tr("Model");
    const QString training = tr("Training");
    const QString cluster = tr("Cluster");
    const QString parallelism = tr("Parallelism");
    const QString simulation = tr("Simulation");
    std::vector<ScenarioField> fields;
    fields.push_back(preset_field<ModelSpec>(QStringLiteral("model.preset"), model, tr("Preset"), PresetKind::model,
                                             [](Scenario& s) -> ModelSpec& { return s.model; }, &model_preset_spec));
    if (scenario.model.kind == ModelKind::transformer) {
        fields.push_back(integer_field<int>(QStringLiteral("model.layers"), model, tr("Layers"),
                                            [](Scenario& s) -> int& { return s.model.layers; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.hidden"), model, tr("Hidden size"),
                                            [](Scenario& s) -> int& { return s.model.hidden; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.heads"), model, tr("Attention heads"),
                                            [](Scenario& s) -> int& { return s.model.heads; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.kv_heads"), model, tr("Key/value heads"),
                                            [](Scenario& s) -> int& { return s.model.kv_heads; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.ffn_hidden"), model, tr("MLP hidden size"),
                                            [](Scenario& s) -> int& { return s.model.ffn_hidden; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.seq_len"), model, tr("Sequence length"),
                                            [](Scenario& s) -> int& { return s.model.seq_len; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.vocab"), model, tr("Vocabulary"),
                                            [](Scenario& s) -> int& { return s.model.vocab; }));
        fields.push_back(flag_field(QStringLiteral("model.dropout"), model, tr("Dropout"),
                                    [](Scenario& s) -> bool& { return s.model.dropout; }));
        fields.push_back(flag_field(QStringLiteral("model.causal_attention"), model, tr("Causal attention"),
                                    [](Scenario& s) -> bool& { return s.model.causal_attention; }));
        fields.push_back(flag_field(QStringLiteral("model.parallel_blocks"), model, tr("Parallel blocks"),
                                    [](Scenario& s) -> bool& { return s.model.parallel_blocks; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.experts"), model, tr("Experts"),
                                            [](Scenario& s) -> int& { return s.model.experts; }));
        fields.push_back(integer_field<int>(QStringLiteral("model.experts_per_token"), model, tr("Experts per token"),
                                            [](Scenario& s) -> int& { return s.model.experts_per_token; }));
    }

    fields.push_back(integer_field<std::int64_t>(QStringLiteral("training.global_batch"), training, tr("Global batch"),
                                                 [](Scenario& s) -> std::int64_t& { return s.training.global_batch; }));
    fields.push_back(integer_field<int>(QStringLiteral("training.micro_batch"), training, tr("Micro-batch"),
                                        [](Scenario& s) -> int& { return s.training.micro_batch; }));
    if (scenario.model.kind == ModelKind::cnn) {
        // What the oracle's epoch view counts (docs/oracle.md); the simulation does not read it.
        fields.push_back(optional_integer_field(
            QStringLiteral("training.dataset_samples"), training, tr("Samples per epoch"), tr("one batch"),
            [](Scenario& s) -> std::optional<std::int64_t>& { return s.training.dataset_samples; }));
    }
    fields.push_back(stack_field(training));
    fields.push_back(enum_field<Dtype>(QStringLiteral("training.dtype"), training, tr("Data type"), training_dtype_names,
                                       [](Scenario& s) -> Dtype& { return s.training.dtype; }));
    fields.push_back(enum_field<Optimizer>(QStringLiteral("training.optimizer"), training, tr("Optimizer"),
                                           optimizer_names, [](Scenario& s) -> Optimizer& { return s.training.optimizer; }));
    fields.push_back(enum_field<OptimizerImplementation>(
        QStringLiteral("training.optimizer_implementation"), training, tr("Optimizer kernels"),
        optimizer_implementation_names,
        [](Scenario& s) -> OptimizerImplementation& { return s.training.optimizer_implementation; }));
    fields.push_back(flag_field(QStringLiteral("training.fp32_gradients"), training, tr("FP32 gradients"),
                                [](Scenario& s) -> bool& { return s.training.fp32_gradients; }));
    fields.push_back(flag_field(QStringLiteral("training.eager_kernels"), training, tr("Eager kernels"),
                                [](Scenario& s) -> bool& { return s.training.eager_kernels; }));
    fields.push_back(flag_field(QStringLiteral("training.cuda_graphs"), training, tr("CUDA graphs"),
                                [](Scenario& s) -> bool& { return s.training.cuda_graphs; }));
    if (scenario.model.kind == ModelKind::transformer) {
        fields.push_back(enum_field<Attention>(QStringLiteral("training.attention"), training, tr("Attention"),
                                               attention_names,
                                               [](Scenario& s) -> Attention& { return s.training.attention; }));
    }

    fields.push_back(preset_field<ClusterSpec>(QStringLiteral("cluster.preset"), cluster, tr("Preset"),
                                               PresetKind::cluster, [](Scenario& s) -> ClusterSpec& { return s.cluster; },
                                               &cluster_preset_spec));
    fields.push_back(preset_field<DeviceSpec>(QStringLiteral("cluster.device"), cluster, tr("Device"), PresetKind::device,
                                              [](Scenario& s) -> DeviceSpec& { return s.cluster.device; },
                                              &device_preset_spec));
    fields.push_back(quantity_field(QStringLiteral("cluster.device.memory"), cluster, tr("Device memory"),
                                    units::Dimension::size,
                                    [](Scenario& s) -> double& { return s.cluster.device.memory_bytes; }));
    // The CUDA context's share of it (docs/model.md, "The runtime's memory"); empty where the device gives none.
    fields.push_back(quantity_or_unset_field(
        QStringLiteral("cluster.device.context_memory"), cluster, tr("CUDA context"), tr("empty: not counted"),
        units::Dimension::size, [](Scenario& s) -> double& { return s.cluster.device.context_memory_bytes; }));
    fields.push_back(quantity_field(QStringLiteral("cluster.device.memory_bandwidth"), cluster,
                                    tr("Memory bandwidth"), units::Dimension::bandwidth,
                                    [](Scenario& s) -> double& { return s.cluster.device.memory_bandwidth_Bps; }));
    // Empty for none (matmuls unquantised), as a file leaves the key out.
    fields.push_back(positive_or_unset_field(
        QStringLiteral("cluster.device.streaming_multiprocessors"), cluster, tr("SMs"), tr("none: unquantised"),
        [](Scenario& s) -> int& { return s.cluster.device.streaming_multiprocessors; }));
    if (scenario.model.kind == ModelKind::transformer) {
        fields.push_back(number_field(QStringLiteral("cluster.device.attention_efficiency"), cluster,
                                      tr("Attention eff."),
                                      [](Scenario& s) -> double& { return s.cluster.device.attention_efficiency; }));
    }
    if (scenario.training.dtype == Dtype::fp8) fields.push_back(fp8_matmul_efficiency_field(cluster));
    if (scenario.model.kind == ModelKind::transformer) {
        // The host's launch floor (docs/model.md, "Kernel launch floor"): the one this run's launches pay.
        if (scenario.training.cuda_graphs) {
            fields.push_back(quantity_or_unset_field(
                QStringLiteral("cluster.device.graph_kernel_launch"), cluster, tr("Graph launch"),
                tr("empty: no launch floor"), units::Dimension::time,
                [](Scenario& s) -> double& { return s.cluster.device.graph_kernel_launch_s; }));
        } else {
            fields.push_back(quantity_or_unset_field(
                QStringLiteral("cluster.device.kernel_launch"), cluster, tr("Kernel launch"),
                tr("empty: no launch floor"), units::Dimension::time,
                [](Scenario& s) -> double& { return s.cluster.device.kernel_launch_s; }));
        }
    }
    // How collectives spanning several dimensions are built; meaningless with one dimension.
    if (scenario.cluster.topology.size() > 1) {
        fields.push_back(enum_field<MultiDimensionCollectives>(
            QStringLiteral("cluster.multi_dimension_collectives"), cluster, tr("Across dimensions"),
            multi_dimension_collectives_names,
            [](Scenario& s) -> MultiDimensionCollectives& { return s.cluster.multi_dimension_collectives; }));
    }
    append_memory_system_fields(scenario, fields);
    for (std::size_t d = 0; d < scenario.cluster.topology.size(); ++d) {
        const QString prefix = QStringLiteral("cluster.topology[%1]").arg(d);
        // A section per dimension, innermost first, as the file lists them.
        const QString dimension = tr("Topology dimension %1").arg(d);
        fields.push_back(enum_field<DimensionKind>(prefix + QStringLiteral(".kind"), dimension, tr("Kind"),
                                                   dimension_kind_names, [d](Scenario& s) -> DimensionKind& {
                                                       return s.cluster.topology.at(d).kind;
                                                   }));
        fields.push_back(integer_field<int>(prefix + QStringLiteral(".size"), dimension, tr("NPUs"),
                                            [d](Scenario& s) -> int& { return s.cluster.topology.at(d).size; }));
        fields.push_back(quantity_field(prefix + QStringLiteral(".bandwidth"), dimension, tr("Bandwidth"),
                                        units::Dimension::bandwidth,
                                        [d](Scenario& s) -> double& { return s.cluster.topology.at(d).bandwidth_Bps; }));
        fields.push_back(quantity_field(prefix + QStringLiteral(".latency"), dimension, tr("Latency"),
                                        units::Dimension::time,
                                        [d](Scenario& s) -> double& { return s.cluster.topology.at(d).latency_s; }));
        fields.push_back(number_field(prefix + QStringLiteral(".efficiency"), dimension, tr("Efficiency"),
                                      [d](Scenario& s) -> double& { return s.cluster.topology.at(d).efficiency; }));
        fields.push_back(quantity_field(prefix + QStringLiteral(".step_latency"), dimension, tr("Step latency"),
                                        units::Dimension::time, [d](Scenario& s) -> double& {
                                            return s.cluster.topology.at(d).step_latency_s;
                                        }));
        if (scenario.cluster.topology[d].kind == DimensionKind::switch_fabric) {
            fields.push_back(flag_field(prefix + QStringLiteral(".in_switch_reduction"), dimension,
                                        tr("Switch reduces"), [d](Scenario& s) -> bool& {
                                            return s.cluster.topology.at(d).in_switch_reduction;
                                        }));
        }
    }

    fields.push_back(degree_field(ParallelAxis::tp, tr("Tensor (tp)")));
    fields.push_back(degree_field(ParallelAxis::cp, tr("Context (cp)")));
    fields.push_back(degree_field(ParallelAxis::ep, tr("Expert (ep)")));
    fields.push_back(degree_field(ParallelAxis::dp, tr("Data (dp)")));
    fields.push_back(degree_field(ParallelAxis::pp, tr("Pipeline (pp)")));
    fields.push_back(integer_field<int>(QStringLiteral("parallelism.zero"), parallelism, tr("ZeRO stage"),
                                        [](Scenario& s) -> int& { return s.parallelism.zero; }));
    fields.push_back(flag_field(QStringLiteral("parallelism.sequence_parallel"), parallelism, tr("Sequence parallel"),
                                [](Scenario& s) -> bool& { return s.parallelism.sequence_parallel; }));
    fields.push_back(flag_field(QStringLiteral("parallelism.overlap_grad_reduce"), parallelism, tr("DP overlap"),
                                [](Scenario& s) -> bool& { return s.parallelism.overlap_grad_reduce; }));
    fields.push_back(flag_field(QStringLiteral("parallelism.overlap_p2p"), parallelism, tr("PP overlap"),
                                [](Scenario& s) -> bool& { return s.parallelism.overlap_p2p; }));
    fields.push_back(flag_field(QStringLiteral("parallelism.p2p_rendezvous"), parallelism, tr("PP rendezvous"),
                                [](Scenario& s) -> bool& { return s.parallelism.p2p_rendezvous; }));
    fields.push_back(enum_field<OffloadTarget>(QStringLiteral("parallelism.offload_optimizer"), parallelism,
                                               tr("Offload optimizer"), offload_target_names,
                                               [](Scenario& s) -> OffloadTarget& {
                                                   return s.parallelism.offload_optimizer;
                                               }));
    fields.push_back(enum_field<OffloadTarget>(QStringLiteral("parallelism.offload_parameters"), parallelism,
                                               tr("Offload parameters"), offload_target_names,
                                               [](Scenario& s) -> OffloadTarget& {
                                                   return s.parallelism.offload_parameters;
                                               }));
    fields.push_back(enum_field<OffloadTarget>(QStringLiteral("parallelism.offload_gradients"), parallelism,
                                               tr("Offload gradients"), offload_target_names,
                                               [](Scenario& s) -> OffloadTarget& {
                                                   return s.parallelism.offload_gradients;
                                               }));
    fields.push_back(enum_field<OptimizerStepPlace>(QStringLiteral("parallelism.optimizer_step_on"), parallelism,
                                                    tr("Optimizer step on"), optimizer_step_place_names,
                                                    [](Scenario& s) -> OptimizerStepPlace& {
                                                        return s.parallelism.optimizer_step_on;
                                                    }));
    fields.push_back(optional_integer_field(
        QStringLiteral("parallelism.offload_sub_group"), parallelism, tr("Offload sub-group"),
        tr("1000000000 parameters"),
        [](Scenario& s) -> std::optional<std::int64_t>& { return s.parallelism.offload_sub_group; }));
    fields.push_back(flag_field(QStringLiteral("parallelism.pp_scatter_gather"), parallelism, tr("PP scatter/gather"),
                                [](Scenario& s) -> bool& { return s.parallelism.pp_scatter_gather; }));
    fields.push_back(enum_field<TpOverlap>(QStringLiteral("parallelism.tp_overlap"), parallelism, tr("TP overlap"),
                                           tp_overlap_names,
                                           [](Scenario& s) -> TpOverlap& { return s.parallelism.tp_overlap; }));
    fields.push_back(enum_field<Recompute>(QStringLiteral("parallelism.recompute"), parallelism, tr("Recompute"),
                                           recompute_names, [](Scenario& s) -> Recompute& { return s.parallelism.recompute; }));
    fields.push_back(enum_field<Schedule>(QStringLiteral("parallelism.schedule"), parallelism, tr("Schedule"),
                                          schedule_names, [](Scenario& s) -> Schedule& { return s.parallelism.schedule; }));
    fields.push_back(integer_field<int>(QStringLiteral("parallelism.virtual_stages"), parallelism, tr("Virtual stages"),
                                        [](Scenario& s) -> int& { return s.parallelism.virtual_stages; }));

    fields.push_back(number_field(QStringLiteral("simulation.overlap_slowdown"), simulation, tr("Overlap slowdown γ"),
                                  [](Scenario& s) -> double& { return s.simulation.overlap_slowdown; }));
    fields.push_back(flag_field(QStringLiteral("simulation.bandwidth_sharing"), simulation, tr("Bandwidth sharing"),
                                [](Scenario& s) -> bool& { return s.simulation.bandwidth_sharing; }));
    fields.push_back(flag_field(QStringLiteral("simulation.steady_state"), simulation, tr("Repeat the steady period"),
                                [](Scenario& s) -> bool& { return s.simulation.steady_state; }));
    fields.push_back(integer_field<int>(QStringLiteral("simulation.collective_chunks"), simulation,
                                        tr("Collective chunks"),
                                        [](Scenario& s) -> int& { return s.simulation.collective_chunks; }));
    fields.push_back(quantity_field(QStringLiteral("simulation.gradient_bucket"), simulation, tr("Gradient bucket"),
                                    units::Dimension::size,
                                    [](Scenario& s) -> double& { return s.simulation.gradient_bucket_bytes; }));
    return fields;
}

bool path_belongs_to(const std::string& problem_path, const QString& field_path) {
    const std::string field = field_path.toStdString();
    if (problem_path.size() < field.size() || problem_path.compare(0, field.size(), field) != 0) return false;
    if (problem_path.size() == field.size()) return true;
    const char next = problem_path[field.size()];
    return next == '.' || next == '[';
}

}  // namespace parasight::gui
