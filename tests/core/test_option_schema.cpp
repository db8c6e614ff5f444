// The options schema: each check accepts exactly what its parser reads, and refuses with a message
// that names the option.
#include <gtest/gtest.h>

#include "core/join/eps_rule.hpp"
#include "core/options/option_schema.hpp"

namespace simjoin::option_schema {
namespace {

TEST(OptionSchema, EpsIsAFiniteNumberFromZero) {
  for (const char* good : {"0.5", "2000", "1e-9", "5E3", " 0.25 ", "1e-310", "0", "0.0", "-0"}) {
    EXPECT_TRUE(parse_eps(good)) << good;
    EXPECT_EQ(refusal(kEps, good), "") << good;
  }
  for (const char* bad : {"", "-1", "-1e-300", "nan", "inf", "-inf", "1e400", "0.5x", "1,5", "+2", "abc"}) {
    EXPECT_FALSE(parse_eps(bad)) << bad;
    EXPECT_EQ(refusal(kEps, bad), "--" + eps_refusal()) << bad;
  }
  EXPECT_EQ(*parse_eps("5e3"), 5000.0);
  EXPECT_EQ(*parse_eps("0"), 0.0);
  // The one rule's words: what run_engine and the Python module say after "eps: ".
  EXPECT_EQ(refusal(kEps, "-1"),
            "--eps: must be a finite number >= 0, e.g. 0.5, 2000 or 1e-9 (0: the exact "
            "duplicates only)");
}

TEST(OptionSchema, BatchBytesIsAByteCountAndNoUnicompAFlag) {
  for (const char* good : {"0", "65536", "18446744073709551615"}) EXPECT_EQ(refusal(kBatchBytes, good), "") << good;
  for (const char* bad : {"-1", "1.5", "many", "18446744073709551616", ""})
    EXPECT_EQ(refusal(kBatchBytes, bad).rfind("--batch-bytes: must be a number of bytes", 0), 0u) << bad;
  EXPECT_TRUE(kNoUnicomp.value_name.empty());
  EXPECT_EQ(refusal(kNoUnicomp), "");
}

TEST(OptionSchema, KIsAnIntegerFromZero) {
  EXPECT_EQ(parse_k("0"), 0);
  EXPECT_EQ(parse_k("4096"), 4096);
  for (const char* bad : {"-1", "2.5", "many", "2147483648", ""}) {
    EXPECT_FALSE(parse_k(bad)) << bad;
    EXPECT_EQ(refusal(kK, bad).rfind("--k: must be an integer from 0 to 2147483647", 0), 0u) << bad;
  }
}

TEST(OptionSchema, FigureSizeInPixelsOrInches) {
  const auto pixels = parse_image_size("1600x1000", 150);
  ASSERT_TRUE(pixels);
  EXPECT_EQ(pixels->width, 1600);
  EXPECT_EQ(pixels->height, 1000);
  const auto inches = parse_image_size("3.5x2.4in", 300);  // pixels = inches x dpi
  ASSERT_TRUE(inches);
  EXPECT_EQ(inches->width, 1050);
  EXPECT_EQ(inches->height, 720);
  EXPECT_TRUE(parse_image_pixels("1600X1000"));
  EXPECT_FALSE(parse_image_size("3.5x2.4in", 2));  // 7 x 5 pixels: below the smallest side
  for (const char* bad : {"1500", "8x8", "20001x100", "0x2in", "1x2x3", "axb", ""})
    EXPECT_EQ(refusal(kSize, bad).rfind("--size: must be WIDTHxHEIGHT in pixels", 0), 0u) << bad;
  EXPECT_EQ(refusal(kSize, "3.5x2.4in"), "");
  // The application's --export-size gets the same message under its own name.
  EXPECT_EQ(refusal(kExportSize, "8x8"), "--export-" + refusal(kSize, "8x8").substr(2));
}

TEST(OptionSchema, DpiAndTimingRanges) {
  EXPECT_EQ(parse_dpi("24"), 24);
  EXPECT_EQ(parse_dpi("2400"), 2400);
  EXPECT_FALSE(parse_dpi("23"));
  EXPECT_EQ(refusal(kDpi, "0"), "--dpi: must be an integer from 24 to 2400");
  EXPECT_EQ(refusal(kRepeat, "0"), "--repeat: must be an integer from 1 to 1000");
  EXPECT_EQ(refusal(kRepeat, "1000"), "");
  EXPECT_EQ(refusal(kWarmup, "101"), "--warmup: must be an integer from 0 to 100");
  EXPECT_EQ(refusal(kSeed, "18446744073709551615"), "");
  EXPECT_NE(refusal(kSeed, "-1"), "");
  EXPECT_NE(refusal(kDevices, "-1"), "");
  EXPECT_EQ(refusal(kThreads, "0"), "");
}

}  // namespace
}  // namespace simjoin::option_schema
