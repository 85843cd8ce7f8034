#pragma once
// A value or a reason why there is none. A small stand-in for C++23 std::expected; the reason is an Error (a message)
// unless a caller needs more, as simulate() does with SimulationError.

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace parasight {

struct Error {
    std::string message;
};

template <class T, class E = Error>
class Expected {
public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
    Expected(E error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(google-explicit-constructor)

    [[nodiscard]] bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    [[nodiscard]] const T& value() const& { return std::get<0>(state_); }
    [[nodiscard]] T& value() & { return std::get<0>(state_); }
    [[nodiscard]] T&& value() && { return std::get<0>(std::move(state_)); }
    [[nodiscard]] const T& operator*() const& { return value(); }
    [[nodiscard]] const T* operator->() const { return &value(); }
    // The message for an Error; the whole reason otherwise.
    [[nodiscard]] decltype(auto) error() const {
        if constexpr (std::is_same_v<E, Error>) {
            return static_cast<const std::string&>(std::get<1>(state_).message);
        } else {
            return static_cast<const E&>(std::get<1>(state_));
        }
    }

private:
    std::variant<T, E> state_;
};

}  // namespace parasight
