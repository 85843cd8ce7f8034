#include "scenario/scenario_names.h"

#include <cctype>

namespace parasight {
namespace {

// Whether `name` holds `number` as a number of its own ("on 1024 A100", "(1024 GPUs)"), not inside a longer one.
bool states_number(const std::string& name, std::int64_t number) {
    const std::string digits = std::to_string(number);
    for (std::size_t at = name.find(digits); at != std::string::npos; at = name.find(digits, at + 1)) {
        const bool starts = at == 0 || std::isdigit(static_cast<unsigned char>(name[at - 1])) == 0;
        const std::size_t end = at + digits.size();
        const bool ends = end == name.size() || std::isdigit(static_cast<unsigned char>(name[end])) == 0;
        if (starts && ends) return true;
    }
    return false;
}

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// Whether `name` holds `text`, in any case ("A100-80GB" for the preset a100-80gb).
bool states_text(const std::string& name, const std::string& text) {
    return !text.empty() && lower(name).find(lower(text)) != std::string::npos;
}

// Whether `name` states a fact of `before` that `now` no longer has.
bool untrue(const std::string& name, const NameFacts& before, const NameFacts& now) {
    if (name.empty()) return false;
    const bool device_changed = before.device != now.device || before.device_preset != now.device_preset;
    return (before.devices != now.devices && states_number(name, before.devices)) ||
           (device_changed && (states_text(name, before.device) || states_text(name, before.device_preset))) ||
           (before.model != now.model && states_text(name, before.model));
}

std::string model_name(const ModelSpec& model) {
    if (!model.name.empty()) return model.name;
    if (!model.preset.empty()) return model.preset;
    return model.kind == ModelKind::cnn ? "a CNN" : "a transformer";
}

}  // namespace

NameFacts name_facts(const Scenario& scenario) {
    return NameFacts{scenario.device_count(), scenario.cluster.device.name, scenario.cluster.device.preset,
                     scenario.model.name};
}

std::string derived_scenario_name(const Scenario& scenario) {
    return model_name(scenario.model) + " on " + std::to_string(scenario.device_count()) + " " +
           scenario.cluster.device.name;
}

std::string derived_cluster_name(const ClusterSpec& cluster) {
    std::int64_t devices = 1;
    std::string sizes;
    for (const Dimension& dimension : cluster.topology) {
        devices *= dimension.size;
        sizes += (sizes.empty() ? "" : " x ") + std::to_string(dimension.size);
    }
    return std::to_string(devices) + " x " + cluster.device.name + " (" + sizes + ")";
}

std::string true_scenario_name(const NameFacts& before, const Scenario& now) {
    return untrue(now.name, before, name_facts(now)) ? derived_scenario_name(now) : now.name;
}

void keep_names_true(const NameFacts& before, Scenario& after) {
    after.name = true_scenario_name(before, after);
    if (untrue(after.cluster.name, before, name_facts(after))) after.cluster.name = derived_cluster_name(after.cluster);
}

}  // namespace parasight
