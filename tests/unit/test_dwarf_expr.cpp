// DWARF expressions: hand-worked vectors from reference dwarf.md §1 (LEB128 quick reference, the
// extension codes of each encoding), every decoding error at its byte offset, text errors at
// their column, Unencodable, and the llvm-dwarfdump-22 display form with register names.
#include "abikit/dwarf.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace abikit::dwarf;

std::vector<uint8_t> hex(const std::string& s) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < s.size();) {
    if (s[i] == ' ') {
      ++i;
      continue;
    }
    out.push_back(uint8_t(std::stoul(s.substr(i, 2), nullptr, 16)));
    i += 2;
  }
  return out;
}

std::string hexOf(const std::vector<uint8_t>& b) {
  static const char k[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < b.size(); ++i) {
    if (i) s += ' ';
    s += k[b[i] >> 4];
    s += k[b[i] & 15];
  }
  return s;
}

ExprFormat fmt(ExtEncoding e = ExtEncoding::User, uint8_t addr = 8, uint8_t off = 4) {
  ExprFormat f;
  f.encoding = e;
  f.address_size = addr;
  f.offset_size = off;
  return f;
}

// Bytes ↔ text both ways in one encoding.
void expectBoth(const std::string& bytes, const std::string& text, ExprFormat f = fmt()) {
  SCOPED_TRACE(bytes + " <-> " + text);
  EXPECT_EQ(toText(decode(hex(bytes), f)), text);
  EXPECT_EQ(hexOf(encode(parseText(text), f)), bytes);
}

ExprError decodeError(const std::string& bytes, ExprFormat f = fmt()) {
  try {
    decode(hex(bytes), f);
  } catch (const ExprError& e) {
    return e;
  }
  ADD_FAILURE() << bytes << " decoded";
  return ExprError(ExprErrorKind::Syntax, ExprError::Where::Byte, 0, "");
}

TEST(DwarfExpr, LebQuickReference) {
  // §1.1: uleb 2560 = 80 14, 1536 = 80 0c, 3072 = 80 18, 2048 = 80 10, 1088 = c0 08,
  // 2600 = a8 14, 256 = 80 02, 0x10000 = 80 80 04.
  expectBoth("90 80 14", "DW_OP_regx 0xa00");
  expectBoth("90 80 0c", "DW_OP_regx 0x600");
  expectBoth("90 80 18", "DW_OP_regx 0xc00");
  expectBoth("90 80 10", "DW_OP_regx 0x800");
  expectBoth("90 c0 08", "DW_OP_regx 0x440");
  expectBoth("90 a8 14", "DW_OP_regx 0xa28");
  expectBoth("10 80 02", "DW_OP_constu 0x100");
  expectBoth("10 80 80 04", "DW_OP_constu 0x10000");
  // sleb -1 = 7f, -2 = 7e, -4 = 7c, -8 = 78, -16 = 70, 63 = 3f, 64 = c0 00, -64 = 40,
  // -65 = bf 7f.
  expectBoth("11 7f", "DW_OP_consts -1");
  expectBoth("11 7e", "DW_OP_consts -2");
  expectBoth("11 7c", "DW_OP_consts -4");
  expectBoth("75 78", "DW_OP_breg5 -8");
  expectBoth("91 70", "DW_OP_fbreg -16");
  expectBoth("11 3f", "DW_OP_consts 63");
  expectBoth("11 c0 00", "DW_OP_consts 64");
  expectBoth("11 40", "DW_OP_consts -64");
  expectBoth("11 bf 7f", "DW_OP_consts -65");
  // 64-bit limits.
  expectBoth("10 ff ff ff ff ff ff ff ff ff 01", "DW_OP_constu 0xffffffffffffffff");
  expectBoth("11 80 80 80 80 80 80 80 80 80 7f", "DW_OP_consts -9223372036854775808");
  expectBoth("11 ff ff ff ff ff ff ff ff ff 00", "DW_OP_consts 9223372036854775807");
}

TEST(DwarfExpr, PaddedLebsDecodeAndEncodeMinimally) {
  Expression e = decode(hex("10 80 00 11 ff 7f"), fmt());
  EXPECT_EQ(toText(e), "DW_OP_constu 0x0, DW_OP_consts -1");
  EXPECT_EQ(e.ops[1].offset, 3u);
  EXPECT_EQ(e.ops[1].size, 3u);
  EXPECT_EQ(hexOf(encode(e, fmt())), "10 00 11 7f");
}

TEST(DwarfExpr, FixedOperandsAndFormats) {
  expectBoth("08 ff 09 ff", "DW_OP_const1u 0xff, DW_OP_const1s -1");
  expectBoth("0a 34 12 0b 00 80", "DW_OP_const2u 0x1234, DW_OP_const2s -32768");
  expectBoth("0e 01 02 03 04 05 06 07 08", "DW_OP_const8u 0x807060504030201");
  expectBoth("03 78 56 34 12", "DW_OP_addr 0x12345678", fmt(ExtEncoding::User, 4));
  expectBoth("03 08 07 06 05 04 03 02 01", "DW_OP_addr 0x102030405060708");
  expectBoth("9a 04 03 02 01", "DW_OP_call_ref 0x1020304");
  expectBoth("9a 08 07 06 05 04 03 02 01", "DW_OP_call_ref 0x102030405060708",
             fmt(ExtEncoding::User, 8, 8));
  expectBoth("a0 70 00 00 00 7c", "DW_OP_implicit_pointer 0x70 -4");
  expectBoth("28 fe ff 2f 03 00", "DW_OP_bra -2, DW_OP_skip 3");
  ExprFormat be = fmt();
  be.endian = abikit::Endian::Big;
  expectBoth("0a 12 34 03 00 00 00 00 12 34 56 78", "DW_OP_const2u 0x1234, DW_OP_addr 0x12345678",
             be);
}

TEST(DwarfExpr, BlocksAndNestedExpressions) {
  expectBoth("9e 04 78 56 34 12", "DW_OP_implicit_value 0x4 [78 56 34 12]");
  expectBoth("a4 30 04 05 00 00 00", "DW_OP_const_type 0x30 [05 00 00 00]");
  expectBoth("a3 01 55 9f", "DW_OP_entry_value (DW_OP_reg5), DW_OP_stack_value");
  expectBoth("a3 04 a3 01 50 96 30",
             "DW_OP_entry_value (DW_OP_entry_value (DW_OP_reg0), DW_OP_nop), DW_OP_lit0");
  expectBoth("a3 00", "DW_OP_entry_value ()");
  expectBoth("a6 04 30 a7 08 00 a5 05 30 a8 00 a9 30",
             "DW_OP_deref_type 0x4 0x30, DW_OP_xderef_type 0x8 0x0, DW_OP_regval_type 0x5 0x30, "
             "DW_OP_convert 0x0, DW_OP_reinterpret 0x30");
  Expression e = decode(hex("a3 03 a3 01 50 96"), fmt());
  ASSERT_EQ(e.ops.size(), 4u);
  EXPECT_EQ(e.ops[0].u[0], 3u); // nested bytes
  EXPECT_EQ(e.ops[0].u[1], 2u); // nested operations at any depth
  EXPECT_EQ(e.ops[0].size, 5u);
  EXPECT_EQ(e.ops[2].depth, 2u);
  EXPECT_EQ(e.endOf(0), 3u);
  EXPECT_EQ(opText(e, 0), "DW_OP_entry_value (DW_OP_entry_value (DW_OP_reg0))");
}

TEST(DwarfExpr, ExtensionCodesInEachEncoding) {
  // §1.3's table, one row at a time: user, legacy, seed-draft.
  struct Row {
    const char* text;
    const char* user;
    const char* legacy;
    const char* seed;
  };
  const Row rows[] = {
      {"DW_OP_LLVM_nop", "e9 01", nullptr, nullptr},
      {"DW_OP_LLVM_form_aspace_address", "e9 02", "e1", "e7"},
      {"DW_OP_LLVM_push_lane", "e9 03", "e2", "ea"},
      {"DW_OP_LLVM_offset", "e9 04", "e3", "e9"},
      {"DW_OP_LLVM_offset_uconst 0x10", "e9 05 10", "e4 10", nullptr},
      {"DW_OP_LLVM_bit_offset", "e9 06", "e5", nullptr},
      {"DW_OP_LLVM_call_frame_entry_reg 0x5", "e9 07 05", "e6 05", nullptr},
      {"DW_OP_LLVM_undefined", "e9 08", "e7", nullptr},
      {"DW_OP_LLVM_aspace_bregx 0x21 -8", "e9 09 21 78", "e8 21 78", nullptr},
      {"DW_OP_LLVM_aspace_implicit_pointer 0x70 4", nullptr, "e9 70 00 00 00 04", nullptr},
      {"DW_OP_LLVM_piece_end", "e9 0a", "ea", nullptr},
      {"DW_OP_LLVM_extend 0x20 0x40", "e9 0b 20 40", "eb 20 40", nullptr},
      {"DW_OP_LLVM_select_bit_piece 0x20 0x40", "e9 0c 20 40", "ec 20 40", nullptr},
      {"DW_OP_LLVM_push_iteration", nullptr, nullptr, nullptr},
      {"DW_OP_LLVM_overlay", nullptr, nullptr, nullptr},
      {"DW_OP_LLVM_bit_overlay", nullptr, nullptr, nullptr},
  };
  const ExtEncoding encodings[] = {ExtEncoding::User, ExtEncoding::Legacy, ExtEncoding::SeedDraft};
  for (const Row& r : rows) {
    const char* bytes[] = {r.user, r.legacy, r.seed};
    for (int i = 0; i < 3; ++i) {
      SCOPED_TRACE(std::string(r.text) + " in " + std::string(extEncodingName(encodings[i])));
      if (bytes[i]) {
        expectBoth(bytes[i], r.text, fmt(encodings[i]));
        continue;
      }
      try {
        encode(parseText(r.text), fmt(encodings[i]));
        ADD_FAILURE() << "encoded";
      } catch (const ExprError& e) {
        EXPECT_EQ(e.exprKind(), ExprErrorKind::Unencodable);
        EXPECT_EQ(e.where(), ExprError::Where::Operation);
        EXPECT_EQ(e.position(), 0u);
        EXPECT_NE(std::string(e.what()).find("has no code in the"), std::string::npos);
      }
    }
  }
}

TEST(DwarfExpr, LaneSelectionIdiomAndClangAddressSpaces) {
  // §3.1: the focused lane's element of wave64 VGPR0; clang-14/19's private-memory marking.
  const char* text = "DW_OP_regx 0xa00, DW_OP_LLVM_push_lane, DW_OP_lit4, DW_OP_mul, "
                     "DW_OP_LLVM_offset";
  expectBoth("90 80 14 e9 03 34 1e e9 04", text, fmt(ExtEncoding::User));
  expectBoth("90 80 14 e2 34 1e e3", text, fmt(ExtEncoding::Legacy));
  expectBoth("90 80 14 ea 34 1e e9", text, fmt(ExtEncoding::SeedDraft));
  expectBoth("91 08 31 16 18", "DW_OP_fbreg 8, DW_OP_lit1, DW_OP_swap, DW_OP_xderef");
}

TEST(DwarfExpr, DecodingErrorsAtTheirOffset) {
  struct Case {
    const char* bytes;
    ExprErrorKind kind;
    uint64_t at;
    ExtEncoding enc = ExtEncoding::User;
  };
  const Case cases[] = {
      {"0a 01", ExprErrorKind::Truncated, 0},
      {"96 96 0c 01 02 03", ExprErrorKind::Truncated, 2},
      {"96 10", ExprErrorKind::Truncated, 1},
      {"96 10 80", ExprErrorKind::Truncated, 1},
      {"92 05", ExprErrorKind::Truncated, 0},
      {"03 01 02 03 04 05 06 07", ExprErrorKind::Truncated, 0},
      {"9e 05 01 02", ExprErrorKind::Truncated, 0},
      {"a4 30 04 01", ExprErrorKind::Truncated, 0},
      {"a3 05 50", ExprErrorKind::Truncated, 0},
      {"a3 02 96 0a 01", ExprErrorKind::Truncated, 3}, // straddles its nested expression's end
      {"e9", ExprErrorKind::Truncated, 0},
      {"30 e9 05", ExprErrorKind::Truncated, 1},
      {"30 10 ff ff ff ff ff ff ff ff ff 7f", ExprErrorKind::Overflow, 1},
      {"30 10 80 80 80 80 80 80 80 80 80 02", ExprErrorKind::Overflow, 1},
      {"11 ff ff ff ff ff ff ff ff ff 01", ExprErrorKind::Overflow, 0},
      {"11 80 80 80 80 80 80 80 80 80 ff 00", ExprErrorKind::Overflow, 0},
      {"30 e9 80 80 80 80 80 80 80 80 80 02", ExprErrorKind::Overflow, 1},
      {"96 e9 00", ExprErrorKind::ReservedSubOpcode, 1},
      {"96 e9 80 00", ExprErrorKind::ReservedSubOpcode, 1},
      {"96 e9 0d", ExprErrorKind::UnknownSubOpcode, 1},
      {"e9 ff 7f", ExprErrorKind::UnknownSubOpcode, 0},
      {"96 e1", ExprErrorKind::UnknownOpcode, 1},
      {"e8", ExprErrorKind::UnknownOpcode, 0},
      {"00", ExprErrorKind::UnknownOpcode, 0},
      {"30 ee", ExprErrorKind::UnknownOpcode, 1},
      {"30 ff", ExprErrorKind::UnknownOpcode, 1},
      {"ef", ExprErrorKind::UnknownOpcode, 0, ExtEncoding::Legacy},
      {"ed", ExprErrorKind::UnknownOpcode, 0, ExtEncoding::Legacy},
      {"e1", ExprErrorKind::UnknownOpcode, 0, ExtEncoding::SeedDraft},
      {"e9 05", ExprErrorKind::Truncated, 0, ExtEncoding::Legacy}, // aspace_implicit_pointer
      {"a3 03 96 e9 00", ExprErrorKind::ReservedSubOpcode, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.bytes);
    ExprError e = decodeError(c.bytes, fmt(c.enc));
    EXPECT_EQ(e.exprKind(), c.kind) << e.what();
    EXPECT_EQ(e.where(), ExprError::Where::Byte);
    EXPECT_EQ(e.position(), c.at) << e.what();
    EXPECT_TRUE(e.hasOffset()); // the abikit::Error's byte offset
    EXPECT_EQ(e.offset(), c.at);
    EXPECT_EQ(e.format(), "abikit: error: " + std::string(e.what()));
    std::string prefix =
        std::string(exprErrorKindName(c.kind)) + " at byte " + std::to_string(c.at) + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

TEST(DwarfExpr, TextErrorsAtTheirColumn) {
  struct Case {
    const char* text;
    uint64_t column;
    const char* says;
  };
  const Case cases[] = {
      {"DW_OP_foo", 1, "unknown operation 'DW_OP_foo'"},
      {"DW_OP_lit1 DW_OP_lit2", 12, "expected ','"},
      {"DW_OP_lit1,", 12, "expected an operation name"},
      {"DW_OP_const1u 0x100", 15, "does not fit in 1 byte"},
      {"DW_OP_const1s -129", 15, "does not fit in 1 signed byte"},
      {"DW_OP_breg5 0x8", 13, "signed decimal"},
      {"DW_OP_regx 5", 12, "hexadecimal"},
      {"DW_OP_constu 0x10000000000000000", 14, "64 bits"},
      {"DW_OP_implicit_value 0x2 [12]", 26, "1 bytes given, the length says 2"},
      {"DW_OP_implicit_value 0x1 [123]", 27, "two hex digits"},
      {"DW_OP_entry_value (DW_OP_reg5", 30, "missing ')'"},
      {"DW_OP_entry_value DW_OP_reg5", 19, "expected '('"},
      {"DW_OP_lit1)", 11, "without a DW_OP_entry_value"},
      {"DW_OP_LLVM_user DW_OP_LLVM_offset", 1, "is an encoding"},
      {"DW_OP_lit1x", 1, "unknown operation"},
      {"DW_OP_const2u 0x12zz", 19, "unexpected 'z'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parseText(c.text);
      ADD_FAILURE() << "parsed";
    } catch (const ExprError& e) {
      EXPECT_EQ(e.exprKind(), ExprErrorKind::Syntax);
      EXPECT_EQ(e.where(), ExprError::Where::Column);
      EXPECT_EQ(e.position(), c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(parseText("").ops.size(), 0u);
  EXPECT_EQ(toText(parseText("  DW_OP_lit1 ,DW_OP_entry_value( DW_OP_reg5 ) ")),
            "DW_OP_lit1, DW_OP_entry_value (DW_OP_reg5)");
}

TEST(DwarfExpr, UnencodableOperands) {
  auto failsAt = [](const std::string& text, ExprFormat f, uint64_t index) {
    SCOPED_TRACE(text);
    try {
      encode(parseText(text), f);
      ADD_FAILURE() << "encoded";
    } catch (const ExprError& e) {
      EXPECT_EQ(e.exprKind(), ExprErrorKind::Unencodable) << e.what();
      EXPECT_EQ(e.position(), index);
    }
  };
  failsAt("DW_OP_lit0, DW_OP_addr 0x100000000", fmt(ExtEncoding::User, 4), 1);
  failsAt("DW_OP_call_ref 0x100000000", fmt(), 0);
  failsAt("DW_OP_lit0, DW_OP_LLVM_offset_uconst 0x1", fmt(ExtEncoding::SeedDraft), 1);
  failsAt("DW_OP_entry_value (DW_OP_LLVM_undefined)", fmt(ExtEncoding::SeedDraft), 1);
}

TEST(DwarfExpr, DisplayAsLlvmDwarfdump22) {
  abikit::TargetOptions ro;
  ro.triple = "riscv64-unknown-elf";
  DisplayOptions rv = displayOptionsFor(abikit::resolveTarget(ro), ExtEncoding::User);
  auto show = [](const std::string& bytes, const DisplayOptions& d, ExprFormat f = fmt()) {
    return toDisplay(decode(hex(bytes), f), d);
  };
  // What llvm-dwarfdump-22 printed for these bytes in riscv64 objects.
  EXPECT_EQ(show("72 08", rv), "DW_OP_breg2 X2+8");
  EXPECT_EQ(show("92 20 7f", rv), "DW_OP_bregx F0_H-1");
  EXPECT_EQ(show("92 40 01", rv), "DW_OP_bregx 0x40 +1");
  EXPECT_EQ(show("92 60 01", rv), "DW_OP_bregx V0+1");
  EXPECT_EQ(show("50 6f", rv), "DW_OP_reg0 X0, DW_OP_reg31 X31");
  EXPECT_EQ(show("a3 01 55 9f 96", rv),
            "DW_OP_entry_value(DW_OP_reg5 X5), DW_OP_stack_value, DW_OP_nop");
  EXPECT_EQ(show("9e 02 12 34", rv), "DW_OP_implicit_value 0x2 0x12 0x34");
  EXPECT_EQ(show("28 fe ff 08 ff 09 ff", rv), "DW_OP_bra -2, DW_OP_const1u 0xff, DW_OP_const1s -1");
  EXPECT_EQ(show("a0 01 02 03 04 7f", rv), "DW_OP_implicit_pointer 0x4030201 -1");
  EXPECT_EQ(show("a8 00 a8 0d a5 0a 0d", rv),
            "DW_OP_convert 0x0, DW_OP_convert (0x0000000d), DW_OP_regval_type X10 (0x0000000d)");
  EXPECT_EQ(show("90 21 90 41 90 80 01 90 a2 38", rv),
            "DW_OP_regx F1_H, DW_OP_regx 0x41, DW_OP_regx 0x80, DW_OP_regx VLENB");
  EXPECT_EQ(show("11 00 2f 00 00", rv), "DW_OP_consts +0, DW_OP_skip +0");
  EXPECT_EQ(show("e9 09 05 3f e9 05 10 e9 0b 20 02", rv),
            "DW_OP_LLVM_user DW_OP_LLVM_aspace_bregx X5+63, DW_OP_LLVM_user "
            "DW_OP_LLVM_offset_uconst 0x10, DW_OP_LLVM_user DW_OP_LLVM_extend 0x20 0x2");
  EXPECT_EQ(show("", rv), "<empty>");
  // Legacy codes print without the DW_OP_LLVM_user prefix.
  DisplayOptions legacy = rv;
  legacy.encoding = ExtEncoding::Legacy;
  EXPECT_EQ(show("e1 e4 10", legacy, fmt(ExtEncoding::Legacy)),
            "DW_OP_LLVM_form_aspace_address, DW_OP_LLVM_offset_uconst 0x10");

  abikit::TargetOptions ao;
  ao.triple = "amdgcn-amd-amdhsa";
  ao.mcpu = "gfx90a";
  DisplayOptions gpu = displayOptionsFor(abikit::resolveTarget(ao), ExtEncoding::User);
  // llvm-dwarfdump-22 on gfx90a/gfx1030 objects: wave64 vector ranges named, wave32 ones not.
  EXPECT_EQ(show("90 80 14 90 80 0c 90 c1 00 90 c0 08 90 ff 17 90 80 18", gpu),
            "DW_OP_regx VGPR0, DW_OP_regx 0x600, DW_OP_regx SGPR33, DW_OP_regx SGPR64, "
            "DW_OP_regx VGPR511, DW_OP_regx AGPR0");
  EXPECT_EQ(show("50 51 60 61 70 01 80 01", gpu),
            "DW_OP_reg0, DW_OP_reg1 EXEC_LO, DW_OP_reg16 PC_REG, DW_OP_reg17 EXEC, "
            "DW_OP_breg0 +1, DW_OP_breg16 PC_REG+1");
  EXPECT_EQ(registerDisplayName(gpu.registers, 1129), "SGPR105");
  EXPECT_EQ(registerDisplayName(gpu.registers, 1130), "");
  EXPECT_EQ(registerDisplayName(gpu.registers, 3327), "AGPR255");
  EXPECT_EQ(registerDisplayName(gpu.registers, 3328), "");

  abikit::TargetOptions no;
  no.triple = "nvptx64-nvidia-cuda";
  DisplayOptions ptx = displayOptionsFor(abikit::resolveTarget(no), ExtEncoding::User);
  EXPECT_EQ(show("55 75 08", ptx), "DW_OP_reg5, DW_OP_breg5 +8");
}

TEST(DwarfExpr, OperationTable) {
  size_t dwarf5 = 0, ext = 0;
  for (const OpInfo& info : allOps()) {
    EXPECT_EQ(findOp(info.name), &info);
    EXPECT_EQ(&opInfo(info.op), &info);
    (info.extension ? ext : dwarf5) += 1;
  }
  EXPECT_EQ(dwarf5, 175u); // 0x03, 0x06, 0x08-0xa9 and the GNU 0xe0, 0xf2-0xf7, 0xf9-0xfc
  EXPECT_EQ(ext, 16u);
  EXPECT_EQ(findOp("DW_OP_and")->code, 0x1a);
  EXPECT_EQ(findOp("DW_OP_LLVM_user"), nullptr);
}

} // namespace
