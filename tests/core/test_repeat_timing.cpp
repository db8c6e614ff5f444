#include <gtest/gtest.h>

#include "core/report/machine_info.hpp"
#include "core/report/repeat_timing.hpp"

using namespace simjoin;

TEST(RepeatTiming, WarmupRunsComeFirstAndAreNotTimed) {
  std::vector<bool> calls;
  run_repeated({2, 3}, [&](bool timed) { calls.push_back(timed); });
  EXPECT_EQ(calls, (std::vector<bool>{false, false, true, true, true}));
}

TEST(RepeatTiming, SpreadIsMedianMinAndMax) {
  const TimeSpread odd = spread_of({3.0, 1.0, 7.0});
  EXPECT_EQ(odd.median, 3.0);
  EXPECT_EQ(odd.min, 1.0);
  EXPECT_EQ(odd.max, 7.0);
  EXPECT_EQ(spread_of({4.0, 1.0, 2.0, 8.0}).median, 3.0);
  EXPECT_EQ(spread_of({}).max, 0.0);
}

TEST(MachineInfo, NamesTheCpuAndTheGpus) {
  const MachineInfo machine = machine_info(describe_gpus({"GPU A", "GPU A"}, ""));
  EXPECT_FALSE(machine.cpu.empty());
  EXPECT_GT(machine.cpu_threads, 0u);
  EXPECT_EQ(machine.gpu, "2 x GPU A");
  EXPECT_EQ(describe_gpus({}, "no CUDA device"), "none (no CUDA device)");
  EXPECT_NE(machine_line(machine).find("threads; GPU: 2 x GPU A"), std::string::npos);
}
