#include "uci/options.h"

#include <sstream>

#include "core/text.h"
#include "uci/uci.h"

namespace vblitz::uci {

namespace {

// "a, b or c"
std::string join_choices(const std::vector<std::string>& vars) {
  std::string text;
  for (size_t i = 0; i < vars.size(); ++i)
    text += (i == 0 ? "" : i + 1 == vars.size() ? " or " : ", ") + vars[i];
  return text;
}

const char* type_word(OptionType type) {
  switch (type) {
    case OptionType::kCheck: return "check";
    case OptionType::kSpin: return "spin";
    case OptionType::kCombo: return "combo";
    case OptionType::kString: return "string";
    case OptionType::kButton: return "button";
  }
  return "button";
}

}  // namespace

std::string Option::declaration() const {
  std::string line = "option name " + name + " type " + type_word(type);
  if (type != OptionType::kButton) line += " default " + default_value;
  if (type == OptionType::kSpin) line += " min " + std::to_string(min) + " max " + std::to_string(max);
  for (const std::string& v : vars) line += " var " + v;
  return line;
}

std::string Option::type_description() const {
  if (type == OptionType::kSpin) return "spin " + std::to_string(min) + " to " + std::to_string(max);
  return type_word(type);
}

std::optional<std::string> Option::parse(std::string_view text, OptionValue& value) const {
  const auto complaint = [&](const std::string& what) {
    return name + " takes " + what + ", not " + core::quote(text);
  };
  switch (type) {
    case OptionType::kButton: return std::nullopt;
    case OptionType::kString: value.text = std::string(text); return std::nullopt;
    case OptionType::kCheck: {
      const std::string v = core::to_lower(text);
      if (v != "true" && v != "false") return complaint("true or false");
      value.flag = v == "true";
      return std::nullopt;
    }
    case OptionType::kSpin: {
      if (!parse_int(text, min, max, value.number))
        return complaint(unit + " from " + std::to_string(min) + " to " + std::to_string(max));
      return std::nullopt;
    }
    case OptionType::kCombo:
      for (const std::string& v : vars)
        if (core::to_lower(v) == core::to_lower(text)) {
          value.text = v;
          return std::nullopt;
        }
      return complaint(join_choices(vars));
  }
  return std::nullopt;
}

const Option* find_option(const std::vector<Option>& options, std::string_view name) {
  const std::string key = core::to_lower(name);
  for (const Option& o : options)
    if (core::to_lower(o.name) == key) return &o;
  return nullptr;
}

std::string options_markdown(const std::vector<Option>& options) {
  std::ostringstream table;
  table << "| option | type | default | meaning |\n|---|---|---|---|\n";
  for (const Option& o : options) {
    std::string type = o.type_description();
    if (o.type == OptionType::kCombo && !o.docs_values.empty()) {
      type += ": " + o.docs_values;
    } else if (o.type == OptionType::kCombo) {
      type += ": ";
      for (size_t i = 0; i < o.vars.size(); ++i) type += (i ? ", `" : "`") + o.vars[i] + "`";
    }
    table << "| `" << o.name << "` | " << type << " | "
          << (o.default_value.empty() ? "" : "`" + o.default_value + "`") << " | "
          << (o.cluster_only ? "cluster runs only: " : "") << o.help << " |\n";
  }
  return table.str();
}

}  // namespace vblitz::uci
