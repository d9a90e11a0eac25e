// `abikit dwarf-expr decode|encode` through the command line: the text, display and JSON forms,
// the encodings and formats, and the errors (one line on stderr with the byte offset or the text
// column, exit 1, nothing on stdout). The codec itself is tested in tests/unit/test_dwarf_*.cpp.
#include "abikit/elf.h"
#include "cli_runner.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;
using abikit::test::TempDir;

CliResult dwarfExpr(std::vector<std::string> args) {
  args.insert(args.begin(), "dwarf-expr");
  return runCli(args);
}

void expectOut(const CliResult& r, const std::string& out) {
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, out);
}

void expectError(const CliResult& r, const std::string& err, int code = 1) {
  EXPECT_EQ(r.exit_code, code) << r.summary();
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, err);
}

TEST(DwarfExprCli, Decode) {
  expectOut(
      dwarfExpr({"decode", "--target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "90 80 14", "e902"}),
      "DW_OP_regx 0xa00, DW_OP_LLVM_form_aspace_address\n");
  expectOut(
      dwarfExpr({"decode", "--target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "--display",
                 "908014e902", "90c100"}),
      "DW_OP_regx VGPR0, DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address, DW_OP_regx SGPR33\n");
  expectOut(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "--display", "72 08 a3 01 55"}),
            "DW_OP_breg2 X2+8, DW_OP_entry_value(DW_OP_reg5 X5)\n");
  expectOut(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "--json", "90 80 14 a3 01 55"}),
            "{\"schema\":\"abikit/1\",\"ops\":[{\"offset\":0,\"size\":3,\"text\":\"DW_OP_regx "
            "0xa00\"},{\"offset\":3,\"size\":3,\"text\":\"DW_OP_entry_value (DW_OP_reg5)\"}]}\n");
  expectOut(
      dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "--json", "--display", "72 08"}),
      "{\"schema\":\"abikit/1\",\"ops\":[{\"offset\":0,\"size\":2,\"text\":\"DW_OP_breg2 "
      "X2+8\"}]}\n");
  expectOut(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", ""}), "\n");
}

TEST(DwarfExprCli, EncodingsAndFormats) {
  expectOut(dwarfExpr({"decode", "--target", "amdgcn-amd-amdhsa", "--encoding", "legacy",
                       "e1 e9 "
                       "70 00 00 00 04"}),
            "DW_OP_LLVM_form_aspace_address, DW_OP_LLVM_aspace_implicit_pointer 0x70 4\n");
  expectOut(
      dwarfExpr({"decode", "--target", "amdgcn-amd-amdhsa", "--encoding=seed-draft", "e7 e9 ea"}),
      "DW_OP_LLVM_form_aspace_address, DW_OP_LLVM_offset, DW_OP_LLVM_push_lane\n");
  // The address size follows the target (riscv32: 4) unless given; --dwarf64 widens references.
  expectOut(dwarfExpr({"decode", "--target", "riscv32-unknown-elf", "03 78 56 34 12"}),
            "DW_OP_addr 0x12345678\n");
  expectOut(dwarfExpr({"decode", "--target", "riscv32-unknown-elf", "--address-size", "8",
                       "03 08 07 06 05 04 03 02 01"}),
            "DW_OP_addr 0x102030405060708\n");
  expectOut(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "--dwarf64",
                       "9a 08 07 06 05 04 03 02 01"}),
            "DW_OP_call_ref 0x102030405060708\n");
  expectOut(dwarfExpr({"encode", "--target", "amdgcn-amd-amdhsa",
                       "DW_OP_regx 0xa00, DW_OP_LLVM_push_lane, DW_OP_lit4, DW_OP_mul, "
                       "DW_OP_LLVM_offset"}),
            "90 80 14 e9 03 34 1e e9 04\n");
  expectOut(dwarfExpr({"encode", "--target", "amdgcn-amd-amdhsa", "--encoding", "legacy",
                       "DW_OP_LLVM_offset_uconst 0x10, DW_OP_bregx 0x21 -8"}),
            "e4 10 92 21 78\n");
  expectOut(dwarfExpr({"encode", "--target", "riscv64-unknown-elf", ""}), "\n");
}

TEST(DwarfExprCli, Errors) {
  expectError(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "96 0a 01"}),
              "abikit: error: Truncated at byte 1: DW_OP_const2u: a fixed-size operand runs past "
              "the end of the expression\n");
  expectError(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "30 e9 00"}),
              "abikit: error: ReservedSubOpcode at byte 1: DW_OP_LLVM_user sub-opcode 0 is "
              "reserved\n");
  expectError(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "e9 0d"}),
              "abikit: error: UnknownSubOpcode at byte 0: DW_OP_LLVM_user sub-opcode 13 is not "
              "assigned\n");
  expectError(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "e1"}),
              "abikit: error: UnknownOpcode at byte 0: opcode 0xe1 is no operation in the user "
              "encoding\n");
  expectError(
      dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "10 ff ff ff ff ff ff ff ff ff 7f"}),
      "abikit: error: Overflow at byte 0: DW_OP_constu: a ULEB128 operand does not fit "
      "in 64 bits\n");
  expectError(dwarfExpr({"encode", "--target", "riscv64-unknown-elf", "--encoding", "seed-draft",
                         "DW_OP_lit0, DW_OP_LLVM_undefined"}),
              "abikit: error: Unencodable at operation 1: DW_OP_LLVM_undefined has no code in the "
              "seed-draft encoding\n");
  expectError(dwarfExpr({"encode", "--target", "riscv64-unknown-elf", "DW_OP_lit0 DW_OP_lit1"}),
              "abikit: error: Syntax at column 12: expected ',' between operations\n");
  expectError(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "9"}),
              "abikit: error: HEX argument 1: an odd number of hex digits\n");
  expectError(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "30", "3x"}),
              "abikit: error: HEX argument 2: character 2 is not a hex digit\n");
  expectError(dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "--address-size", "2", "30"}),
              "abikit: error: --address-size 2 is not supported (4 or 8)\n");
  CliResult r = dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "--encoding", "gnu", "30"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  r = dwarfExpr({"decode", "30"});
  EXPECT_EQ(r.exit_code, 2);
}

// eval: the contract's machine file, results, --read, --write, and the two kinds of errors.
TEST(DwarfExprCli, Eval) {
  TempDir dir;
  std::string m = dir.write("m.json",
                            R"({"wavefront_size":64, "lane":5,
 "registers":[{"reg":16,"value":"0x7f0000001040"}, {"reg":"SGPR0","value":"0x1000"},
              {"reg":2560,"lanes":["0x1000","0x1001","0x1002","0x1003","0x1004","0x1005"]}],
 "memory":[{"space":"global","address":"0x10000","bytes":"01 02 03 04 05 06 07 08"},
           {"space":"private_wave","address":"0x514","bytes":"aa bb cc dd"}],
 "apertures":{"local":"0x1000000000000","private":"0x2000000000000"},
 "frame_base":"DW_OP_regx 0x20",
 "dies":[{"offset":"0x60","tag":"dwarf_procedure","location":"DW_OP_lit4, DW_OP_plus"},
         {"offset":"0x80","tag":"variable","const_value":"2a 00 00 00"}]})");
  std::vector<std::string> t = {"eval",         "--target",  "amdgcn-amd-amdhsa",
                                "-mcpu=gfx90a", "--machine", m};
  auto eval = [&](std::vector<std::string> more) {
    std::vector<std::string> a = t;
    a.insert(a.end(), more.begin(), more.end());
    return dwarfExpr(a);
  };
  expectOut(eval({"--as", "value", "--json", "DW_OP_lit1, DW_OP_call2 0x60"}),
            R"({"schema":"abikit/1","result":"value","type":"generic","value":"0x5"})"
            "\n");
  expectOut(
      eval({"--read", "4", "--json", "DW_OP_addr 0x10000"}),
      R"({"schema":"abikit/1","result":"location","location":{"kind":"memory","space":"global","bit_offset":"0x80000"},"read":"0x4030201"})"
      "\n");
  // The focused lane's element of a wave64 VGPR, and the lane's private memory (swizzled).
  expectOut(eval({"--read", "4",
                  "DW_OP_regx 0xa00, DW_OP_LLVM_push_lane, DW_OP_lit4, "
                  "DW_OP_mul, DW_OP_LLVM_offset"}),
            "location register 2560 bit_offset 0xa0\nread 0x1005\n");
  expectOut(eval({"--read", "4", "DW_OP_lit20, DW_OP_lit5, DW_OP_LLVM_form_aspace_address"}),
            "location memory private_lane lane 5 bit_offset 0xa0\nread 0xddccbbaa\n");
  expectOut(eval({"--as", "value", "--hex", "30 31", "22"}), "value generic 0x1\n");
  expectOut(
      eval({"--write", "f1 0f", "--at", "8", "--json", "DW_OP_addr 0x10000"}),
      R"({"schema":"abikit/1","result":"location","location":{"kind":"memory","space":"global","bit_offset":"0x80000"},"written":{"registers":[],"lanes":[],"memory":[{"space":"global","address":"0x10001","bytes":"f1 0f"}]}})"
      "\n");
  expectOut(
      eval({"--write", "ff ff ff ff", "--at", "32", "--json", "DW_OP_regx 0xa00"}),
      R"({"schema":"abikit/1","result":"location","location":{"kind":"register","reg":2560,"bit_offset":"0x0"},"written":{"registers":[],"lanes":[{"reg":2560,"lane":1,"value":"0xffffffff"}],"memory":[]}})"
      "\n");
  // A failed read: the result and the error, exit 1.
  CliResult r = eval({"--read", "4", "--json", "DW_OP_addr 0x20000"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.out.find(
          R"("read_error":{"kind":"evaluation-error","message":"evaluation error: memory at 0x20000)"),
      std::string::npos)
      << r.out;
  expectError(eval({"DW_OP_regx 0x600"}),
              "abikit: error: ill-formed: DWARF register 1536 is not a register of "
              "amdgcn-amd-amdhsa in wave64 code (operation at byte 0)\n");
  expectError(eval({"DW_OP_lit1, DW_OP_lit0, DW_OP_div"}),
              "abikit: error: evaluation error: DW_OP_div by zero (operation at byte 2)\n");
  expectError(eval({"--as", "value", "DW_OP_lit1, DW_OP_plus"}),
              "abikit: error: ill-formed: the stack is empty (operation at byte 1)\n");
  r = dwarfExpr({"eval", "--target", "riscv64-unknown-elf", "--machine", dir.path() + "/none.json",
                 "DW_OP_lit1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  std::string bad = dir.write("bad.json", R"({"registers":[{"reg":"q7","value":"0x1"}]})");
  expectError(
      dwarfExpr({"eval", "--target", "riscv64-unknown-elf", "--machine", bad, "DW_OP_lit1"}),
      "abikit: error: " + bad +
          ": registers[0].reg: not a DWARF register of riscv64-unknown-elf\n");
}

} // namespace

namespace {

// dwarf-cfi eval: the target's default CIE, then the instructions; the CFA and each column.
TEST(DwarfCfiCli, Eval) {
  TempDir dir;
  std::string rv = dir.write("r.json", R"({"registers":[{"reg":"x2","value":"0x1000"}],
    "memory":[{"address":"0x1008","bytes":"ef be ad de 00 00 00 00"}]})");
  // DW_CFA_def_cfa x2 16; DW_CFA_offset x1 1 (data alignment -8: CFA-8).
  expectOut(
      runCli({"dwarf-cfi", "eval", "--target", "riscv64-unknown-elf", "--machine", rv, "--json",
              "0c 02 10", "81 01"}),
      R"J({"schema":"abikit/1","cfa":{"kind":"memory","space":"global","bit_offset":"0x8080"},"registers":[{"reg":1,"rule":"offset(-8)","location":{"kind":"memory","space":"global","bit_offset":"0x8040"},"value":"0xdeadbeef"}]})J"
      "\n");
  // AMDGPU: the CFA in scratch (reference dwarf.md §4.5), an SGPR saved at the CFA, PC undefined.
  std::string amd = dir.write("a.json", R"({"registers":[{"reg":"SGPR32","value":"0x40"}],
    "memory":[{"space":"private_wave","address":"0x1000","bytes":"0d f0 ad 0b"}]})");
  expectOut(runCli({"dwarf-cfi", "eval", "--target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a",
                    "--machine", amd, "0f 0a 90 c0 00 94 04 36 24 36 e9 02", "05 41 00", "07 10"}),
            "CFA: memory private_wave bit_offset 0x8000\n"
            "reg 16: undefined: undefined (value: evaluation error: the location is undefined)\n"
            "reg 65: offset(0): memory private_wave bit_offset 0x8000 = 0xbadf00d\n");
  // def_cfa_register with no CFA rule makes it R+0 (GCC 12's RISC-V CIE); def_cfa_offset with
  // no rule is ill-formed.
  expectOut(
      runCli({"dwarf-cfi", "eval", "--target", "riscv64-unknown-elf", "--machine", rv, "0d 02"}),
      "CFA: memory global bit_offset 0x8000\n");
  CliResult r =
      runCli({"dwarf-cfi", "eval", "--target", "riscv64-unknown-elf", "--machine", rv, "0e 10"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
}

} // namespace

namespace {

// A riscv64 program built by clang-22 -O2 -g (the fuzz corpus keeps it): f(int x, long y,
// struct S s) with a loop, and main.
const std::string kRv64 =
    std::string(ABIKIT_SOURCE_DIR) + "/tests/fuzz/corpus/dwarf_info/rv64_clang22";

TEST(DwarfCli, VariablesAt) {
  expectOut(runCli({"dwarf", kRv64, "--variables-at", "0x11218"}),
            "0x11218 in f\n"
            "  parameter x (int): register a0   [DW_OP_reg10 X10]\n"
            "  parameter y (long): computed: DW_OP_entry_value(DW_OP_reg11 X11), "
            "DW_OP_stack_value   [DW_OP_entry_value(DW_OP_reg11 X11), DW_OP_stack_value]\n"
            "  parameter s (struct S): optimized out (64 bits); register a3 (64 bits)   "
            "[DW_OP_piece 0x8, DW_OP_reg13 X13, DW_OP_piece 0x8]\n"
            "  acc (long): optimized out\n"
            "  k (int): register a1   [DW_OP_reg11 X11]\n");
  CliResult j = runCli({"dwarf", kRv64, "--variables-at", "70168", "--json"}); // 0x11218
  EXPECT_EQ(j.exit_code, 0) << j.summary();
  EXPECT_NE(
      j.out.find(R"J({"schema":"abikit/1","address":"0x11218","function":"f","variables":[)J"),
      std::string::npos)
      << j.out;
  EXPECT_NE(
      j.out.find(
          R"J("where":[{"kind":"optimized_out","bits":64},{"kind":"register","reg":"a3","bits":64}])J"),
      std::string::npos)
      << j.out;
  // main: a struct held as two constants.
  expectOut(
      runCli({"dwarf", kRv64, "--variables-at", "0x11224"}),
      "0x11224 in main\n"
      "  s (struct S): constant 0x3 (64 bits); constant 0x4 (64 bits)   [DW_OP_lit3, "
      "DW_OP_stack_value, DW_OP_piece 0x8, DW_OP_lit4, DW_OP_stack_value, DW_OP_piece 0x8]\n");
}

// The section dumps: llvm-dwarfdump-22's layout (the differential test compares every line).
TEST(DwarfCli, DebugInfo) {
  CliResult r = runCli({"dwarf", kRv64, "--debug-info"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind(
                kRv64 + ":\tfile format elf64-littleriscv\n\n.debug_info contents:\n"
                        "0x00000000: Compile Unit: length = 0x00000146, format = DWARF32, version "
                        "= 0x0005, unit_type = DW_UT_compile, abbr_offset = 0x0000, addr_size = "
                        "0x08 (next unit at 0x0000014a)\n\n0x0000000c: DW_TAG_compile_unit\n",
                0),
            0u)
      << r.out;
  for (const char* line :
       {"                DW_AT_type\t(0x0000003a \"volatile long\")\n",
        "                     [0x00000000000111f4, 0x00000000000111fe): DW_OP_breg12 X12+0, "
        "DW_OP_convert (0x00000027) \"DW_ATE_unsigned_64\", DW_OP_convert (0x0000002b) "
        "\"DW_ATE_unsigned_32\", DW_OP_stack_value, DW_OP_piece 0x4, ",
        "                  DW_AT_abstract_origin\t(0x000000ce \"s\")\n", "0x00000149:   NULL\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line;
  EXPECT_EQ(r.out.find(".debug_frame"), std::string::npos);
  r = runCli({"dwarf", kRv64, "--debug-frame"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\n.debug_frame contents:\n\n00000000 00000014 ffffffff CIE\n"),
            std::string::npos)
      << r.out;
  r = runCli({"dwarf", kRv64, "--debug-info", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"schema\":\"abikit/1\",\"file\":", 0), 0u) << r.out;
  for (const char* part :
       {"\"units\":[{\"offset\":0,\"version\":5,\"format\":\"dwarf32\",\"unit_type\":"
        "\"compile\",\"address_size\":8",
        "{\"name\":\"DW_AT_language\",\"form\":\"DW_FORM_data2\",\"value\":29,\"text\":"
        "\"DW_LANG_C11\"}",
        "{\"name\":\"DW_AT_frame_base\",\"form\":\"DW_FORM_exprloc\",\"expression\":"
        "\"DW_OP_reg2 X2\"}",
        "{\"begin\":\"0x111ec\",\"end\":\"0x1121a\",\"expression\":\"DW_OP_reg10 X10\"}"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part;
  EXPECT_EQ(r.out.find("\"frames\""), std::string::npos);
  r = runCli({"dwarf", kRv64, "--debug-frame", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("\"units\""), std::string::npos);
  EXPECT_NE(
      r.out.find("{\"offset\":\"0x30\",\"kind\":\"FDE\",\"length\":\"0x24\",\"format\":"
                 "\"dwarf32\",\"cie\":\"0x0\",\"begin\":\"0x11220\",\"end\":\"0x11238\","
                 "\"instructions\":[\"DW_CFA_advance_loc: 2 to 0x11222\",\"DW_CFA_def_cfa_offset: "
                 "+16\",\"DW_CFA_advance_loc: 2 to 0x11224\",\"DW_CFA_offset: X1 -8\","),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"rows\":[\"0x11220: CFA=X2\",\"0x11222: CFA=X2+16\",\"0x11224: "
                       "CFA=X2+16: X1=[CFA-8]\","),
            std::string::npos)
      << r.out;
}

// A malformed location list deep in the file: one error with the file offset, nothing on stdout
// (the dump is checked whole before it is written).
TEST(DwarfCli, DebugInfoMalformedPrintsNothing) {
  std::ifstream in(kRv64, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  uint64_t at = 0;
  {
    abikit::ElfFile f = abikit::ElfFile::open(kRv64);
    const abikit::ElfSection* s = f.findSection(".debug_loclists");
    ASSERT_TRUE(s);
    at = s->offset + s->size - 1; // the last list's end-of-list entry
  }
  ASSERT_EQ(bytes[size_t(at)], 0);
  bytes[size_t(at)] = char(0x3f); // an unknown entry kind
  TempDir dir;
  const std::string bad = dir.write("bad.elf", bytes);
  CliResult r = runCli({"dwarf", bad, "--debug-info"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("unknown location list entry kind 0x3f"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::to_string(at)), std::string::npos) << r.err;
}

TEST(DwarfCli, DebugLine) {
  // The line table as llvm-dwarfdump-22 prints it (diff_dwarf_dump compares every line).
  CliResult r = runCli({"dwarf", kRv64, "--debug-line"});
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_NE(r.out.find("\n.debug_line contents:\ndebug_line[0x00000000]\nLine table prologue:\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("0x0000000000011224     10     51      0   0             0       0  "
                       "is_stmt prologue_end\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find(".debug_info contents:"), std::string::npos);
  r = runCli({"dwarf", kRv64, "--debug-line", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["lines"].size(), 1u);
  EXPECT_EQ(j["lines"][0]["version"], 5);
  EXPECT_EQ(j["lines"][0]["file_names"][0]["name"], "t.c");
  EXPECT_EQ(j["lines"][0]["rows"].back()["flags"].back(), "end_sequence");
  EXPECT_EQ(j["lines"][0]["rows"][0]["address"], "0x111ec");
}

TEST(DwarfCli, DebugNamesOfAFileWithout) {
  // No .debug_names: the section header and nothing else, as llvm-dwarfdump prints it.
  CliResult r = runCli({"dwarf", kRv64, "--debug-names"});
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_NE(r.out.find("\n.debug_names contents:\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Name Index"), std::string::npos) << r.out;
}

TEST(DwarfCli, Errors) {
  expectError(runCli({"dwarf", kRv64, "--variables-at", "0x1"}),
              "abikit: error: " + kRv64 + ": no function's code covers address 0x1\n");
  CliResult r = runCli({"dwarf", kRv64, "--variables-at", "0x1g"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("not an address"), std::string::npos) << r.err;
  r = runCli({"dwarf", kRv64, "--debug-info", "--variables-at", "0x11224"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  r = runCli({"dwarf", kRv64, "--attribute-codes", "hip"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  TempDir dir;
  const std::string bad = dir.write("bad.elf", std::string("\x7f"
                                                           "ELF",
                                                           4));
  r = runCli({"dwarf", bad, "--variables-at", "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
}

} // namespace

namespace {

// The same program's relocatable object (clang-22 -O2 -g -c, rv64gc with linker relaxation: its
// debug sections carry R_RISCV_32/64, ADD/SUB and SET_ULEB128/SUB_ULEB128 pairs), read with its
// relocations applied as llvm-dwarfdump reads it.
const std::string kRv64Object =
    std::string(ABIKIT_SOURCE_DIR) + "/tests/fuzz/corpus/dwarf_info/rv64_clang22_relocatable";

TEST(DwarfCli, RelocatableObjectReadWithRelocationsApplied) {
  // The location lists' ranges are ULEB128 label differences (SET_ULEB128/SUB_ULEB128), the
  // names offsets into .debug_str (R_RISCV_32 in .debug_str_offsets); llvm-dwarfdump-22 reads
  // x at 0x10 as [0xe, 0x26) entry value, k and acc as outside their lists.
  expectOut(runCli({"dwarf", kRv64Object, "--variables-at", "0x10"}),
            "0x10 in f\n"
            "  k (int): optimized out\n"
            "  parameter x (int): computed: DW_OP_entry_value(DW_OP_reg10 X10), "
            "DW_OP_stack_value   [DW_OP_entry_value(DW_OP_reg10 X10), DW_OP_stack_value]\n"
            "  parameter y (long): register a1   [DW_OP_reg11 X11]\n"
            "  parameter s (struct S): optimized out (64 bits); register a3 (64 bits)   "
            "[DW_OP_piece 0x8, DW_OP_reg13 X13, DW_OP_piece 0x8]\n"
            "  acc (long): optimized out\n");
  // main's code starts at 0x36 in .text (R_RISCV_64 in .debug_addr).
  expectOut(runCli({"dwarf", kRv64Object, "--variables-at", "0x3e"}),
            "0x3e in main\n"
            "  s (struct S): constant 0x3 (64 bits); constant 0x4 (64 bits)   [DW_OP_lit3, "
            "DW_OP_stack_value, DW_OP_piece 0x8, DW_OP_lit4, DW_OP_stack_value, DW_OP_piece "
            "0x8]\n");
}

} // namespace
