#pragma once
// A value or a message saying why there is none. A small stand-in for C++23 std::expected.

#include <string>
#include <utility>
#include <variant>

namespace parasight {

struct Error {
    std::string message;
};

template <class T>
class Expected {
public:
    Expected(T value) : state_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
    Expected(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

    [[nodiscard]] bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    [[nodiscard]] const T& value() const& { return std::get<0>(state_); }
    [[nodiscard]] T& value() & { return std::get<0>(state_); }
    [[nodiscard]] T&& value() && { return std::get<0>(std::move(state_)); }
    [[nodiscard]] const T& operator*() const& { return value(); }
    [[nodiscard]] const T* operator->() const { return &value(); }
    [[nodiscard]] const std::string& error() const { return std::get<1>(state_).message; }

private:
    std::variant<T, Error> state_;
};

}  // namespace parasight
