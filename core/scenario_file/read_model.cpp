// model: a transformer (Megatron-style dimensions) or a CNN (a layer list, ParaDL style).
#include "model/cnn_layers.h"
#include "scenario_file/scenario_readers.h"

#include <algorithm>

namespace parasight {
namespace {

const std::vector<std::string_view> transformer_keys{"preset", "name", "kind", "layers", "decoder_layers", "hidden",
                                                     "heads", "kv_heads", "head_dim", "ffn_hidden", "mlp", "seq_len", "vocab",
                                                     "tie_embeddings", "dropout", "causal_attention", "parallel_blocks", "experts", "experts_per_token",
                                                     "capacity_factor"};
const std::vector<std::string_view> cnn_keys{"preset", "name", "kind", "input", "layers"};

std::vector<std::string_view> all_model_keys() {
    std::vector<std::string_view> keys = transformer_keys;
    for (const auto key : cnn_keys) {
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
    return keys;
}


void read_cnn_layer(const YAML::Node& node, YamlSource& source, const std::string& path, CnnLayer& layer) {
    MapReader reader(node, source, path, {"type", "filters", "kernel", "stride", "padding", "op", "outputs"});
    if (!reader.is_map()) return;
    if (!reader.require("type") || !reader.read_enum("type", layer.type, cnn_layer_type_names)) return;
    auto reject = [&](std::string_view key) {
        if (reader.has(key)) {
            source.error(reader.key_location(key), "a " + std::string(name_of(layer.type, cnn_layer_type_names)) +
                                                       " layer has no '" + std::string(key) + "'");
        }
    };
    switch (layer.type) {
    case CnnLayerType::conv:
        if (reader.require("filters")) reader.read_integer("filters", layer.filters, limits::filters);
        if (reader.require("kernel")) reader.read_integer("kernel", layer.kernel, limits::kernel);
        reader.read_integer("stride", layer.stride, limits::stride);
        reader.read_integer("padding", layer.padding, limits::padding);
        reject("op");
        reject("outputs");
        break;
    case CnnLayerType::pool:
        if (reader.require("kernel")) reader.read_integer("kernel", layer.kernel, limits::kernel);
        layer.stride = layer.kernel;
        reader.read_integer("stride", layer.stride, limits::stride);
        reader.read_integer("padding", layer.padding, limits::padding);
        reader.read_enum("op", layer.pool_op, pool_op_names);
        reject("filters");
        reject("outputs");
        break;
    case CnnLayerType::fc:
        if (reader.require("outputs")) reader.read_integer("outputs", layer.outputs, limits::fc_outputs);
        for (const auto key : {"filters", "kernel", "stride", "padding", "op"}) reject(key);
        break;
    }
}

// Where each block and each of its layers was written, for shape errors; blocks that came from a preset have none
// and are reported where the overriding key was written.
struct CnnLocations {
    std::vector<SourceLocation> blocks;
    std::vector<std::vector<SourceLocation>> layers;
};

void read_cnn_layers(const YAML::Node& node, YamlSource& source, const std::string& path,
                     std::vector<CnnBlock>& blocks, CnnLocations& locations) {
    if (!node.IsSequence() || node.size() == 0) {
        const std::string found = node.IsSequence() ? "an empty list" : std::string(node_type_noun(node));
        source.error(source.location_at(path, node), path + " must be a non-empty list of layers, found " + found);
        return;
    }
    if (node.size() > limits::max_cnn_layers) {
        source.error(source.location_at(path, node), path + " has " + std::to_string(node.size()) +
                                                         " entries; the limit is " +
                                                         std::to_string(limits::max_cnn_layers));
        return;
    }
    std::int64_t expanded_layers = 0;
    blocks.clear();
    for (std::size_t i = 0; i < node.size(); ++i) {
        const YAML::Node entry = node[i];
        const std::string entry_path = path + "[" + std::to_string(i) + "]";
        CnnBlock block;
        std::vector<SourceLocation> layer_locations;
        if (entry.IsMap() && entry["repeat"]) {
            MapReader reader(entry, source, entry_path, {"repeat", "shortcut", "layers"});
            reader.read_integer("repeat", block.repeat, limits::block_repeat);
            reader.read_enum("shortcut", block.shortcut, shortcut_names);
            if (!reader.require("layers")) continue;
            const YAML::Node inner = reader.value("layers");
            if (!inner.IsSequence() || inner.size() == 0) {
                source.error(reader.value_location("layers"), entry_path + ".layers must be a non-empty list of layers");
                continue;
            }
            if (static_cast<std::int64_t>(inner.size()) * block.repeat + expanded_layers > limits::max_cnn_layers) {
                source.error(reader.value_location("repeat"),
                             "the model would have more than " + std::to_string(limits::max_cnn_layers) +
                                 " layers once blocks are repeated; the limit is " + std::to_string(limits::max_cnn_layers));
                return;
            }
            for (std::size_t j = 0; j < inner.size(); ++j) {
                CnnLayer layer;
                read_cnn_layer(inner[j], source, entry_path + ".layers[" + std::to_string(j) + "]", layer);
                block.layers.push_back(layer);
                layer_locations.push_back(
                    source.location_at(entry_path + ".layers[" + std::to_string(j) + "]", inner[j]));
            }
        } else {
            CnnLayer layer;
            read_cnn_layer(entry, source, entry_path, layer);
            block.layers.push_back(layer);
            layer_locations.push_back(source.location_at(entry_path, entry));
        }
        expanded_layers += static_cast<std::int64_t>(block.layers.size()) * block.repeat;
        blocks.push_back(std::move(block));
        locations.blocks.push_back(source.location_at(entry_path, entry));
        locations.layers.push_back(std::move(layer_locations));
    }
}

// Reports the first layer the activation cannot pass, where that layer (or its block) was written.
void check_cnn_shapes(const ModelSpec& model, YamlSource& source, const CnnLocations& locations,
                      const SourceLocation& fallback) {
    const auto problem = first_cnn_shape_problem(model);
    if (!problem) return;
    const std::size_t i = problem->block;
    SourceLocation where = i < locations.blocks.size() ? locations.blocks[i] : fallback;
    if (problem->layer >= 0) {
        const auto j = static_cast<std::size_t>(problem->layer);
        where = i < locations.layers.size() && j < locations.layers[i].size() ? locations.layers[i][j] : fallback;
    }
    source.error(where, problem->message);
}

void read_model_fields(MapReader& reader, LocationIndex& locations, ModelSpec& model, bool from_preset) {
    YamlSource& source = reader.source();
    const bool complete = from_preset;  // a preset supplies every required key
    for (const auto key : all_model_keys()) {
        if (reader.has(key)) locations.record("model." + std::string(key), reader.key_location(key));
    }
    reader.read_string("name", model.name);
    if (!complete) reader.require("kind");
    const ModelKind preset_kind = model.kind;
    if (reader.read_enum("kind", model.kind, model_kind_names) && complete && model.kind != preset_kind) {
        source.error(reader.value_location("kind"),
                     "kind cannot change a preset's kind: preset '" + model.preset + "' is a " +
                         std::string(name_of(preset_kind, model_kind_names)) + " model");
        model.kind = preset_kind;
        return;
    }
    const auto& own_keys = model.kind == ModelKind::transformer ? transformer_keys : cnn_keys;
    for (const auto key : all_model_keys()) {
        if (reader.has(key) && std::find(own_keys.begin(), own_keys.end(), key) == own_keys.end()) {
            source.error(reader.key_location(key), "'" + std::string(key) + "' does not apply to a " +
                                                       std::string(name_of(model.kind, model_kind_names)) + " model");
        }
    }
    if (model.kind == ModelKind::transformer) {
        for (const auto key : {"layers", "hidden", "heads", "seq_len", "vocab"}) {
            if (!complete) reader.require(key);
        }
        reader.read_integer("layers", model.layers, limits::layers);
        reader.read_integer("decoder_layers", model.decoder_layers, limits::decoder_layers);
        reader.read_integer("hidden", model.hidden, limits::hidden);
        reader.read_integer("heads", model.heads, limits::heads);
        reader.read_integer("kv_heads", model.kv_heads, limits::heads);
        reader.read_integer("head_dim", model.head_dim, limits::hidden);
        reader.read_integer("ffn_hidden", model.ffn_hidden, limits::ffn_hidden);
        reader.read_enum("mlp", model.mlp, mlp_kind_names);
        reader.read_integer("seq_len", model.seq_len, limits::seq_len);
        reader.read_integer("vocab", model.vocab, limits::vocab);
        reader.read_bool("tie_embeddings", model.tie_embeddings);
        reader.read_bool("dropout", model.dropout);
        reader.read_bool("causal_attention", model.causal_attention);
        reader.read_bool("parallel_blocks", model.parallel_blocks);
        reader.read_integer("experts", model.experts, limits::experts);
        reader.read_integer("experts_per_token", model.experts_per_token, limits::experts);
        reader.read_fraction("capacity_factor", model.capacity_factor, limits::capacity_factor);
        return;
    }
    if (!complete) {
        reader.require("input");
        reader.require("layers");
    }
    if (reader.has("input")) {
        MapReader input(reader.value("input"), source, "model.input", {"channels", "height", "width"});
        for (const auto key : {"channels", "height", "width"}) input.require(key);
        input.read_integer("channels", model.input.channels, limits::input_extent);
        input.read_integer("height", model.input.height, limits::input_extent);
        input.read_integer("width", model.input.width, limits::input_extent);
    }
    const std::size_t errors_before = source.error_count();
    CnnLocations cnn_locations;
    if (reader.has("layers")) {
        read_cnn_layers(reader.value("layers"), source, "model.layers", model.cnn_layers, cnn_locations);
    }
    // Layers a preset brought are checked against a new input where that input was written.
    const SourceLocation fallback = reader.has("input") ? reader.key_location("input") : reader.location();
    if (source.error_count() == errors_before && (reader.has("layers") || reader.has("input"))) {
        check_cnn_shapes(model, source, cnn_locations, fallback);
    }
}

}  // namespace

void read_model(const YAML::Node& node, YamlSource& source, LocationIndex& locations, ModelSpec& model) {
    std::string preset_id;
    SourceLocation preset_at = source.location_at("model", node);
    if (node.IsScalar()) {
        preset_id = node.Scalar();
    } else if (node.IsMap() && node["preset"]) {
        const YAML::Node preset_node = node["preset"];
        preset_at = source.location_at("model.preset", preset_node);
        if (!preset_node.IsScalar()) {
            source.error(preset_at, "model.preset must be a preset id such as 'gpt3-175b'");
            return;
        }
        preset_id = preset_node.Scalar();
    }
    if (!preset_id.empty()) {
        auto preset = read_preset_fields<ModelSpec>(
            PresetKind::model, preset_id, preset_at, source,
            [](const YAML::Node& yaml, YamlSource& preset_source, ModelSpec& fields) {
                LocationIndex preset_locations;
                MapReader preset_reader(yaml, preset_source, "model", all_model_keys());
                if (!preset_reader.is_map()) return false;
                read_model_fields(preset_reader, preset_locations, fields, false);
                return true;
            });
        if (!preset) return;
        model = std::move(*preset);
        model.preset = preset_id;
    }
    if (node.IsScalar()) return;
    MapReader reader(node, source, "model", all_model_keys());
    if (!reader.is_map()) return;
    read_model_fields(reader, locations, model, !preset_id.empty());
}

}  // namespace parasight
