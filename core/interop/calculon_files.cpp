#include "interop/calculon_files.h"

#include "common/message_text.h"
#include "common/number_text.h"
#include "export/json_writer.h"
#include "scenario/scenario_limits.h"
#include "scenario_file/yaml_reader.h"

#include <array>

namespace parasight {
namespace {

constexpr std::array<std::string_view, 4> calculon_datatypes{"float8", "float16", "float32", "bfloat16"};

// A plain number in a list entry or elsewhere: nullopt, reported at the node, when it is not one or out of `range`.
std::optional<double> number_at(const YAML::Node& node, const std::string& path, NumberRange range, YamlSource& source) {
    if (!node.IsScalar()) {
        source.error(node, path + " must be a number, not " + std::string(node_type_noun(node)));
        return std::nullopt;
    }
    const auto value = parse_number(node.Scalar());
    if (!value) {
        source.error(node, path + " must be a number, not " + in_quotes(node.Scalar()));
        return std::nullopt;
    }
    if (const auto problem = number_range_problem(path, *value, node.Scalar(), range)) {
        source.error(node, *problem);
        return std::nullopt;
    }
    return value;
}

// An efficiency table, [[size, efficiency], ...] largest size first (Calculon asserts it): the efficiency its largest
// operations reach, the first row's.
std::optional<double> top_efficiency(MapReader& reader, std::string_view key) {
    if (!reader.require(key)) return std::nullopt;
    YamlSource& source = reader.source();
    const YAML::Node table = reader.value(key);
    const std::string path = reader.path(key);
    if (!table.IsSequence() || table.size() == 0) {
        source.error(reader.value_location(key), path + " must be a list of [size, efficiency] rows, largest first");
        return std::nullopt;
    }
    std::optional<double> top;
    for (std::size_t i = 0; i < table.size(); ++i) {
        const YAML::Node row = table[i];
        const std::string row_path = path + "[" + std::to_string(i) + "]";
        if (!row.IsSequence() || row.size() != 2) {
            source.error(row, row_path + " must be one [size, efficiency] pair");
            return std::nullopt;
        }
        const auto size = number_at(row[0], row_path + "[0]", NumberRange{0.0, 1e18}, source);
        const auto efficiency = number_at(row[1], row_path + "[1]", NumberRange{0.0, 1.0}, source);
        if (!size || !efficiency) return std::nullopt;
        if (i == 0) top = efficiency;
    }
    return top;
}

// The matrix or vector unit: a peak and a table per datatype.
void read_processor(MapReader& parent, std::string_view key, std::map<std::string, double, std::less<>>& peaks,
                    std::map<std::string, double, std::less<>>* efficiencies) {
    if (!parent.require(key)) return;
    const std::vector<std::string_view> datatypes(calculon_datatypes.begin(), calculon_datatypes.end());
    MapReader units(parent.value(key), parent.source(), parent.path(key), datatypes);
    if (!units.is_map()) return;
    for (const std::string_view datatype : calculon_datatypes) {
        if (!units.has(datatype)) continue;
        MapReader unit(units.value(datatype), parent.source(), units.path(datatype), {"tflops", "gflops_efficiency"});
        if (!unit.is_map()) continue;
        double tflops = 0.0;
        if (unit.require("tflops") && unit.read_fraction("tflops", tflops, NumberRange{1e-6, 1e7})) {
            peaks[std::string(datatype)] = tflops;
        }
        const auto efficiency = top_efficiency(unit, "gflops_efficiency");
        if (efficiency && efficiencies != nullptr) (*efficiencies)[std::string(datatype)] = *efficiency;
    }
    if (parent.value(key).size() == 0) {
        parent.source().error(parent.value_location(key), parent.path(key) + " names no datatype");
    }
}

void read_memory(MapReader& parent, std::string_view key, double& gib, double& gbps, double* efficiency) {
    if (!parent.require(key)) return;
    MapReader memory(parent.value(key), parent.source(), parent.path(key), {"GiB", "GBps", "MB_efficiency"});
    if (!memory.is_map()) return;
    // mem2 may hold nothing (no offload tier); mem1 must hold something.
    const double least_GiB = efficiency != nullptr ? 1e-9 : 0.0;
    if (memory.require("GiB")) (void)memory.read_fraction("GiB", gib, NumberRange{least_GiB, 1e15});
    if (memory.require("GBps")) (void)memory.read_fraction("GBps", gbps, NumberRange{1e-3, 1e6});
    const auto top = top_efficiency(memory, "MB_efficiency");
    if (top && efficiency != nullptr) *efficiency = *top;
}

std::optional<CalculonNetworkOp> read_op(MapReader& ops, std::string_view key, bool has_offset) {
    if (!ops.require(key)) return std::nullopt;
    YamlSource& source = ops.source();
    const YAML::Node pair = ops.value(key);
    const std::string path = ops.path(key);
    if (!pair.IsSequence() || pair.size() != 2) {
        source.error(ops.value_location(key),
                     path + " must be [scalar, " + (has_offset ? "offset]" : "null]") + ": the traffic is scalar × (1 + "
                                                                                        "offset / n) of the data");
        return std::nullopt;
    }
    CalculonNetworkOp op;
    const auto scalar = number_at(pair[0], path + "[0]", NumberRange{1e-9, 1e9}, source);
    if (!scalar) return std::nullopt;
    op.scalar = *scalar;
    if (!has_offset) {
        if (!pair[1].IsNull()) {
            source.error(pair[1], path + "[1] must be null: a point-to-point send has no offset");
            return std::nullopt;
        }
        return op;
    }
    const auto offset = number_at(pair[1], path + "[1]", NumberRange{-1e9, 1e9}, source);
    if (!offset) return std::nullopt;
    op.offset = *offset;
    return op;
}

void read_networks(MapReader& root, std::vector<CalculonNetwork>& networks) {
    if (!root.require("networks")) return;
    YamlSource& source = root.source();
    const YAML::Node list = root.value("networks");
    if (!list.IsSequence() || list.size() == 0) {
        source.error(root.value_location("networks"), "networks must be a list of at least one network");
        return;
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        MapReader reader(list[i], source, "networks[" + std::to_string(i) + "]",
                         {"bandwidth", "efficiency", "size", "latency", "ops", "must_be_filled", "processor_usage"});
        if (!reader.is_map()) continue;
        CalculonNetwork network;
        network.written_at = reader.location();
        for (const auto key : {"bandwidth", "efficiency", "size", "latency", "ops", "must_be_filled", "processor_usage"}) {
            (void)reader.require(key);
        }
        (void)reader.read_fraction("bandwidth", network.bandwidth_GBps, NumberRange{1e-6, 1e6});
        (void)reader.read_fraction("efficiency", network.efficiency, NumberRange{0.01, 1.0});
        (void)reader.read_integer("size", network.size, IntegerRange{0, 1'000'000'000});
        (void)reader.read_fraction("latency", network.latency_s, NumberRange{0.0, 1.0});
        (void)reader.read_bool("must_be_filled", network.must_be_filled);
        (void)reader.read_fraction("processor_usage", network.processor_usage, NumberRange{0.0, 0.999999});
        if (reader.has("ops")) {
            MapReader ops(reader.value("ops"), source, reader.path("ops"),
                          {"p2p", "reduce_scatter", "all_gather", "all_reduce"});
            if (ops.is_map()) {
                if (auto op = read_op(ops, "p2p", false)) network.p2p = *op;
                if (auto op = read_op(ops, "reduce_scatter", true)) network.reduce_scatter = *op;
                if (auto op = read_op(ops, "all_gather", true)) network.all_gather = *op;
                if (auto op = read_op(ops, "all_reduce", true)) network.all_reduce = *op;
            }
        }
        networks.push_back(network);
    }
}

// A word from a fixed list; reported with the alternatives otherwise.
void read_word(MapReader& reader, std::string_view key, std::string& out, std::vector<std::string_view> words) {
    std::string text;
    if (!reader.read_string(key, text)) return;
    for (const std::string_view word : words) {
        if (text == word) {
            out = text;
            return;
        }
    }
    reader.source().error(reader.value_location(key), in_quotes(text) + " is not a " + std::string(key) +
                                                          " Calculon has; expected " + join_alternatives(words));
}

std::optional<YAML::Node> document(std::string_view text, YamlSource& source) { return load_yaml_document(text, source); }

}  // namespace

std::optional<CalculonSystem> read_calculon_system(std::string_view text, const std::string& file_name,
                                                   Diagnostics& diagnostics) {
    const std::size_t errors_before = diagnostics.size();
    YamlSource source(file_name, diagnostics);
    const auto root = document(text, source);
    if (!root) return std::nullopt;
    MapReader reader(MapReader::DocumentRoot{"the system file"}, *root, source,
                     {"matrix", "vector", "mem1", "mem2", "processing_mode", "networks"});
    if (!reader.is_map()) return std::nullopt;
    CalculonSystem system;
    read_processor(reader, "matrix", system.matrix_TFLOPS, &system.matrix_efficiency);
    read_processor(reader, "vector", system.vector_TFLOPS, nullptr);
    read_memory(reader, "mem1", system.memory_GiB, system.memory_GBps, &system.memory_efficiency);
    read_memory(reader, "mem2", system.offload_GiB, system.offload_GBps, nullptr);
    if (reader.require("processing_mode")) read_word(reader, "processing_mode", system.processing_mode, {"roofline", "no_overlap"});
    read_networks(reader, system.networks);
    if (diagnostics.size() > errors_before) return std::nullopt;
    return system;
}

std::optional<CalculonModel> read_calculon_model(std::string_view text, const std::string& file_name,
                                                 Diagnostics& diagnostics) {
    const std::size_t errors_before = diagnostics.size();
    YamlSource source(file_name, diagnostics);
    const auto root = document(text, source);
    if (!root) return std::nullopt;
    MapReader reader(MapReader::DocumentRoot{"the model file"}, *root, source,
                     {"hidden", "feedforward", "seq_size", "attn_heads", "attn_size", "num_blocks"});
    if (!reader.is_map()) return std::nullopt;
    CalculonModel model;
    const std::pair<const char*, std::pair<std::int64_t*, IntegerRange>> fields[] = {
        {"hidden", {&model.hidden, limits::hidden}},        {"feedforward", {&model.feedforward, limits::ffn_hidden}},
        {"seq_size", {&model.seq_size, limits::seq_len}}, {"attn_heads", {&model.attn_heads, limits::heads}},
        {"attn_size", {&model.attn_size, limits::hidden}},  {"num_blocks", {&model.num_blocks, limits::layers}}};
    for (const auto& [key, field] : fields) {
        if (reader.require(key)) (void)reader.read_integer(key, *field.first, field.second);
    }
    if (diagnostics.size() > errors_before) return std::nullopt;
    return model;
}

std::optional<CalculonExecution> read_calculon_execution(std::string_view text, const std::string& file_name,
                                                         Diagnostics& diagnostics) {
    const std::size_t errors_before = diagnostics.size();
    YamlSource source(file_name, diagnostics);
    const auto root = document(text, source);
    if (!root) return std::nullopt;
    // Llm.Execution.fields(): Calculon asserts the file has exactly these.
    const std::vector<std::string_view> keys{
        "num_procs",       "tensor_par",          "pipeline_par",         "data_par",
        "tensor_par_net",  "pipeline_par_net",    "data_par_net",         "batch_size",
        "microbatch_size", "datatype",            "fused_activation",     "attention_type",
        "activation_recompute", "pipeline_interleaving", "optimizer_sharding", "tensor_par_comm_type",
        "tensor_par_overlap", "seq_par_ag_redo",   "data_par_overlap",     "weight_offload",
        "activations_offload", "optimizer_offload", "training"};
    MapReader reader(MapReader::DocumentRoot{"the execution file"}, *root, source, keys);
    if (!reader.is_map()) return std::nullopt;
    for (const std::string_view key : keys) (void)reader.require(key);
    if (diagnostics.size() > errors_before) return std::nullopt;
    CalculonExecution execution;
    for (const std::string_view key : keys) execution.written_at[std::string(key)] = reader.value_location(key);
    const IntegerRange degree{1, limits::max_devices};
    const IntegerRange network{0, 1000};
    (void)reader.read_integer("num_procs", execution.num_procs, degree);
    (void)reader.read_integer("tensor_par", execution.tensor_par, degree);
    (void)reader.read_integer("pipeline_par", execution.pipeline_par, degree);
    (void)reader.read_integer("data_par", execution.data_par, degree);
    (void)reader.read_integer("tensor_par_net", execution.tensor_par_net, network);
    (void)reader.read_integer("pipeline_par_net", execution.pipeline_par_net, network);
    (void)reader.read_integer("data_par_net", execution.data_par_net, network);
    (void)reader.read_integer("batch_size", execution.batch_size, limits::global_batch);
    (void)reader.read_integer("microbatch_size", execution.microbatch_size, limits::micro_batch);
    read_word(reader, "datatype", execution.datatype, {calculon_datatypes.begin(), calculon_datatypes.end()});
    (void)reader.read_bool("fused_activation", execution.fused_activation);
    read_word(reader, "attention_type", execution.attention_type, {"multihead", "multiquery"});
    read_word(reader, "activation_recompute", execution.activation_recompute, {"full", "attn_only", "none"});
    (void)reader.read_integer("pipeline_interleaving", execution.pipeline_interleaving, IntegerRange{1, 1000});
    (void)reader.read_bool("optimizer_sharding", execution.optimizer_sharding);
    read_word(reader, "tensor_par_comm_type", execution.tensor_par_comm_type, {"ar", "p2p_rs_ag", "rs_ag"});
    read_word(reader, "tensor_par_overlap", execution.tensor_par_overlap, {"none", "ring", "pipe"});
    (void)reader.read_bool("seq_par_ag_redo", execution.seq_par_ag_redo);
    (void)reader.read_bool("data_par_overlap", execution.data_par_overlap);
    (void)reader.read_bool("weight_offload", execution.weight_offload);
    (void)reader.read_bool("activations_offload", execution.activations_offload);
    (void)reader.read_bool("optimizer_offload", execution.optimizer_offload);
    (void)reader.read_bool("training", execution.training);
    if (diagnostics.size() > errors_before) return std::nullopt;
    if (execution.tensor_par * execution.pipeline_par * execution.data_par != execution.num_procs) {
        source.error(execution.written_at["num_procs"],
                     "num_procs is " + std::to_string(execution.num_procs) + " but tensor_par × pipeline_par × "
                     "data_par is " + std::to_string(execution.tensor_par * execution.pipeline_par * execution.data_par) +
                     " (Calculon asserts they are equal)");
        return std::nullopt;
    }
    return execution;
}

namespace {

void write_table(JsonWriter& json, std::string_view key, double efficiency) {
    json.key(key).begin_array().begin_array().value(std::int64_t{0}).value(efficiency).end_array().end_array();
}

void write_processor(JsonWriter& json, std::string_view key, const std::map<std::string, double, std::less<>>& peaks,
                     const std::map<std::string, double, std::less<>>& efficiencies) {
    json.key(key).begin_object();
    for (const auto& [datatype, tflops] : peaks) {
        json.key(datatype).begin_object();
        json.key("tflops").value(tflops);
        const auto efficiency = efficiencies.find(datatype);
        write_table(json, "gflops_efficiency", efficiency != efficiencies.end() ? efficiency->second : 1.0);
        json.end_object();
    }
    json.end_object();
}

void write_memory(JsonWriter& json, std::string_view key, double gib, double gbps, double efficiency) {
    json.key(key).begin_object();
    json.key("GiB").value(gib);
    json.key("GBps").value(gbps);
    write_table(json, "MB_efficiency", efficiency);
    json.end_object();
}

void write_op(JsonWriter& json, std::string_view key, const CalculonNetworkOp& op, bool has_offset) {
    json.key(key).begin_array().value(op.scalar);
    if (has_offset) {
        json.value(op.offset);
    } else {
        json.null();
    }
    json.end_array();
}

}  // namespace

std::string write_calculon_system(const CalculonSystem& system) {
    JsonWriter json;
    json.begin_object();
    write_processor(json, "matrix", system.matrix_TFLOPS, system.matrix_efficiency);
    write_processor(json, "vector", system.vector_TFLOPS, {});
    write_memory(json, "mem1", system.memory_GiB, system.memory_GBps, system.memory_efficiency);
    write_memory(json, "mem2", system.offload_GiB, system.offload_GBps, 1.0);
    json.key("processing_mode").value(system.processing_mode);
    json.key("networks").begin_array();
    for (const CalculonNetwork& network : system.networks) {
        json.begin_object();
        json.key("bandwidth").value(network.bandwidth_GBps);
        json.key("efficiency").value(network.efficiency);
        json.key("size").value(network.size);
        json.key("latency").value(network.latency_s);
        json.key("ops").begin_object();
        write_op(json, "p2p", network.p2p, false);
        write_op(json, "reduce_scatter", network.reduce_scatter, true);
        write_op(json, "all_gather", network.all_gather, true);
        write_op(json, "all_reduce", network.all_reduce, true);
        json.end_object();
        json.key("must_be_filled").value(network.must_be_filled);
        json.key("processor_usage").value(network.processor_usage);
        json.end_object();
    }
    json.end_array();
    json.end_object();
    return json.text();
}

std::string write_calculon_model(const CalculonModel& model) {
    JsonWriter json;
    json.begin_object();
    json.key("hidden").value(model.hidden);
    json.key("feedforward").value(model.feedforward);
    json.key("seq_size").value(model.seq_size);
    json.key("attn_heads").value(model.attn_heads);
    json.key("attn_size").value(model.attn_size);
    json.key("num_blocks").value(model.num_blocks);
    json.end_object();
    return json.text();
}

std::string write_calculon_execution(const CalculonExecution& execution) {
    JsonWriter json;
    json.begin_object();
    json.key("num_procs").value(execution.num_procs);
    json.key("tensor_par").value(execution.tensor_par);
    json.key("pipeline_par").value(execution.pipeline_par);
    json.key("data_par").value(execution.data_par);
    json.key("tensor_par_net").value(execution.tensor_par_net);
    json.key("pipeline_par_net").value(execution.pipeline_par_net);
    json.key("data_par_net").value(execution.data_par_net);
    json.key("batch_size").value(execution.batch_size);
    json.key("microbatch_size").value(execution.microbatch_size);
    json.key("datatype").value(execution.datatype);
    json.key("fused_activation").value(execution.fused_activation);
    json.key("attention_type").value(execution.attention_type);
    json.key("activation_recompute").value(execution.activation_recompute);
    json.key("pipeline_interleaving").value(execution.pipeline_interleaving);
    json.key("optimizer_sharding").value(execution.optimizer_sharding);
    json.key("tensor_par_comm_type").value(execution.tensor_par_comm_type);
    json.key("tensor_par_overlap").value(execution.tensor_par_overlap);
    json.key("seq_par_ag_redo").value(execution.seq_par_ag_redo);
    json.key("data_par_overlap").value(execution.data_par_overlap);
    json.key("weight_offload").value(execution.weight_offload);
    json.key("activations_offload").value(execution.activations_offload);
    json.key("optimizer_offload").value(execution.optimizer_offload);
    json.key("training").value(execution.training);
    json.end_object();
    return json.text();
}

std::optional<CalculonFileKind> calculon_file_kind(std::string_view text) {
    Diagnostics ignored;
    YamlSource source({}, ignored);
    const auto parsed = load_yaml_document(text, source);
    if (!parsed || !parsed->IsMap()) return std::nullopt;
    const YAML::Node& root = *parsed;
    if (root["networks"]) return CalculonFileKind::system;
    if (root["num_procs"]) return CalculonFileKind::execution;
    if (root["hidden"]) return CalculonFileKind::model;
    return std::nullopt;
}

}  // namespace parasight
