#pragma once
// A stored run's number for people, chosen by the name of its column in the results database (store/store_schema.h):
// what the command line prints and the sweep views show beside each other, so that both say "24.02 ms" for the same
// iteration time.

#include <string>
#include <string_view>

namespace parasight {

// "629.2 us" (…_s), "35.05 MiB" (…_bytes), "25430.08 samples/s", "6.2%" (mfu, hfu, a …_share of the iteration),
// "19.2 TFLOP/s",
// "9.664e+10 FLOP"; `signed_value` writes a plus sign before a positive value (a difference).
[[nodiscard]] std::string run_column_text(std::string_view column, double value, bool signed_value = false);

// Columns that count things (devices, events, a device number): written as plain whole numbers, never with a unit.
[[nodiscard]] bool is_counted_run_column(std::string_view column) noexcept;

}  // namespace parasight
