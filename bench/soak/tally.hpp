#pragma once
// What the soak's clients saw, shared by all their threads: answers by route and status, the
// requests whose answer no client read (with the statuses the server may have counted for each),
// every report compared with its offline twin, and the problems found. Printed as one JSON
// document for bench/soak/soak.py, which checks it against the server's /metrics.
#include <boost/json/object.hpp>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace soak {

class Tally {
 public:
  // A client read an answer with this status on this route (`validate`, `livez`, ...).
  void observed(const std::string& route, unsigned status);
  // The server answered (or ended) a request no client read: it counted one of `statuses`.
  void unobserved(const std::string& route, std::initializer_list<unsigned> statuses);
  // Something that must not happen: a lost answer, a changed verdict, a wrong digest.
  void problem(const std::string& what, const std::string& detail);
  void compared(bool partial);
  void capacity(const std::string& code);
  void add(const std::string& counter, std::uint64_t n = 1);
  void latency(bool worst, double ms);

  boost::json::object to_json() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::map<unsigned, std::uint64_t>> observed_;
  std::map<std::string, std::map<std::string, std::uint64_t>> unobserved_;
  std::map<std::string, std::uint64_t> problems_;
  std::vector<std::string> problem_samples_;
  std::map<std::string, std::uint64_t> capacity_;
  std::map<std::string, std::uint64_t> counters_;
  std::vector<double> small_ms_, worst_ms_;
};

}  // namespace soak
