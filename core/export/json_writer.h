#pragma once
// A small streaming JSON writer with deterministic output: the same calls give byte-identical text. Numbers are
// written in their shortest round-trip form, doubles always with a point or an exponent (1.0, 2.5e+19) so that every
// reader parses them as floating point; non-finite numbers, which JSON cannot hold, are written as null.

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

class JsonWriter {
public:
    explicit JsonWriter(bool pretty = true) : pretty_(pretty) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(double number);
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(bool flag);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& null();

    [[nodiscard]] const std::string& text() const noexcept { return text_; }
    // Writes the text so far to `out` and forgets it, keeping its place in the document: a long document is written
    // in pieces and never held whole.
    void drain(std::ostream& out);

private:
    void before_value();
    void newline();
    void write_string(std::string_view text);

    struct Level {
        bool is_object;
        bool empty = true;
    };
    bool pretty_;
    bool after_key_ = false;
    std::vector<Level> levels_;
    std::string text_;
};

}  // namespace parasight
