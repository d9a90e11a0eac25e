// Every JSON document of the command line is valid UTF-8 whatever the bytes of a name (the
// writers' rules are tested in tests/unit/test_json_utf8.cpp): layout, call and kernarg with such
// identifiers, elf with such symbol and section names; every document must parse.
#include "../unit/elf_writer.h"
#include "abikit/elf_constants.h"
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;
using abikit::test::TempDir;
using nlohmann::json;

const std::string kFFFD = "\xEF\xBF\xBD";

// The command line, on files whose identifiers are not valid UTF-8.
class JsonUtf8Cli : public ::testing::Test {
protected:
  std::string write(const std::string& name, std::string_view bytes) {
    return dir_.write(name, bytes);
  }

  // Runs the CLI with these arguments (no shell); its stdout, which must be one JSON document
  // (exit status 0).
  json runJson(const std::vector<std::string>& args) {
    CliResult r = runCli(args);
    std::string line;
    for (const std::string& a : args) line += " " + a;
    EXPECT_EQ(r.exit_code, 0) << line << "\n" << r.summary();
    json j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << line << "\n" << r.out;
    return j;
  }

  TempDir dir_;
};

// Identifiers: ill-formed UTF-8 of every kind, and valid multi-byte names that stay as they are.
const char kHeader[] = "struct n\xFF\xFE { int f\xED\xA0\x80; int g\xE2\x82; char h\xC3\xA9;"
                       " long o\xC0\xAF; short big\xF4\x90\x80\x80; };\n"
                       "int fun\xE6\x97\xA5(struct n\xFF\xFE *p\xF0\x9F\x98, int q\xE2);\n";

TEST_F(JsonUtf8Cli, Layout) {
  std::string h = write("bad.h", kHeader);
  json j = runJson({"layout", "--target", "riscv64-unknown-elf", "--json", h});
  ASSERT_TRUE(j.contains("records"));
  const json& r = j["records"][0];
  EXPECT_EQ(r["name"], "struct n" + kFFFD + kFFFD);
  std::vector<std::string> names;
  for (const json& f : r["fields"]) names.push_back(f["name"]);
  EXPECT_EQ(names,
            (std::vector<std::string>{"f" + kFFFD + kFFFD + kFFFD, "g" + kFFFD, "h\xC3\xA9",
                                      "o" + kFFFD + kFFFD, "big" + kFFFD + kFFFD + kFFFD + kFFFD}));
}

TEST_F(JsonUtf8Cli, Call) {
  std::string h = write("bad.h", kHeader);
  json j = runJson({"call", "--target", "riscv64-unknown-elf", "--json", h});
  ASSERT_TRUE(j.contains("functions"));
  const json& f = j["functions"][0];
  EXPECT_EQ(f["name"], "fun\xE6\x97\xA5");
  EXPECT_EQ(f["params"][0]["name"], "p" + kFFFD);
  EXPECT_EQ(f["params"][0]["type"], "struct n" + kFFFD + kFFFD + " *");
  EXPECT_EQ(f["params"][1]["name"], "q" + kFFFD);
}

TEST_F(JsonUtf8Cli, Kernarg) {
  // nlohmann-json's dump threw on such names (and the process ended in std::terminate).
  std::string k = write("k.cl", "__kernel void k\xFF(__global int *a\xE2, int b\xC3\xA9) {}\n");
  json j = runJson({"kernarg", "--target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "--json", k});
  EXPECT_NE(j.dump().find("k" + kFFFD), std::string::npos) << j.dump();
  EXPECT_NE(j.dump().find("b\xC3\xA9"), std::string::npos) << j.dump();
}

TEST_F(JsonUtf8Cli, ElfSymbolAndSectionNames) {
  abikit::test::ElfWriter w(1, 1, abikit::kEmDpu, 0x02800000);
  uint32_t text = w.addSection(".text\xFF\xED\xA0\x80", 1, 6, std::vector<uint8_t>(16, 0));
  w.addSymbol("main\xC3\xA9", 0, 4, 2, 1, uint16_t(text));
  w.addSymbol("bad\xE2\x82", 4, 4, 2, 1, uint16_t(text));
  w.addSymbol("big\xF4\x90\x80\x80", 8, 4, 2, 1, uint16_t(text));
  w.addSymbol(std::string("ctl\x01\n", 5), 12, 4, 2, 1, uint16_t(text));
  std::vector<uint8_t> bytes = w.build();
  std::string obj =
      write("o.o", std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  json j = runJson({"elf", "--json", "--symbols", obj});
  std::string doc = j.dump();
  EXPECT_NE(doc.find(".text" + kFFFD + kFFFD + kFFFD + kFFFD), std::string::npos) << doc;
  EXPECT_NE(doc.find("main\xC3\xA9"), std::string::npos) << doc;
  EXPECT_NE(doc.find("bad" + kFFFD + "\""), std::string::npos) << doc;
  EXPECT_NE(doc.find("big" + kFFFD + kFFFD + kFFFD + kFFFD), std::string::npos) << doc;
  EXPECT_NE(doc.find("ctl\\u0001\\n"), std::string::npos) << doc;
}

} // namespace
