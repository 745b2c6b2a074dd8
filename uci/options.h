// The UCI options, each declared once (name, type, default, range or values, one line of help,
// setter): the `uci` listing, `setoption` and the option table of docs/uci.md all come from
// the one list that uci::Engine builds (uci/engine_options.cc).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vblitz::uci {

enum class OptionType { kCheck, kSpin, kCombo, kString, kButton };

// A `setoption` value after it was checked against its option's type, range or values.
struct OptionValue {
  bool flag = false;  // check
  long number = 0;    // spin
  std::string text;   // combo (one of the values, as declared), string (as given)
};

struct Option {
  std::string name;
  OptionType type = OptionType::kButton;
  std::string default_value;      // as listed: "16", "false", "vector", "<empty>"; empty for a button
  long min = 0, max = 0;          // spin
  std::vector<std::string> vars;  // combo, in listed order
  std::string docs_values;        // combo: the values as docs/uci.md names them, where they vary by machine
  std::string unit;               // spin: how an error names the value ("a size in MB")
  std::string help;               // one line for docs/uci.md
  bool cluster_only = false;      // listed and accepted only in a cluster run (docs/cluster.md)
  // Applies a checked value; returns the error that left the engine unchanged, or nothing.
  std::function<std::optional<std::string>(const OptionValue&)> set;

  // "option name <name> type <type> [default <d>] [min <a> max <b>] [var <v> ...]"
  std::string declaration() const;
  // Checks `text` against the type: a spin's range, a check's true/false, a combo's values
  // (case-insensitive). Returns "<name> takes <what>, not '<text>'" when it does not fit.
  std::optional<std::string> parse(std::string_view text, OptionValue& value) const;
  // "spin 1-65536", "check", "combo", "string", "button"
  std::string type_description() const;
};

// The option named `name` (matched case-insensitively), or null.
const Option* find_option(const std::vector<Option>& options, std::string_view name);

// docs/uci.md's option table: a Markdown table with one row an option, in listing order.
std::string options_markdown(const std::vector<Option>& options);

}  // namespace vblitz::uci
