#include "scenario_file/lesson_file.h"

#include "io/bounded_file.h"
#include "scenario_file/yaml_reader.h"

#include <yaml-cpp/yaml.h>

namespace parasight {
namespace {

// A list of texts (`goals: [a, b]`), or a single text; an error for anything else.
std::vector<std::string> read_texts(MapReader& reader, std::string_view key) {
    std::vector<std::string> texts;
    if (!reader.has(key)) return texts;
    const YAML::Node node = reader.value(key);
    if (node.IsScalar()) {
        texts.push_back(node.Scalar());
    } else if (node.IsSequence()) {
        for (std::size_t i = 0; i < node.size(); ++i) {
            if (node[i].IsScalar()) {
                texts.push_back(node[i].Scalar());
            } else {
                reader.source().error(node[i], reader.path(key) + "[" + std::to_string(i) + "] must be a text, found " +
                                                   std::string(node_type_noun(node[i])));
            }
        }
    } else {
        reader.source().error(reader.value_location(key),
                              reader.path(key) + " must be a text or a list of texts, found " +
                                  std::string(node_type_noun(node)));
    }
    return texts;
}

// A text or a list of texts, each with where it was written; `noun` says what each must be in messages.
std::vector<LocatedText> read_located_texts(MapReader& reader, std::string_view key, const std::string& noun) {
    std::vector<LocatedText> texts;
    if (!reader.has(key)) return texts;
    const YAML::Node node = reader.value(key);
    if (node.IsScalar()) {
        texts.push_back({node.Scalar(), reader.value_location(key)});
    } else if (node.IsSequence()) {
        for (std::size_t i = 0; i < node.size(); ++i) {
            if (node[i].IsScalar()) {
                texts.push_back({node[i].Scalar(), reader.source().location(node[i])});
            } else {
                reader.source().error(node[i], reader.path(key) + "[" + std::to_string(i) + "] must be " + noun +
                                                   ", found " + std::string(node_type_noun(node[i])));
            }
        }
    } else {
        reader.source().error(reader.value_location(key),
                              reader.path(key) + " must be " + noun + " or a list of them");
    }
    return texts;
}

std::optional<LocatedText> located(MapReader& reader, std::string_view key) {
    const std::optional<std::string> text = reader.scalar_text(key);
    if (!text) return std::nullopt;
    return LocatedText{*text, reader.value_location(key)};
}

// A mapping of field paths to one value each (a step's set:, a sweep's best:), in the file's order; `meaning` says what
// it maps, for the error: "field paths to values (training.micro_batch: 2)".
std::vector<std::pair<std::string, LocatedText>> read_path_values(MapReader& reader, std::string_view key,
                                                                  const std::string& meaning) {
    std::vector<std::pair<std::string, LocatedText>> values;
    const YAML::Node node = reader.value(key);
    if (!node.IsMap()) {
        reader.source().error(reader.value_location(key), reader.path(key) + " must map " + meaning + ", found " +
                                                              std::string(node_type_noun(node)));
        return values;
    }
    for (const auto& entry : node) {
        if (!entry.first.IsScalar() || !entry.second.IsScalar()) {
            reader.source().error(entry.first, reader.path(key) + " maps a field's path to one value, as " +
                                                   "parallelism.pp: 4");
            continue;
        }
        values.emplace_back(entry.first.Scalar(),
                            LocatedText{entry.second.Scalar(), reader.source().location(entry.second)});
    }
    return values;
}

// A text of several lines (Markdown), or nothing when absent.
void read_lines(MapReader& reader, std::string_view key, std::string& out) {
    if (const auto text = reader.scalar_text(key)) out = *text;
}

// A relative tolerance: "5%" or a fraction (0.05), from 0 to 1.
void read_tolerance(MapReader& reader, double& out) {
    const std::optional<std::string> text = reader.scalar_text("tolerance");
    if (!text) return;
    std::string_view written = *text;
    const bool percent = !written.empty() && written.back() == '%';
    if (percent) written.remove_suffix(1);
    const std::optional<double> value = parse_number(written);
    const double fraction = value ? (percent ? *value / 100.0 : *value) : -1.0;
    if (!value || fraction < 0.0 || fraction > 1.0) {
        reader.source().error(reader.value_location("tolerance"),
                              reader.path("tolerance") + " must be a share from 0% to 100% (5% or 0.05), not " +
                                  in_quotes(*text));
        return;
    }
    out = fraction;
}

void read_scenario(const YAML::Node& node, YamlSource& source, const std::string& what, LessonScenario& scenario) {
    MapReader reader(node, source, what, {"preset", "file", "set"});
    if (!reader.is_map()) return;
    if (reader.has("preset") == reader.has("file")) {
        source.error(reader.location(), what + " names a bundled preset (preset: pipeline-1f1b) or a scenario file "
                                               "(file: my.yaml), one of the two");
    }
    if (const auto preset = reader.scalar_text("preset")) {
        scenario.preset = *preset;
        scenario.where = reader.value_location("preset");
    }
    if (const auto file = reader.scalar_text("file")) {
        scenario.file = *file;
        scenario.where = reader.value_location("file");
    }
    if (reader.has("set")) scenario.set = read_path_values(reader, "set", "field paths to values (training.micro_batch: 2)");
}

void read_question(const YAML::Node& node, YamlSource& source, const std::string& what, LessonQuestion& question) {
    MapReader reader(node, source, what, {"prompt", "answer", "tolerance", "hint", "explain", "choices", "range"});
    if (!reader.is_map()) return;
    reader.require("prompt");
    reader.read_string("prompt", question.prompt);
    if (reader.require("answer")) {
        if (auto answer = located(reader, "answer")) question.answer = std::move(*answer);
    }
    read_tolerance(reader, question.tolerance);
    reader.read_string("hint", question.hint);
    read_lines(reader, "explain", question.explanation);
    if (reader.has("explain")) question.explanation_where = reader.value_location("explain");
    question.choices = read_texts(reader, "choices");
    if (!reader.has("range")) return;
    const YAML::Node range = reader.value("range");
    std::vector<double> ends;  // the two ends, read as numbers
    if (range.IsSequence() && range.size() == 2) {
        for (const YAML::Node& end : range) {
            const std::optional<double> number = end.IsScalar() ? parse_number(end.Scalar()) : std::nullopt;
            if (number) ends.push_back(*number);
        }
    }
    if (ends.size() != 2 || !(ends[0] < ends[1])) {
        source.error(reader.value_location("range"),
                     what + ".range must be [LOW, HIGH], two numbers, the first the smaller (a slider: [0, 1])");
    } else if (!question.choices.empty()) {
        source.error(reader.value_location("range"), what + " has choices and a range: a slider or a list, one of the two");
    } else {
        question.range = std::pair(ends[0], ends[1]);
    }
}

void read_challenge(const YAML::Node& node, YamlSource& source, const std::string& what, LessonChallenge& challenge) {
    MapReader reader(node, source, what, {"goal", "expression", "below", "above", "keep"});
    if (!reader.is_map()) return;
    challenge.where = reader.location();
    reader.require("goal");
    reader.read_string("goal", challenge.goal);
    if (reader.require("expression")) {
        if (auto expression = located(reader, "expression")) challenge.expression = std::move(*expression);
    }
    for (const char* key : {"below", "above"}) {
        const auto text = reader.scalar_text(key);
        if (!text) continue;
        const std::optional<double> value = parse_number(*text);
        if (!value) {
            source.error(reader.value_location(key), reader.path(key) + " must be a number, not " + in_quotes(*text));
            continue;
        }
        (std::string_view(key) == "below" ? challenge.below : challenge.above) = *value;
    }
    if (challenge.below.has_value() == challenge.above.has_value()) {
        source.error(challenge.where, what + " says where its expression must go: below: VALUE or above: VALUE, one "
                                             "of the two");
    }
    challenge.keep = read_located_texts(reader, "keep", "a field path");
}

void read_claim(const YAML::Node& node, YamlSource& source, const std::string& what, LessonClaim& claim) {
    MapReader reader(node, source, what, {"expression", "is", "tolerance"});
    if (!reader.is_map()) return;
    if (reader.require("expression")) {
        if (auto expression = located(reader, "expression")) claim.expression = std::move(*expression);
    }
    if (reader.require("is")) {
        if (const auto text = reader.scalar_text("is")) {
            const std::optional<double> value = parse_number(*text);
            if (value) {
                claim.value = *value;
            } else {
                source.error(reader.value_location("is"), what + ".is must be a number, not " + in_quotes(*text));
            }
        }
    }
    read_tolerance(reader, claim.tolerance);
}

void read_sweep(const YAML::Node& node, YamlSource& source, const std::string& what, LessonSweep& sweep) {
    MapReader reader(node, source, what, {"axes", "strategies", "points", "best"});
    if (!reader.is_map()) return;
    sweep.where = reader.location();
    sweep.axes = read_located_texts(reader, "axes", "an axis, PATH=VALUES (parallelism.tp=1,2,4)");
    sweep.strategies = located(reader, "strategies");
    if (sweep.axes.empty() && !sweep.strategies) {
        source.error(sweep.where, what + " needs axes (PATH=VALUES: parallelism.tp=1,2,4) or strategies "
                                         "(degrees or all)");
    }
    if (int points = 0; reader.read_integer("points", points, IntegerRange{1, 1'000'000})) {
        sweep.points = points;
        sweep.points_where = reader.value_location("points");
    }
    if (reader.has("best")) sweep.best = read_path_values(reader, "best", "axis paths to the best point's values (parallelism.tp: 8)");
}

void read_step(const YAML::Node& node, std::size_t index, YamlSource& source, Lesson& lesson) {
    const std::string what = "steps[" + std::to_string(index) + "]";
    MapReader reader(node, source, what,
                     {"title", "scenario", "tab", "reveal", "spotlight", "playhead", "text", "notes", "question",
                      "challenge", "sweep", "claims"});
    if (!reader.is_map()) return;
    LessonStep step;
    reader.require("title");
    reader.read_string("title", step.title);
    if (reader.require("scenario")) read_scenario(reader.value("scenario"), source, what + ".scenario", step.scenario);
    if (reader.read_string("tab", step.tab)) step.tab_where = reader.value_location("tab");
    step.reveal = read_located_texts(reader, "reveal", "a target (as node:stage[0])");
    step.spotlight = located(reader, "spotlight");
    reader.read_bool("playhead", step.playhead);
    read_lines(reader, "text", step.text);
    if (reader.has("text")) step.text_where = reader.value_location("text");
    read_lines(reader, "notes", step.notes);
    if (reader.has("question")) {
        LessonQuestion question;
        read_question(reader.value("question"), source, what + ".question", question);
        step.question = std::move(question);
    }
    if (reader.has("challenge")) {
        LessonChallenge challenge;
        read_challenge(reader.value("challenge"), source, what + ".challenge", challenge);
        step.challenge = std::move(challenge);
    }
    if (reader.has("sweep")) {
        LessonSweep sweep;
        read_sweep(reader.value("sweep"), source, what + ".sweep", sweep);
        step.sweep = std::move(sweep);
    }
    if (reader.has("claims")) {
        const YAML::Node claims = reader.value("claims");
        if (!claims.IsSequence()) {
            source.error(reader.value_location("claims"),
                         what + ".claims must be a list of {expression, is, tolerance}, found " +
                             std::string(node_type_noun(claims)));
        } else {
            for (std::size_t c = 0; c < claims.size(); ++c) {
                LessonClaim claim;
                read_claim(claims[c], source, what + ".claims[" + std::to_string(c) + "]", claim);
                step.claims.push_back(std::move(claim));
            }
        }
    }
    lesson.steps.push_back(std::move(step));
}

void read_variant(const YAML::Node& node, std::size_t index, YamlSource& source, Lesson& lesson) {
    const std::string what = "variants[" + std::to_string(index) + "]";
    MapReader reader(node, source, what, {"path", "values"});
    if (!reader.is_map()) return;
    LessonVariant variant;
    variant.where = reader.location();
    reader.require("path");
    reader.read_string("path", variant.path);
    if (reader.require("values")) variant.values = read_located_texts(reader, "values", "a value (as a sweep axis takes it)");
    if (reader.has("values") && variant.values.empty()) {
        source.error(reader.value_location("values"), what + ".values must list one value or more");
    }
    lesson.variants.push_back(std::move(variant));
}

}  // namespace

LessonRead read_lesson(std::string_view text, const std::string& file_name, const std::filesystem::path& directory) {
    LessonRead result;
    YamlSource source(file_name, result.diagnostics, directory);
    const std::optional<YAML::Node> document = load_yaml_document(text, source);
    if (!document) return result;
    const YAML::Node& root = *document;
    MapReader reader(MapReader::DocumentRoot{}, root, source,
                     {"schema", "title", "number", "summary", "goals", "prerequisites", "variants", "steps"});
    if (!reader.is_map()) return result;
    Lesson lesson;
    lesson.file = file_name;
    lesson.directory = directory;
    int schema = 0;
    if (reader.require("schema") && reader.read_integer("schema", schema, IntegerRange{1, 1})) {
        // Version 1, the only one.
    }
    reader.require("title");
    reader.read_string("title", lesson.title);
    if (int number = 0; reader.read_integer("number", number, IntegerRange{1, 999})) lesson.number = number;
    read_lines(reader, "summary", lesson.summary);
    lesson.goals = read_texts(reader, "goals");
    lesson.prerequisites = read_texts(reader, "prerequisites");
    if (reader.require("steps")) {
        const YAML::Node steps = reader.value("steps");
        if (!steps.IsSequence() || steps.size() == 0) {
            source.error(reader.value_location("steps"), "steps must be a list of one step or more, found " +
                                                             std::string(node_type_noun(steps)));
        } else {
            for (std::size_t s = 0; s < steps.size(); ++s) read_step(steps[s], s, source, lesson);
        }
    }
    if (reader.has("variants")) {
        const YAML::Node variants = reader.value("variants");
        if (!variants.IsSequence()) {
            source.error(reader.value_location("variants"), "variants must be a list of {path, values}, found " +
                                                                std::string(node_type_noun(variants)));
        } else {
            for (std::size_t v = 0; v < variants.size(); ++v) read_variant(variants[v], v, source, lesson);
        }
    }
    if (result.diagnostics.empty()) result.lesson = std::move(lesson);
    return result;
}

LessonRead read_lesson_file(const std::filesystem::path& path) {
    Expected<std::string> text = read_bounded_file(path, max_input_file_bytes, "a lesson file");
    if (!text) {
        LessonRead result;
        result.diagnostics.push_back(
            Diagnostic{SourceLocation{path.string(), 0, 0}, "cannot load the lesson: " + text.error(), {}});
        return result;
    }
    const std::filesystem::path folder = path.parent_path();
    return read_lesson(text.value(), path.string(), folder.empty() ? "." : folder);
}

}  // namespace parasight
