// `vblitz tune DATA --method texel|hill|ga --out FILE [...]`: fits the evaluation parameters to
// labelled positions and writes a parameter file that the ParamFile option loads.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace vblitz::tune {

// args after "tune". Progress goes to `log`; returns the exit status.
int run_tune_command(const std::vector<std::string>& args, std::ostream& log);

}  // namespace vblitz::tune
