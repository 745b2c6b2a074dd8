// The tunable search parameters' table and file format.
#include "search/search_params.h"

#include <sstream>

#include "core/text.h"

namespace vblitz::search {

bool SearchParams::operator==(const SearchParams& other) const {
  for (const TunableParam& p : tunable_params())
    if (this->*p.field != other.*p.field) return false;
  return true;
}

const std::vector<TunableParam>& tunable_params() {
  static const std::vector<TunableParam> params = {
#define VBLITZ_DECLARE_ENTRY(name, value, min, max, step, use) \
  {#name, &SearchParams::name, value, min, max, double(step), use},
      VBLITZ_SEARCH_PARAMS(VBLITZ_DECLARE_ENTRY)
#undef VBLITZ_DECLARE_ENTRY
  };
  return params;
}

const TunableParam* find_param(const std::string& name) {
  for (const TunableParam& p : tunable_params())
    if (name == p.name) return &p;
  return nullptr;
}

std::string write_search_params(const SearchParams& params) {
  std::ostringstream out;
  for (const TunableParam& p : tunable_params()) out << p.name << ' ' << params.*p.field << '\n';
  return out.str();
}

std::optional<std::string> read_search_params(const std::string& text, SearchParams& params) {
  SearchParams read = params;
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string name, extra;
    long value = 0;
    if (!(words >> name)) continue;
    const std::string where = "line " + std::to_string(number) + ": ";
    const TunableParam* p = find_param(name);
    if (!p) return where + "no search parameter " + core::quote(name);
    if (!(words >> value) || (words >> extra)) return where + "expected " + core::quote(name + " <integer>");
    if (value < p->min || value > p->max)
      return where + name + " " + std::to_string(value) + " is outside " + std::to_string(p->min) + ".." +
             std::to_string(p->max);
    read.*p->field = int(value);
  }
  params = read;
  return std::nullopt;
}

}  // namespace vblitz::search
