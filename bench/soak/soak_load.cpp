// The soak's load generator (bench/soak/README.md): one thread per client on loopback against a
// running `tensorgate serve`, for a bounded time; prints what the clients saw as one JSON
// document. bench/soak/soak.py starts the server, makes the files, runs this and checks it.
//
//   soak_load --port P --files LIST --tensorgate PATH [--seconds 60] [--seed 1]
//             [--clients upload=36,worst=6,pipeline=4,stall=4,reset=4,slowloris=4,noread=4,idle=2]
//             [--request-timeout-s 120] [--fault-wait-s 60] [--slowloris-interval-ms 250]
//             [--cli-arg ARG]...
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "clients.hpp"

namespace {

struct Args {
  std::uint16_t port = 0;
  std::string files, tensorgate;
  double seconds = 60;
  std::uint64_t seed = 1;
  std::map<std::string, unsigned> clients = {{"upload", 36}, {"worst", 6},   {"pipeline", 4},
                                             {"stall", 4},   {"reset", 4},   {"slowloris", 4},
                                             {"noread", 4},  {"idle", 2}};
  double request_timeout_s = 120, fault_wait_s = 60;
  unsigned slowloris_interval_ms = 250;
  std::vector<std::string> cli_args;
};

void parse_clients(const std::string& spec, std::map<std::string, unsigned>& out) {
  std::size_t start = 0;
  while (start < spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    const std::size_t eq = item.find('=');
    const std::string kind = item.substr(0, eq);
    bool known = false;
    for (const auto k : soak::kClientKinds) known = known || k == kind;
    if (eq == std::string::npos || !known) throw std::runtime_error("bad --clients item: " + item);
    out[kind] = static_cast<unsigned>(std::stoul(item.substr(eq + 1)));
    start = comma + 1;
  }
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) throw std::runtime_error("missing value for " + k);
    const std::string v = argv[++i];
    if (k == "--port") a.port = static_cast<std::uint16_t>(std::stoul(v));
    else if (k == "--files") a.files = v;
    else if (k == "--tensorgate") a.tensorgate = v;
    else if (k == "--seconds") a.seconds = std::stod(v);
    else if (k == "--seed") a.seed = std::stoull(v);
    else if (k == "--clients") parse_clients(v, a.clients);
    else if (k == "--request-timeout-s") a.request_timeout_s = std::stod(v);
    else if (k == "--fault-wait-s") a.fault_wait_s = std::stod(v);
    else if (k == "--slowloris-interval-ms") a.slowloris_interval_ms = static_cast<unsigned>(std::stoul(v));
    else if (k == "--cli-arg") a.cli_args.push_back(v);
    else throw std::runtime_error("unknown option " + k);
  }
  if (!a.port || a.files.empty() || a.tensorgate.empty())
    throw std::runtime_error("--port, --files and --tensorgate are required");
  return a;
}

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

// The comparison must be able to fail: a changed finding, a changed verdict and a missing field
// are told apart from a report that only adds the service's fields, split anywhere.
bool self_test() {
  const std::string offline =
      R"({"files":[{"path":"a","format":"gguf","valid":false,"findings":[{"rule":"GG1.magic","offset":0},)"
      R"({"rule":"GG2.bool","offset":9}],"summary":{"m":"\u00e9\ud83d\ude00"},"error":null}]})";
  const std::string same =
      R"({"schema":"s","request_id":"r","format":"gguf","valid":false,"findings":[{"rule":"GG1.magic","offset":0},)"
      R"({"rule":"GG2.bool","offset":9}],"summary":{"m":"\u00e9\ud83d\ude00"},"complete":true,"sha256":"ab"})";
  auto digest = [](const std::string& text, soak::ReportLayout layout, std::size_t piece) {
    soak::ReportDigester d(layout);
    for (std::size_t i = 0; i < text.size(); i += piece) d.write(std::string_view(text).substr(i, piece));
    d.finish();
    return d.reports().size() == 1 ? d.reports().front() : soak::ReportDigest{};
  };
  const soak::ReportDigest want = digest(offline, soak::ReportLayout::cli, 1000);
  bool ok = want.fields.size() == 6 && want.findings.size() == 2;
  for (std::size_t piece = 1; piece < 16 && ok; ++piece)
    ok = soak::compare_reports(want, digest(same, soak::ReportLayout::service, piece), false).empty();
  auto differs = [&](const std::string& from, const std::string& to, bool partial) {
    std::string changed = same;
    changed.replace(changed.find(from), from.size(), to);
    return !soak::compare_reports(want, digest(changed, soak::ReportLayout::service, 7), partial).empty();
  };
  ok = ok && differs(R"("offset":9)", R"("offset":8)", false) && differs("GG2.bool", "GG2.booL", true) &&
       differs(R"("valid":false)", R"("valid":true)", true) && differs(R"("format":"gguf",)", "", false) &&
       differs(R"(\u00e9)", R"(\u00e8)", false);
  const soak::ReportDigest early = digest(same, soak::ReportLayout::service, 5);
  ok = ok && early.sha256 == std::optional<std::string>("ab") && early.complete == true && early.valid == false;
  std::fprintf(stderr, "soak_load: self-test %s\n", ok ? "passed" : "FAILED");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--self-test") return self_test() ? 0 : 1;
  if (!self_test()) return 1;
  Args args;
  soak::Run run;
  try {
    args = parse(argc, argv);
    run.files = soak::load_files(args.files, args.tensorgate, args.cli_args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soak_load: %s\n", e.what());
    return 2;
  }
  for (const soak::SoakFile& f : run.files) {
    const bool valid = f.expected_status() == 200;
    (f.worst ? run.worst : run.small).push_back(&f);
    if (valid) (f.worst ? run.worst_valid : run.small_valid).push_back(&f);
  }
  run.port = args.port;
  run.request_timeout = seconds(args.request_timeout_s);
  run.fault_wait = seconds(args.fault_wait_s);
  run.slowloris_interval = std::chrono::milliseconds(args.slowloris_interval_ms);
  std::fprintf(stderr, "soak_load: %zu files (%zu worst-case), load for %.0f s\n", run.files.size(),
               run.worst.size(), args.seconds);
  const auto start = soak::Clock::now();
  run.end = start + seconds(args.seconds);
  std::vector<std::thread> threads;
  std::uint64_t index = 0;
  for (const auto& [kind, n] : args.clients)
    for (unsigned i = 0; i < n; ++i, ++index)
      threads.emplace_back([&run, kind = kind, seed = args.seed * 1000 + index] {
        soak::run_client(run, kind, seed);
      });
  for (std::thread& t : threads) t.join();

  boost::json::object out = run.tally.to_json();
  out["seconds"] = std::chrono::duration<double>(soak::Clock::now() - start).count();
  boost::json::object clients;
  for (const auto& [kind, n] : args.clients) clients[kind] = n;
  out["clients"] = std::move(clients);
  out["files"] = {{"small", run.small.size()}, {"small_valid", run.small_valid.size()},
                  {"worst", run.worst.size()}, {"worst_valid", run.worst_valid.size()}};
  std::puts(boost::json::serialize(out).c_str());
  return 0;
}
