// sweep: a table it cannot allocate stops it with a message, and the settings come back.
#include "app/sweep.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "simd/dispatch.h"

namespace vblitz::app {
namespace {

TEST(Sweep, ATableThatCannotBeAllocatedStopsItWithAMessage) {
  simd::set_kernels(simd::Kernels::kAllVector);
  const std::string target = simd::available_targets().back();
  ASSERT_TRUE(simd::set_simd_target(target));
  for (bool speedtest : {false, true}) {
    SweepOptions o;
    o.speedtest = speedtest;
    o.rounds = 1;
    o.seconds = 1;
    o.depth = 2;
    o.hash_mb = 1 << 30;  // a petabyte: more than any machine has
    std::ostringstream out;
    try {
      run_sweep(o, search::Options{}, out);
      ADD_FAILURE() << "no error for the " << (speedtest ? "speedtest" : "bench") << " sweep";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot allocate"), std::string::npos) << e.what();
    }
    EXPECT_EQ(simd::kernels(), simd::Kernels::kAllVector);
    EXPECT_EQ(simd::simd_target(), target);
  }
  simd::set_kernels(simd::Kernels::kVector);
  simd::set_simd_target("best");
}

}  // namespace
}  // namespace vblitz::app
