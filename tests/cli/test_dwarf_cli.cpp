// `abikit dwarf-expr decode|encode` through the command line: the text, display and JSON forms,
// the encodings and formats, and the errors (one line on stderr with the byte offset or the text
// column, exit 1, nothing on stdout). The codec itself is tested in tests/unit/test_dwarf_*.cpp.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;

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
  CliResult r =
      dwarfExpr({"eval", "--target", "riscv64-unknown-elf", "--machine", "m.json", "DW_OP_lit1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("'dwarf-expr eval' is not implemented yet"), std::string::npos) << r.err;
  r = dwarfExpr({"decode", "--target", "riscv64-unknown-elf", "--encoding", "gnu", "30"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  r = dwarfExpr({"decode", "30"});
  EXPECT_EQ(r.exit_code, 2);
}

} // namespace
