// Helpers for the in-process UCI tests: an engine fed line by line, and text searches.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "uci/uci.h"

namespace vblitz::test {

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Feeds the lines to one engine, letting each bounded search finish before the next line, and
// returns everything it printed.
inline std::string waiting_session(const std::vector<std::string>& lines) {
  std::ostringstream out;
  {
    uci::Engine engine(out);
    for (const std::string& line : lines) {
      engine.handle(line);
      if (line.rfind("go", 0) == 0) engine.wait_for_search();
    }
  }
  return out.str();
}

}  // namespace vblitz::test
