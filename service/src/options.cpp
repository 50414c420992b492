#include "options.hpp"

#include <boost/program_options.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tensorgate/policy.hpp"

namespace tensorgate::service {
namespace po = boost::program_options;
namespace {

// Durations are given in milliseconds; program_options reads them into these, then into Millis.
struct Durations {
  std::int64_t header, body_idle, rate_window, keepalive, write, write_window, linger, drain, parse_cpu, probe;
};

void add_limits(po::options_description& d, ServiceConfig& c, Durations& t) {
  d.add_options()
      ("threads", po::value(&c.threads)->default_value(c.threads), "event-loop threads, 0 = one per core")
      ("worker-threads", po::value(&c.worker_threads)->default_value(c.worker_threads), "threads parsing large headers and /v1/check-model bodies, 0 = one per core")
      ("max-request-header-bytes", po::value(&c.max_request_header_bytes)->default_value(c.max_request_header_bytes), "request line + header fields; above: 431")
      ("read-buffer-bytes", po::value(&c.read_buffer_bytes)->default_value(c.read_buffer_bytes), "per-connection read buffer; bounds chunk headers and trailers")
      ("max-body-bytes", po::value(&c.max_body_bytes)->default_value(c.max_body_bytes), "largest upload; above: 413")
      ("max-name-bytes", po::value(&c.max_name_bytes)->default_value(c.max_name_bytes), "longest name= query value")
      ("max-report-tensors", po::value(&c.max_report_tensors)->default_value(c.max_report_tensors), "tensor inventory entries a report lists; the rest are counted (summary.truncated)")
      ("max-report-metadata", po::value(&c.max_report_metadata)->default_value(c.max_report_metadata), "metadata entries a report lists; the rest are counted")
      ("min-average-chunk-bytes", po::value(&c.min_average_chunk_bytes)->default_value(c.min_average_chunk_bytes), "a chunked body's chunks must average this many bytes; 0 = off")
      ("free-chunks", po::value(&c.free_chunks)->default_value(c.free_chunks), "chunks allowed before the average is checked")
      ("max-check-model-bytes", po::value(&c.max_check_model_bytes)->default_value(c.max_check_model_bytes), "largest /v1/check-model body; above: 413")
      ("max-safetensors-header-bytes", po::value(&c.max_safetensors_header_bytes)->default_value(c.max_safetensors_header_bytes), "largest safetensors header buffered; above (and within the format's cap): 413")
      ("header-memory-budget-bytes", po::value(&c.header_memory_budget_bytes)->default_value(c.header_memory_budget_bytes), "header bytes, and the tables parsed from them, all uploads may hold together; past it: 503")
      ("max-parse-cpu-ms", po::value(&t.parse_cpu)->default_value(t.parse_cpu), "CPU time the parse of one large header may take; past it: 413; 0 = off")
      ("max-concurrent-uploads", po::value(&c.max_concurrent_uploads)->default_value(c.max_concurrent_uploads), "uploads at once; past it: 503")
      ("header-timeout-ms", po::value(&t.header)->default_value(t.header), "time for a request's header, from its first byte")
      ("body-idle-timeout-ms", po::value(&t.body_idle)->default_value(t.body_idle), "longest wait for body bytes")
      ("min-body-rate", po::value(&c.min_body_rate_bytes_per_second)->default_value(c.min_body_rate_bytes_per_second), "bytes/s an upload must average over each window; 0 = off")
      ("min-body-rate-window-ms", po::value(&t.rate_window)->default_value(t.rate_window), "window of the minimum rate")
      ("keepalive-timeout-ms", po::value(&t.keepalive)->default_value(t.keepalive), "idle time between requests")
      ("keepalive-max-requests", po::value(&c.keepalive_max_requests)->default_value(c.keepalive_max_requests), "requests per connection")
      ("write-timeout-ms", po::value(&t.write)->default_value(t.write), "longest wait for the client to read any response bytes")
      ("min-write-rate", po::value(&c.min_write_rate_bytes_per_second)->default_value(c.min_write_rate_bytes_per_second), "bytes/s a response must be read at over each window; 0 = off")
      ("min-write-rate-window-ms", po::value(&t.write_window)->default_value(t.write_window), "window of the minimum write rate")
      ("linger-timeout-ms", po::value(&t.linger)->default_value(t.linger), "drain time after an early answer")
      ("linger-max-bytes", po::value(&c.linger_max_bytes)->default_value(c.linger_max_bytes), "bytes drained after an early answer")
      ("drain-timeout-ms", po::value(&t.drain)->default_value(t.drain), "time uploads may go on after SIGTERM")
      ("max-connections", po::value(&c.max_connections)->default_value(c.max_connections), "open connections; past it: 503")
      ("probe-connections", po::value(&c.probe_connections)->default_value(c.probe_connections), "connections past max-connections admitted for /livez, /readyz and /metrics only; when all are taken, the one waiting longest without a request makes room")
      ("probe-timeout-ms", po::value(&t.probe)->default_value(t.probe), "the whole life of a connection past max-connections: its request, its answer, its close")
      ("max-rejections-in-flight", po::value(&c.max_rejections_in_flight)->default_value(c.max_rejections_in_flight), "503 answers to excess connections at once; past it: closed unanswered")
      ("retry-after-seconds", po::value(&c.retry_after_seconds)->default_value(c.retry_after_seconds), "Retry-After of every 503")
      ("log-level", po::value(&c.log_level)->default_value(c.log_level), "access log level: info, warn, off");
}

void apply(const Durations& t, ServiceConfig& c) {
  c.header_timeout = Millis(t.header);
  c.body_idle_timeout = Millis(t.body_idle);
  c.min_body_rate_window = Millis(t.rate_window);
  c.keepalive_timeout = Millis(t.keepalive);
  c.write_timeout = Millis(t.write);
  c.min_write_rate_window = Millis(t.write_window);
  c.linger_timeout = Millis(t.linger);
  c.drain_timeout = Millis(t.drain);
  c.max_parse_cpu = Millis(t.parse_cpu);
  c.probe_timeout = Millis(t.probe);
}

// Boost.ProgramOptions reads "-1" for an unsigned option as its wrapped value (2^64 - 1): a
// limit written negative would silently become no limit. Every limit is a non-negative
// number, so a leading minus is refused.
po::parsed_options refuse_negative(po::parsed_options parsed, const po::options_description& limits) {
  for (const po::option& opt : parsed.options) {
    if (!limits.find_nothrow(opt.string_key, false)) continue;
    for (const std::string& v : opt.value)
      if (!v.empty() && v.find_first_not_of(" \t") != std::string::npos && v[v.find_first_not_of(" \t")] == '-')
        throw po::error("--" + opt.string_key + " must not be negative: " + v);
  }
  return parsed;
}

// The policy file, read at start: a policy that cannot be read or parsed stops the service from
// starting rather than serving verdicts without it.
std::shared_ptr<const Policy> load_policy(const std::string& path) {
  const PolicyLimits limits;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read policy file '" + path + "'");
  std::string text(static_cast<std::size_t>(limits.max_bytes + 1), '\0');  // one byte past the bound: refused by size
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw std::runtime_error("cannot read policy file '" + path + "'");
  text.resize(static_cast<std::size_t>(in.gcount()));
  PolicyParse parsed = parse_policy(text, path, limits);
  if (!parsed.policy) throw std::runtime_error("policy file '" + path + "': " + parsed.error);
  return std::move(parsed.policy);
}

}  // namespace

void parse_listen(const std::string& listen, ServiceConfig& config) {
  const std::size_t colon = listen.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("--listen wants HOST:PORT");
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = listen.substr(colon + 1);
  std::size_t used = 0;
  unsigned long value = 0;
  try {
    value = std::stoul(port, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (port.empty() || used != port.size() || value > 65535)
    throw std::runtime_error("--listen: bad port '" + port + "'");
  if (!host.empty()) config.host = host;
  config.port = static_cast<std::uint16_t>(value);
}

ServeOptions parse_serve_options(const std::vector<std::string>& args) {
  ServeOptions out;
  ServiceConfig& c = out.config;
  Durations t{c.header_timeout.count(), c.body_idle_timeout.count(), c.min_body_rate_window.count(),
              c.keepalive_timeout.count(), c.write_timeout.count(), c.min_write_rate_window.count(),
              c.linger_timeout.count(), c.drain_timeout.count(), c.max_parse_cpu.count(), c.probe_timeout.count()};
  std::string listen = c.host + ":" + std::to_string(c.port);
  std::string config_file;
  std::string policy_file;
  bool no_ui = !c.ui;
  po::options_description general("tensorgate serve options");
  general.add_options()("help,h", "show this help")
      ("listen", po::value(&listen)->default_value(listen), "HOST:PORT to listen on")
      ("config", po::value(&config_file), "INI-style file with any of the options below (name = value)")
      ("no-ui", po::bool_switch(&no_ui), "do not serve the web page (GET / and /ui/*)")
      ("policy", po::value(&policy_file),
       "policy file (docs/policy.md): pickle globals, Keras modules and ONNX domains allowed or denied beyond the "
       "built-in lists; read at start");
  po::options_description limits("limits (flags win over the config file)");
  add_limits(limits, c, t);
  po::options_description all;
  all.add(general).add(limits);
  try {
    po::variables_map vm;
    po::store(refuse_negative(po::command_line_parser(args).options(all).run(), limits), vm);
    if (vm.count("config")) {
      std::ifstream in(vm["config"].as<std::string>());
      if (!in) throw std::runtime_error("cannot read config file '" + vm["config"].as<std::string>() + "'");
      po::store(refuse_negative(po::parse_config_file(in, all), limits), vm);
    }
    po::notify(vm);
    out.help = vm.count("help") > 0;
  } catch (const po::error& e) {
    throw std::runtime_error(e.what());
  }
  std::ostringstream help;
  help << "usage: tensorgate serve [--listen HOST:PORT] [--config FILE] [options]\n" << all;
  out.help_text = help.str();
  apply(t, c);
  c.ui = !no_ui;
  if (!policy_file.empty()) c.policy = load_policy(policy_file);
  parse_listen(listen, c);
  return out;
}

}  // namespace tensorgate::service
