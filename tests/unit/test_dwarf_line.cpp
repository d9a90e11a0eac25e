// The line-number program (dwarf::readLineTable): a hand-worked DWARF 4 table whose program
// uses every standard and extended opcode, each row worked out from DWARF 5 §6.2.5; a VLIW
// table (max_ops_per_inst 3); and malformed tables, each one error at its byte offset.
#include "abikit/diag.h"
#include "abikit/dwarf_line.h"
#include "abikit/emit.h"

#include <gtest/gtest.h>

namespace {

using namespace abikit;
using namespace abikit::dwarf;

struct Table {
  std::vector<uint8_t> bytes;
  DebugSections sections() const {
    DebugSections s;
    s.file = "t.o";
    s.line = {bytes, 0x100, 0};
    return s;
  }
};

// A DWARF 4 table: min_inst_length `min_inst`, max_ops `max_ops`, line_base -5, line_range
// `range`, opcode_base 13; include directory "inc", file "a.c" in it; then `program`.
Table table4(const std::vector<uint8_t>& program, uint8_t min_inst = 4, uint8_t max_ops = 1,
             uint8_t range = 14) {
  std::vector<uint8_t> header = {min_inst, max_ops, 1, uint8_t(-5), range, 13, 0, 1, 1,
                                 1,        1,       0, 0,           0,     1,  0, 0, 1};
  for (char c : std::string("inc")) header.push_back(uint8_t(c));
  header.insert(header.end(), {0, 0});
  for (char c : std::string("a.c")) header.push_back(uint8_t(c));
  header.insert(header.end(), {0, 1, 0, 0, 0});
  std::vector<uint8_t> body = {4, 0}; // version 4
  const uint32_t hl = uint32_t(header.size());
  for (int i = 0; i < 4; ++i) body.push_back(uint8_t(hl >> (8 * i)));
  body.insert(body.end(), header.begin(), header.end());
  body.insert(body.end(), program.begin(), program.end());
  Table t;
  const uint32_t len = uint32_t(body.size());
  for (int i = 0; i < 4; ++i) t.bytes.push_back(uint8_t(len >> (8 * i)));
  t.bytes.insert(t.bytes.end(), body.begin(), body.end());
  return t;
}

constexpr size_t kProgramStart = 4 + 2 + 4 + 18 + 5 + 8; // where table4's program begins

TEST(DwarfLine, EveryOpcodeHandWorked) {
  const std::vector<uint8_t> program = {
      0x00, 0x09, 0x02, 0x00, 0x10, 0,   0, 0, 0, 0, 0, // DW_LNE_set_address 0x1000
      0x05, 0x03,                                       // DW_LNS_set_column 3
      0x0a,                                             // DW_LNS_set_prologue_end
      0x01,                                             // DW_LNS_copy: row 0
      48,         // special: adjusted 35 = (2 + 5) + 14 * 2: address += 2 * 4, line += 2: row 1
      0x03, 0x7d, // DW_LNS_advance_line -3
      0x06,       // DW_LNS_negate_stmt
      0x08,       // DW_LNS_const_add_pc: (255 - 13) / 14 = 17 operations, 68 bytes
      0x00, 0x02, 0x04, 0x05,                        // DW_LNE_set_discriminator 5
      0x01,                                          // DW_LNS_copy: row 2
      0x09, 0x10, 0x00,                              // DW_LNS_fixed_advance_pc 16
      0x00, 0x08, 0x03, 'b',  '.',  'c', 0, 0, 0, 0, // DW_LNE_define_file "b.c"
      0x04, 0x02,                                    // DW_LNS_set_file 2
      0x07, 0x0b,                                    // basic_block, epilogue_begin
      0x0c, 0x07,                                    // DW_LNS_set_isa 7
      0x00, 0x01, 0x01,                              // DW_LNE_end_sequence: row 3
  };
  Table t = table4(program);
  DebugInfo info(t.sections());
  LineTable lt = readLineTable(info, 0);
  ASSERT_EQ(lt.rows.size(), 4u);
  const LineRow& r0 = lt.rows[0];
  EXPECT_EQ(r0.address, 0x1000u);
  EXPECT_EQ(r0.line, 1u);
  EXPECT_EQ(r0.column, 3u);
  EXPECT_EQ(r0.file, 1u);
  EXPECT_TRUE(r0.is_stmt && r0.prologue_end && !r0.end_sequence);
  const LineRow& r1 = lt.rows[1];
  EXPECT_EQ(r1.address, 0x1008u);
  EXPECT_EQ(r1.line, 3u);
  EXPECT_FALSE(r1.prologue_end); // cleared after each row
  const LineRow& r2 = lt.rows[2];
  EXPECT_EQ(r2.address, 0x1008u + 68);
  EXPECT_EQ(r2.line, 0u);
  EXPECT_EQ(r2.discriminator, 5u);
  EXPECT_FALSE(r2.is_stmt);
  const LineRow& r3 = lt.rows[3];
  EXPECT_EQ(r3.address, 0x1008u + 68 + 16);
  EXPECT_EQ(r3.file, 2u);
  EXPECT_EQ(r3.discriminator, 0u); // reset by the row before
  EXPECT_EQ(r3.isa, 7u);
  EXPECT_TRUE(r3.basic_block && r3.epilogue_begin && r3.end_sequence && !r3.is_stmt);
  ASSERT_EQ(lt.header.file_names.size(), 2u); // DW_LNE_define_file added b.c
  EXPECT_EQ(lt.header.file_names[1].name, "b.c");
  EXPECT_EQ(lineFileName(lt.header, 1, "/src").value(), "/src/inc/a.c");
  // The text as llvm-dwarfdump-22 prints a row.
  const std::string text = dwarfLineText(std::vector<LineTable>{lt});
  EXPECT_NE(text.find("0x0000000000001000      1      3      1   0             0       0  "
                      "is_stmt prologue_end\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("0x000000000000105c      0      3      2   7             0       0  "
                      "basic_block epilogue_begin end_sequence\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("include_directories[  1] = \"inc\"\n"), std::string::npos) << text;
}

TEST(DwarfLine, OperationIndexOfVliwTables) {
  // max_ops_per_inst 3, min_inst_length 8: advancing 7 operations from op_index 0 moves the
  // address by 2 instructions (16 bytes) and leaves op_index 1 (§6.2.5.1).
  Table t = table4({0x02, 0x07, 0x01, 0x02, 0x02, 0x01}, 8, 3);
  DebugInfo info(t.sections());
  LineTable lt = readLineTable(info, 0);
  ASSERT_EQ(lt.rows.size(), 2u);
  EXPECT_EQ(lt.rows[0].address, 16u);
  EXPECT_EQ(lt.rows[0].op_index, 1u);
  EXPECT_EQ(lt.rows[1].address, 24u); // 1 + 2 = 3 operations: one more instruction, index 0
  EXPECT_EQ(lt.rows[1].op_index, 0u);
}

void expectLineError(const Table& t, uint64_t offset, const std::string& words) {
  try {
    DebugInfo info(t.sections());
    (void)readLineTables(info);
    ADD_FAILURE() << "no error; expected " << words;
  } catch (const Error& e) {
    EXPECT_TRUE(e.hasOffset()) << e.message();
    EXPECT_EQ(e.offset(), 0x100 + offset) << e.message();
    EXPECT_NE(e.message().find(words), std::string::npos) << e.message();
  }
}

TEST(DwarfLine, MalformedProgramsAreOneErrorAtTheirOffset) {
  // An extended opcode longer than what is left of the table.
  expectLineError(table4({0x01, 0x00, 0x30, 0x02, 0x00}), kProgramStart + 1,
                  "runs past the line table's end");
  // DW_LNE_set_address with a 3-byte operand.
  expectLineError(table4({0x00, 0x04, 0x02, 1, 2, 3}), kProgramStart, "3-byte operand");
  // An extended opcode whose operands run beyond its length.
  expectLineError(table4({0x00, 0x02, 0x04, 0x80, 0x01, 0x01}), kProgramStart,
                  "longer than its length");
  // A LEB128 cut by the table's end.
  expectLineError(table4({0x02, 0x80}), kProgramStart + 1, "");
  // line_range 0 with a program: special opcodes would divide by it.
  expectLineError(table4({0x01}, 4, 1, 0), 0, "line_range 0");
  // Extended opcode of length 0.
  expectLineError(table4({0x00, 0x00}), kProgramStart, "length 0");
}

TEST(DwarfLine, HugeProgramsStayLinear) {
  // 200,000 special opcodes: one row each, read in one pass.
  std::vector<uint8_t> program(200000, 20);
  Table t = table4(program);
  DebugInfo info(t.sections());
  LineTable lt = readLineTable(info, 0);
  EXPECT_EQ(lt.rows.size(), 200000u);
}

} // namespace
