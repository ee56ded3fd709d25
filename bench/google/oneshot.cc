// oneshot times Google's robots.txt library on the benchmark's one-shot work:
// for each file of a list, a new matcher parses the file and answers one
// question (googlebot::RobotsMatcher::OneAgentAllowedByRobots), as
// BenchmarkOneShot in ../bench_test.go does with this module's library.
//
// Input on stdin: lines "path<TAB>user-agent<TAB>url" (cmd/oneshot-list).
// Each file is read once, cut to 512,000 bytes as a crawler reads it, and
// kept in memory; then the whole list is timed `rounds` times and the median
// round is reported, in ns per file and MB/s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "robots.h"

namespace {

struct Question {
  std::string body, agent, url;
};

constexpr size_t kMaxBytes = 512000;

}  // namespace

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 21;
  std::vector<Question> qs;
  size_t bytes = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    size_t a = line.find('\t'), b = line.find('\t', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::ifstream in(line.substr(0, a), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    Question q{ss.str(), line.substr(a + 1, b - a - 1), line.substr(b + 1)};
    if (q.body.size() > kMaxBytes) q.body.resize(kMaxBytes);
    bytes += q.body.size();
    qs.push_back(std::move(q));
  }
  if (qs.empty()) {
    std::cerr << "oneshot: no questions on stdin\n";
    return 1;
  }
  std::vector<double> ns;
  long allowed = 0;
  for (int r = 0; r < rounds; r++) {
    auto t0 = std::chrono::steady_clock::now();
    for (const Question& q : qs) {
      googlebot::RobotsMatcher m;
      allowed += m.OneAgentAllowedByRobots(q.body, q.agent, q.url);
    }
    auto t1 = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
  }
  std::sort(ns.begin(), ns.end());
  double med = ns[ns.size() / 2];
  std::printf("google-cpp one-shot: %zu files, %zu bytes, %d rounds: median %.0f ns/file, %.1f MB/s (allowed %ld)\n",
              qs.size(), bytes, rounds, med / qs.size(), bytes / (med / 1e9) / 1e6, allowed / rounds);
  return 0;
}
