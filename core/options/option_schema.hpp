#pragma once
// The options that simjoin, simjoin-sweep and simjoin-studio share, declared once: name, value name,
// help and the check of a value. Each program's parser (CLI11 in app/cli, QCommandLineParser in
// app/gui) takes them from here, so the same bad value gets the same message ("--eps: must be ...")
// and exit code 2 in every program. Parser-free and Qt-free.
#include <optional>
#include <string>
#include <string_view>

namespace simjoin::option_schema {

struct OptionSpec {
  std::string_view name;        // without the leading dashes: "eps"
  std::string_view value_name;  // "E"; empty for a flag, which takes no value
  std::string_view help;
  // Empty where `text` is a valid value; else why not ("must be ..."), without the option's name.
  // nullptr for a flag.
  std::string (*check)(std::string_view text);
};

// "--eps: must be ...": what every program prints when `spec` refuses `text` (empty when it accepts).
std::string refusal(const OptionSpec& spec, std::string_view text);
// The message for a value `spec` refuses (each check refuses an empty value).
std::string refusal(const OptionSpec& spec);

inline constexpr int kMinImageSide = 16, kMaxImageSide = 20000;
inline constexpr int kMinDpi = 24, kMaxDpi = 2400;

struct Pixels {
  int width = 0, height = 0;
};

// The values, parsed by the rules the checks apply; nothing where a check refuses.
std::optional<double> parse_eps(std::string_view text);  // eps_allowed (core/join/eps_rule.hpp): finite, >= 0
std::optional<int> parse_k(std::string_view text);       // an integer >= 0 (0: automatic)
std::optional<int> parse_dpi(std::string_view text);     // an integer in [kMinDpi, kMaxDpi]
// "1600x1000" (or "1600X1000"), each side in [kMinImageSide, kMaxImageSide].
std::optional<Pixels> parse_image_pixels(std::string_view text);
// As parse_image_pixels, or "3.5x2.4in": inches, turned into pixels at `dpi` (pixels = inches x dpi).
std::optional<Pixels> parse_image_size(std::string_view text, int dpi);

// The shared options.
extern const OptionSpec kEps;           // one join radius
extern const OptionSpec kK;             // k-means partitions
extern const OptionSpec kSeed;          // seed of the randomised steps
extern const OptionSpec kThreads;       // CPU threads
extern const OptionSpec kDevices;       // GPU ordinals (none: every GPU)
extern const OptionSpec kNoUnicomp;     // a flag: grid engines search from both sides
extern const OptionSpec kNoComponents;  // a flag: gpu-bruteforce tests every pair in all dimensions
extern const OptionSpec kBatchBytes;    // GPU result batch memory
extern const OptionSpec kRepeat;        // timed runs
extern const OptionSpec kWarmup;        // untimed runs first
// A figure's size and resolution: --size and --dpi of simjoin sweep, --export-size and --export-dpi of
// simjoin-studio (same values, same checks).
extern const OptionSpec kSize, kDpi, kExportSize, kExportDpi;

}  // namespace simjoin::option_schema
