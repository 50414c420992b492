// `tensorgate serve` flags and config file: every limit parses, and a bad value is an error
// with a message, never a silently different limit.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "options.hpp"

using tensorgate::service::parse_serve_options;

TEST(ServiceOptions, DefaultsAndFlags) {
  const auto d = parse_serve_options({});
  EXPECT_EQ(d.config.host, "127.0.0.1");
  EXPECT_EQ(d.config.port, 8080u);
  const auto o = parse_serve_options({"--listen", "0.0.0.0:9000", "--max-body-bytes=1024", "--header-timeout-ms", "500"});
  EXPECT_EQ(o.config.host, "0.0.0.0");
  EXPECT_EQ(o.config.port, 9000u);
  EXPECT_EQ(o.config.max_body_bytes, 1024u);
  EXPECT_EQ(o.config.header_timeout.count(), 500);
}

TEST(ServiceOptions, NoUiTurnsThePageOff) {
  EXPECT_TRUE(parse_serve_options({}).config.ui);
  EXPECT_FALSE(parse_serve_options({"--no-ui"}).config.ui);
  const std::string path = ::testing::TempDir() + "/no-ui.ini";
  std::ofstream(path) << "no-ui = true\n";
  EXPECT_FALSE(parse_serve_options({"--config", path}).config.ui);
  EXPECT_NE(parse_serve_options({"--help"}).help_text.find("--no-ui"), std::string::npos);
}

TEST(ServiceOptions, NegativeLimitsAreRefusedNotWrapped) {
  EXPECT_THROW(parse_serve_options({"--max-body-bytes=-1"}), std::runtime_error);
  EXPECT_THROW(parse_serve_options({"--max-connections= -5"}), std::runtime_error);
  const std::string path = ::testing::TempDir() + "/negative.ini";
  std::ofstream(path) << "max-concurrent-uploads = -1\n";
  EXPECT_THROW(parse_serve_options({"--config", path}), std::runtime_error);
}

TEST(ServiceOptions, ConfigFileSetsLimitsAndFlagsWin) {
  const std::string path = ::testing::TempDir() + "/limits.ini";
  std::ofstream(path) << "max-body-bytes = 2048\nmax-connections = 7\n";
  const auto o = parse_serve_options({"--config", path, "--max-connections", "9"});
  EXPECT_EQ(o.config.max_body_bytes, 2048u);
  EXPECT_EQ(o.config.max_connections, 9u);
}

TEST(ServiceOptions, TheProbesReserveAndItsDeadline) {
  const auto d = parse_serve_options({});
  EXPECT_EQ(d.config.probe_connections, 16u);
  EXPECT_EQ(d.config.probe_timeout.count(), 1000);
  const auto o = parse_serve_options({"--probe-connections", "4", "--probe-timeout-ms", "250"});
  EXPECT_EQ(o.config.probe_connections, 4u);
  EXPECT_EQ(o.config.probe_timeout.count(), 250);
  auto zero = o.config;
  zero.probe_timeout = std::chrono::milliseconds(0);
  EXPECT_EQ(tensorgate::service::check_config(zero), "timeouts and the rate window must be positive");
}

TEST(ServiceOptions, BadListenAndUnknownOptions) {
  EXPECT_THROW(parse_serve_options({"--listen", "127.0.0.1"}), std::runtime_error);
  EXPECT_THROW(parse_serve_options({"--listen", "127.0.0.1:70000"}), std::runtime_error);
  EXPECT_THROW(parse_serve_options({"--no-such-limit", "1"}), std::runtime_error);
}
