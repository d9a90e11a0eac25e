// The one walker of tests/golden/: every FAMILY/KIND/NAME.h with its target triple, in name
// order, the parameters of the golden tests (test_golden_layout.cpp: KIND "layout", expected
// NAME.layout; test_golden_call.cpp: KIND "call", expected NAME.call), and the text of a file.
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abikit::golden {

struct GoldenCase {
  std::string family;
  std::string triple;
  std::string header; // path of NAME.h
};

// gtest prints a failing parameter with this instead of its bytes.
inline void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.header;
}

/// Every NAME.h under tests/golden/FAMILY/`kind`/, for the families that have golden files.
inline std::vector<GoldenCase> goldenCases(std::string_view kind) {
  namespace fs = std::filesystem;
  std::vector<GoldenCase> cases;
  const std::pair<const char*, const char*> families[] = {{"dpu", "dpu-upmem-dpurte"},
                                                          {"ipu", "colossus-graphcore-elf"}};
  for (auto [family, triple] : families) {
    fs::path dir = fs::path(ABIKIT_SOURCE_DIR) / "tests/golden" / family / kind;
    if (!fs::is_directory(dir)) continue;
    std::vector<std::string> headers;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".h") headers.push_back(e.path().string());
    std::sort(headers.begin(), headers.end());
    for (const std::string& h : headers) cases.push_back({family, triple, h});
  }
  return cases;
}

/// The name of a case's test: FAMILY_NAME with every other character than a letter or digit '_'.
inline std::string goldenCaseName(const ::testing::TestParamInfo<GoldenCase>& info) {
  std::string n =
      info.param.family + "_" + std::filesystem::path(info.param.header).stem().string();
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

inline std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace abikit::golden
