// answer asks Google's robots.txt library the questions it reads on stdin,
// one a line, "path<TAB>user-agent<TAB>url", and prints one answer a line,
// "allowed<TAB>matching-line" (allowed is 1 or 0), in order. The robots.txt
// bodies are read once each and cut to 512,000 bytes, as a crawler reads
// them. diff.sh compares its answers with this module's library.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unordered_map>

#include "robots.h"

int main() {
  std::ios::sync_with_stdio(false);
  std::unordered_map<std::string, std::string> bodies;
  std::string line;
  while (std::getline(std::cin, line)) {
    size_t a = line.find('\t'), b = line.find('\t', a + 1);
    if (a == std::string::npos || b == std::string::npos) {
      std::cout << "error\n";
      continue;
    }
    std::string path = line.substr(0, a);
    auto it = bodies.find(path);
    if (it == bodies.end()) {
      if (bodies.size() > 64) bodies.clear();  // questions come file by file
      std::ifstream in(path, std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      std::string body = ss.str();
      if (body.size() > 512000) body.resize(512000);
      it = bodies.emplace(path, std::move(body)).first;
    }
    googlebot::RobotsMatcher m;
    bool ok = m.OneAgentAllowedByRobots(it->second, line.substr(a + 1, b - a - 1), line.substr(b + 1));
    std::cout << (ok ? 1 : 0) << '\t' << m.matching_line() << '\n';
  }
  return 0;
}
