// The DWARF data of the targets (Target::dwarf) against real objects: small programs with calls,
// spills and register pressure are compiled by clang-22 (AMDGPU: gfx90a and gfx908 wave64,
// gfx1030 wave32, gfx1030 -mwavefrontsize64, gfx1100; RISC-V: rv64gc, rv32imac, rv32imafdc,
// rv64gcv), riscv64-unknown-elf-gcc (GCC 12) and ptxas (the cubin of clang-22's PTX). Every
// DWARF register number llvm-dwarfdump-22 prints in .debug_info (locations and location lists)
// and in the CFI (DW_OP_*reg*, DW_CFA_* register operands, the CIE's return-address column) must
// denote a register of the target's DWARF data in the object's wave mode, and the CIEs must say
// what Target::dwarf says (code and data alignment, return-address column).
//
// AMDGPU objects are dumped with e_flags cleared: llvm-dwarfdump-22 then has no register names
// and prints every number. RISC-V names (X2, F8_H, VLENB) are turned back into numbers with the
// display table (Target::dwarf_register_names). NVPTX .debug_info names PTX virtual registers by
// their packed names, which are checked with nvptxDwarfRegisterName instead.
//
// Known differences, checked to be exactly these (docs/targets/<family>.md, "DWARF"):
//  - AMDGPU: clang-22's CIE has no augmentation; reference dwarf.md §4.1 (the seed) says
//    "[amd:v0.0]", which Target::dwarf keeps.
//  - AMDGPU: gfx1030 with -mwavefrontsize64 is checked against abikit's gfx1030 with the same
//    option (wave64 numbers, §3.1), and gfx1030's default (wave32)
//    data must reject its vector registers.
//  - RISC-V: GCC 12 writes data alignment -4 for RV64 too (clang-22: -8, which Target::dwarf
//    follows).
//  - NVPTX: ptxas writes a return-address column of 0xffffffff (llvm-dwarfdump: -1) in the CIE
//    of a kernel, which has no caller.
// Tools that are not installed make the test skip.
#include "abikit/target.h"
#include "oracle.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace {

using namespace abikit;

bool have(std::initializer_list<const char*> tools) {
  for (const char* t : tools)
    if (oracle::findProgram(t).empty()) return false;
  return true;
}

// ----- programs -------------------------------------------------------------------------------

// OpenCL C for AMDGPU: a non-inlined call chain with a 16-float array live across loops (VGPRs
// and SGPRs in locations and location lists), an LDS tile, and kernels.
const char* kAmdgpuSource = R"(
__attribute__((noinline)) float helper(__global float *p, int n, float s) {
  float acc[16];
  for (int i = 0; i < 16; ++i) acc[i] = p[i * n] * s + i;
  float r = 0;
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) r += acc[i] * acc[(i + j) & 15] / (acc[j] + 1.0f);
  return r;
}
__attribute__((noinline)) float outer(__global float *p, int n, float s) {
  float a = helper(p, n, s);
  float b = helper(p + 1, n + 1, a);
  return a * b + helper(p + 2, n, b);
}
__kernel void k(__global float *out, __global float *in, int n, float s) {
  int id = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 256;
  __local float tile[256];
  tile[__builtin_amdgcn_workitem_id_x()] = in[id];
  __builtin_amdgcn_s_barrier();
  out[id] = outer(in + id, n, s) + tile[(__builtin_amdgcn_workitem_id_x() + 1) & 255];
}
)";

// MFMA: results in AGPRs on gfx908.
const char* kMfmaSource = R"(
typedef float float32 __attribute__((ext_vector_type(32)));
__attribute__((noinline)) float32 mm(float a, float b, float32 c) {
  float32 r = __builtin_amdgcn_mfma_f32_32x32x1f32(a, b, c, 0, 0, 0);
  return __builtin_amdgcn_mfma_f32_32x32x1f32(a + 1, b, r, 0, 0, 0);
}
__kernel void km(__global float32 *out, __global float *in) {
  int id = __builtin_amdgcn_workitem_id_x();
  float32 r = mm(in[id], in[id + 1], out[id]);
  out[id] = mm(in[id + 2], r.s0, r);
}
)";

// C for RISC-V: calls with values live across them (callee-saved x and f registers in the CFI).
const char* kRiscvSource = R"(
extern int g(int, double);
extern double h(double);
int f(int a, double b, int *p) {
  int x = g(a, b) + a;
  double y = h(b * 2) + b;
  int z = g(x, y) + p[x & 7];
  double w = h(y + z);
  return g(z, w) + x + (int)y;
}
)";

// RVV: a vector value live across a call (a CFA expression with vlenb).
const char* kRvvSource = R"(
#include <riscv_vector.h>
extern void g(void);
void vadd(int *a, const int *b, long n) {
  size_t vl = __riscv_vsetvl_e32m8(n);
  vint32m8_t x = __riscv_vle32_v_i32m8(b, vl);
  g();
  vint32m8_t y = __riscv_vle32_v_i32m8(a, vl);
  g();
  __riscv_vse32_v_i32m8(a, __riscv_vadd_vv_i32m8(x, y, vl), vl);
}
)";

// OpenCL C for NVPTX: calls, a private array, shared memory.
const char* kNvptxSource = R"(
int dev(__private int *p, float x) { int s = 0; for (int i = 0; i < 8; ++i) s += p[i] * (int)x; return s; }
int devg(__global int *p, float x) { int s = 0; for (int i = 0; i < 8; ++i) s += p[i] * (int)x; return s; }
__kernel void ker(__global int *out, __global int *in, float x, __local int *lp) {
  __local int sh[64];
  int loc[8];
  unsigned t = __nvvm_read_ptx_sreg_tid_x();
  for (int i = 0; i < 8; ++i) loc[i] = in[i + t];
  sh[t] = dev(loc, x);
  lp[t] = sh[t];
  __nvvm_bar_sync(0);
  out[t] = sh[t ^ 1] + devg(in, x) + lp[t ^ 2];
}
)";

// ----- llvm-dwarfdump-22's text -----------------------------------------------------------------

struct Cie {
  int version = 0;
  std::string augmentation;
  int64_t code_alignment = 0;
  int64_t data_alignment = 0;
  int64_t return_address = 0;
};

struct Dump {
  std::vector<std::string> registers; // every register operand as printed
  std::vector<Cie> cies;
};

Dump parseDump(const std::string& text) {
  static const std::regex kOp(R"(DW_OP_(?:regx|bregx|regval_type) ([^ ,)+\-]+))");
  static const std::regex kOpN(R"(DW_OP_b?reg([0-9]+)\b)");
  static const std::regex kCfa(
      R"(DW_CFA_(?:offset|offset_extended|offset_extended_sf|restore|restore_extended|undefined|same_value|def_cfa|def_cfa_sf|def_cfa_register|expression|val_expression|val_offset|val_offset_sf|LLVM_def_aspace_cfa|LLVM_def_aspace_cfa_sf): ([^ ]+))");
  static const std::regex kCieHeader(R"([0-9a-f]+ [0-9a-f]+ [0-9a-f]+ CIE\s*)");
  static const std::regex kCfaReg(R"(DW_CFA_register: ([^ ]+) ([^ ]+))");
  Dump d;
  std::istringstream in(text);
  std::string line;
  Cie* cie = nullptr;
  while (std::getline(in, line)) {
    // Rows of the unwind table ("0x10: CFA=...") repeat the instructions: skipped.
    if (line.find("CFA=") != std::string::npos) continue;
    if (std::regex_match(line, kCieHeader)) {
      d.cies.emplace_back();
      cie = &d.cies.back();
      continue;
    }
    if (line.find("FDE cie=") != std::string::npos) cie = nullptr;
    auto field = [&](const char* key, int64_t& out) {
      size_t p = line.find(key);
      if (cie && p != std::string::npos) out = std::stoll(line.substr(p + std::strlen(key)));
    };
    if (cie) {
      int64_t v = 0;
      field("Version:", v);
      if (v) cie->version = int(v);
      field("Code alignment factor:", cie->code_alignment);
      field("Data alignment factor:", cie->data_alignment);
      field("Return address column:", cie->return_address);
      size_t p = line.find("Augmentation:");
      if (p != std::string::npos && line.find("data") == std::string::npos) {
        size_t q1 = line.find('"', p), q2 = line.rfind('"');
        if (q1 != std::string::npos && q2 > q1)
          cie->augmentation = line.substr(q1 + 1, q2 - q1 - 1);
      }
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kOp);
         it != std::sregex_iterator(); ++it)
      d.registers.push_back((*it)[1]);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kOpN);
         it != std::sregex_iterator(); ++it)
      d.registers.push_back("reg" + std::string((*it)[1]));
    std::smatch m;
    if (std::regex_search(line, m, kCfaReg)) {
      d.registers.push_back(m[1]);
      d.registers.push_back(m[2]);
    } else if (std::regex_search(line, m, kCfa)) {
      d.registers.push_back(m[1]);
    }
  }
  return d;
}

// A printed register operand as a number: "0x25726431", "reg16", or a display name turned back
// into its number with the target's display table. -1 when it is none of these.
int64_t registerNumber(const std::string& token, const Target& t) {
  if (token.rfind("0x", 0) == 0) return int64_t(std::stoull(token.substr(2), nullptr, 16));
  if (token.rfind("reg", 0) == 0 && token.size() > 3 &&
      token.find_first_not_of("0123456789", 3) == std::string::npos)
    return int64_t(std::stoull(token.substr(3)));
  for (const DwarfRegisterName& n : t.dwarf_register_names) {
    if (!n.numbered) {
      if (token == n.prefix) return n.first;
      continue;
    }
    if (token.size() <= n.prefix.size() + n.suffix.size() || token.rfind(n.prefix, 0) != 0 ||
        token.compare(token.size() - n.suffix.size(), n.suffix.size(), n.suffix) != 0)
      continue;
    std::string digits =
        token.substr(n.prefix.size(), token.size() - n.prefix.size() - n.suffix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
    uint64_t index = std::stoull(digits);
    if (index >= n.index0 && index - n.index0 < n.count) return int64_t(n.first + index - n.index0);
  }
  return -1;
}

std::string dump(const std::string& object) {
  oracle::RunResult r =
      oracle::run({"llvm-dwarfdump-22", "--debug-info", "--debug-frame", "--eh-frame", object});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

bool compile(const std::vector<std::string>& argv) {
  oracle::RunResult r = oracle::run(argv);
  EXPECT_EQ(r.exit_code, 0) << argv[0] << " failed:\n" << r.err;
  return r.exit_code == 0;
}

// Clears e_flags of an ELF64 object in place (llvm-dwarfdump then knows no AMDGPU processor).
void clearElfFlags(const std::string& path) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  char ident[5] = {};
  f.read(ident, 5);
  ASSERT_TRUE(f && ident[1] == 'E' && ident[4] == 2) << path << " is no ELF64 object";
  f.seekp(48);
  const char zero[4] = {};
  f.write(zero, 4);
}

Target resolve(const std::string& triple, const std::string& mcpu, const std::string& march = "",
               const std::string& mabi = "", int wavefront_size = 0) {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = mcpu;
  o.march = march;
  o.mabi = mabi;
  o.wavefront_size = wavefront_size;
  return resolveTarget(o);
}

// Every register operand of `d` must denote a register of `t`'s DWARF data; returns the numbers.
std::set<uint64_t> expectValid(const Dump& d, const Target& t, const std::string& what) {
  std::set<uint64_t> numbers;
  for (const std::string& token : d.registers) {
    int64_t n = registerNumber(token, t);
    EXPECT_GE(n, 0) << what << ": register operand '" << token << "' is no number or known name";
    if (n < 0) continue;
    numbers.insert(uint64_t(n));
    EXPECT_NE(t.dwarf.findRegister(uint64_t(n)), nullptr)
        << what << ": DWARF register " << n << " ('" << token << "') is not a register of "
        << t.spelling;
  }
  return numbers;
}

size_t countIn(const std::set<uint64_t>& s, uint64_t first, uint64_t count) {
  size_t n = 0;
  for (uint64_t v : s) n += v >= first && v - first < count;
  return n;
}

// ----- AMDGPU -------------------------------------------------------------------------------

struct AmdgpuCase {
  const char* mcpu;
  bool wave64_flag; // -mwavefrontsize64
  unsigned wave;
  bool mfma;
};
const AmdgpuCase kAmdgpuCases[] = {
    {"gfx90a", false, 64, true},  {"gfx908", false, 64, true},   {"gfx1030", false, 32, false},
    {"gfx1030", true, 64, false}, {"gfx1100", false, 32, false},
};

TEST(DiffDwarfRegisters, AmdgpuClang22) {
  if (!have({"clang-22", "llvm-dwarfdump-22"}))
    GTEST_SKIP() << "clang-22 or llvm-dwarfdump-22 is not installed";
  oracle::ScratchDir dir;
  dir.write("a.cl", kAmdgpuSource);
  dir.write("m.cl", kMfmaSource);
  size_t total = 0;
  for (const AmdgpuCase& c : kAmdgpuCases) {
    std::string name = std::string(c.mcpu) + (c.wave64_flag ? "-wave64" : "");
    SCOPED_TRACE(name);
    const Target t = resolve("amdgcn-amd-amdhsa", c.mcpu, "", "", c.wave64_flag ? 64 : 0);
    ASSERT_EQ(t.dwarf.lanes, c.wave);
    std::set<uint64_t> numbers;
    for (const char* src : {"a.cl", "m.cl"}) {
      if (std::string(src) == "m.cl" && !c.mfma) continue;
      for (const char* opt : {"-O1", "-O0"}) {
        std::string obj = dir.file(name + "-" + src + opt + ".o");
        std::vector<std::string> cmd = {"clang-22",
                                        "-target",
                                        "amdgcn-amd-amdhsa",
                                        "-nogpulib",
                                        "-mcpu=" + std::string(c.mcpu),
                                        "-g",
                                        opt,
                                        "-c",
                                        dir.file(src),
                                        "-o",
                                        obj};
        if (c.wave64_flag) cmd.push_back("-mwavefrontsize64");
        if (!compile(cmd)) continue;
        clearElfFlags(obj);
        Dump d = parseDump(dump(obj));
        std::set<uint64_t> seen = expectValid(d, t, name + " " + src + " " + opt);
        numbers.insert(seen.begin(), seen.end());
        total += d.registers.size();
        ASSERT_FALSE(d.cies.empty());
        for (const Cie& cie : d.cies) {
          EXPECT_EQ(cie.version, 4);
          EXPECT_EQ(uint64_t(cie.return_address), t.dwarf.return_address_column);
          EXPECT_EQ(cie.code_alignment, t.dwarf.code_alignment);
          EXPECT_EQ(cie.data_alignment, t.dwarf.data_alignment);
          // Known: upstream writes no augmentation; the seed's "[amd:v0.0]" is kept.
          EXPECT_EQ(cie.augmentation, "");
          EXPECT_EQ(t.dwarf.cie_augmentation, "[amd:v0.0]");
        }
      }
    }
    std::printf("%-14s %zu distinct DWARF registers (SGPR %zu, VGPR %zu, AGPR %zu)\n", name.c_str(),
                numbers.size(), countIn(numbers, 32, 64) + countIn(numbers, 1088, 42),
                countIn(numbers, c.wave == 64 ? 2560 : 1536, 256),
                countIn(numbers, c.wave == 64 ? 3072 : 2048, 256));
    // The objects use scalar and vector registers of their wave mode (AGPRs on gfx908).
    EXPECT_GT(countIn(numbers, 32, 64) + countIn(numbers, 1088, 42), 0u);
    const uint64_t vgpr0 = c.wave == 64 ? 2560 : 1536;
    EXPECT_GT(countIn(numbers, vgpr0, 256), 0u);
    if (std::string(c.mcpu) == "gfx908") {
      EXPECT_GT(countIn(numbers, 3072, 256), 0u);
    }
    // The other wave mode's data rejects this object's vector registers.
    const Target other = c.wave == 64 ? resolve("amdgcn-amd-amdhsa", "gfx1030")
                                      : resolve("amdgcn-amd-amdhsa", c.mcpu, "", "", 64);
    for (uint64_t n : numbers) {
      if (n >= vgpr0 && n < vgpr0 + 256) {
        EXPECT_EQ(other.dwarf.findRegister(n), nullptr) << n;
      }
    }
  }
  EXPECT_GT(total, 100u);
}

// ----- RISC-V -------------------------------------------------------------------------------

struct RiscvCase {
  const char* triple;
  const char* march;
  const char* mabi;
  const char* source;
};
const RiscvCase kRiscvCases[] = {
    {"riscv64-unknown-elf", "rv64gc", "lp64d", "f.c"},
    {"riscv64-unknown-linux-gnu", "rv64gc", "lp64d", "f.c"}, // .eh_frame
    {"riscv32-unknown-elf", "rv32imac", "ilp32", "f.c"},
    {"riscv32-unknown-elf", "rv32imafdc", "ilp32d", "f.c"},
    {"riscv64-unknown-elf", "rv64imac", "lp64", "f.c"},
    {"riscv64-unknown-elf", "rv64gcv", "lp64d", "v.c"},
};

TEST(DiffDwarfRegisters, RiscvClang22) {
  if (!have({"clang-22", "llvm-dwarfdump-22"}))
    GTEST_SKIP() << "clang-22 or llvm-dwarfdump-22 is not installed";
  oracle::ScratchDir dir;
  dir.write("f.c", kRiscvSource);
  dir.write("v.c", kRvvSource);
  std::set<uint64_t> all;
  for (const RiscvCase& c : kRiscvCases) {
    std::string name = std::string(c.triple) + " " + c.march;
    SCOPED_TRACE(name);
    const Target t = resolve(c.triple, "", c.march, c.mabi);
    for (const char* opt : {"-O1", "-O0"}) {
      std::string obj = dir.file(std::string(c.march) + c.triple + opt + ".o");
      if (!compile({"clang-22", "--target=" + std::string(c.triple),
                    "-march=" + std::string(c.march), "-mabi=" + std::string(c.mabi), "-g", opt,
                    "-c", dir.file(c.source), "-o", obj}))
        continue;
      Dump d = parseDump(dump(obj));
      std::set<uint64_t> seen = expectValid(d, t, name + " " + opt);
      all.insert(seen.begin(), seen.end());
      ASSERT_EQ(d.cies.size(), 1u);
      const Cie& cie = d.cies[0];
      EXPECT_EQ(uint64_t(cie.return_address), t.dwarf.return_address_column);
      EXPECT_EQ(cie.code_alignment, t.dwarf.code_alignment);
      EXPECT_EQ(cie.data_alignment, t.dwarf.data_alignment);
      // .debug_frame (bare metal): version 4, no augmentation; .eh_frame (Linux): 1, "zR".
      const bool linux_os = std::string(c.triple).find("linux") != std::string::npos;
      EXPECT_EQ(cie.version, linux_os ? 1 : 4);
      EXPECT_EQ(cie.augmentation, linux_os ? "zR" : t.dwarf.cie_augmentation);
    }
  }
  std::printf("RISC-V clang-22: %zu distinct DWARF registers (x %zu, f %zu, CSR %zu)\n", all.size(),
              countIn(all, 0, 32), countIn(all, 32, 32), countIn(all, 4096, 4096));
  EXPECT_GT(countIn(all, 0, 32), 3u);  // x registers
  EXPECT_GT(countIn(all, 32, 32), 0u); // fs0 saved (rv64gc, rv32imafdc)
  EXPECT_EQ(all.count(7202), 1u);      // vlenb in rv64gcv's CFA expression
}

TEST(DiffDwarfRegisters, RiscvGcc12) {
  if (!have({"riscv64-unknown-elf-gcc", "llvm-dwarfdump-22"}))
    GTEST_SKIP() << "riscv64-unknown-elf-gcc or llvm-dwarfdump-22 is not installed";
  oracle::ScratchDir dir;
  dir.write("f.c", kRiscvSource);
  // Multilibs of Debian's riscv64-unknown-elf-gcc.
  const RiscvCase cases[] = {{"riscv64-unknown-elf", "rv64gc", "lp64d", "f.c"},
                             {"riscv64-unknown-elf", "rv64imac", "lp64", "f.c"},
                             {"riscv32-unknown-elf", "rv32imac", "ilp32", "f.c"},
                             {"riscv32-unknown-elf", "rv32imafdc", "ilp32d", "f.c"}};
  for (const RiscvCase& c : cases) {
    std::string name = std::string("gcc ") + c.march;
    SCOPED_TRACE(name);
    const Target t = resolve(c.triple, "", c.march, c.mabi);
    for (const char* extra : {"-O1", "-fasynchronous-unwind-tables"}) {
      std::string obj = dir.file(std::string(c.march) + extra + ".o");
      if (!compile({"riscv64-unknown-elf-gcc", "-march=" + std::string(c.march),
                    "-mabi=" + std::string(c.mabi), "-g", "-O1", extra, "-c", dir.file(c.source),
                    "-o", obj}))
        continue;
      Dump d = parseDump(dump(obj));
      expectValid(d, t, name + " " + extra);
      ASSERT_EQ(d.cies.size(), 1u);
      const Cie& cie = d.cies[0];
      EXPECT_EQ(uint64_t(cie.return_address), t.dwarf.return_address_column);
      EXPECT_EQ(cie.code_alignment, t.dwarf.code_alignment);
      EXPECT_EQ(cie.version, 3);
      // Known: GCC writes -4 for RV64 too.
      EXPECT_EQ(cie.data_alignment, -4);
    }
  }
}

// ----- NVPTX --------------------------------------------------------------------------------

TEST(DiffDwarfRegisters, NvptxPtxas) {
  if (!have({"clang-22", "llvm-dwarfdump-22", "ptxas"}))
    GTEST_SKIP() << "clang-22, llvm-dwarfdump-22 or ptxas is not installed";
  oracle::ScratchDir dir;
  dir.write("k.cl", kNvptxSource);
  size_t ptx_names = 0, sass = 0;
  for (const char* sm : {"sm_75", "sm_80", "sm_90", "sm_120"}) {
    SCOPED_TRACE(sm);
    const Target t = resolve("nvptx64-nvidia-cuda", sm);
    for (const char* opt : {"-O1", "-O0"}) {
      std::string base = dir.file(std::string(sm) + opt);
      // Optimised code keeps full debug information only when asked for at the cc1 level.
      if (!compile({"clang-22", "--target=nvptx64-nvidia-cuda", "-march=" + std::string(sm),
                    "-cl-std=CL2.0", "-Xclang", "-finclude-default-header", "-g", "-Xclang",
                    "-debug-info-kind=constructor", opt, "-S", dir.file("k.cl"), "-o",
                    base + ".ptx"}) ||
          !compile(
              {"ptxas", "-arch=" + std::string(sm), "-g", base + ".ptx", "-o", base + ".cubin"}))
        continue;
      Dump d = parseDump(dump(base + ".cubin"));
      for (const std::string& token : d.registers) {
        int64_t n = registerNumber(token, t);
        ASSERT_GE(n, 0) << token;
        if (t.dwarf.findRegister(uint64_t(n))) {
          sass += n >= 0x01000000 && n < 0x0c000000;
          continue;
        }
        // Not in the table: must be a PTX virtual register's packed name.
        EXPECT_NE(nvptxDwarfRegisterName(uint64_t(n)), "") << "DWARF register " << token;
        ++ptx_names;
      }
      ASSERT_FALSE(d.cies.empty());
      for (const Cie& cie : d.cies) {
        EXPECT_EQ(cie.version, 3);
        EXPECT_EQ(cie.augmentation, t.dwarf.cie_augmentation);
        EXPECT_EQ(cie.code_alignment, t.dwarf.code_alignment);
        EXPECT_EQ(cie.data_alignment, t.dwarf.data_alignment);
        // Known: a kernel's CIE has no return address (-1).
        if (cie.return_address != -1) {
          EXPECT_EQ(uint64_t(cie.return_address), t.dwarf.return_address_column);
        }
      }
    }
  }
  std::printf("NVPTX: %zu register operands with PTX names, %zu SASS registers in CFI\n", ptx_names,
              sass);
  EXPECT_GT(ptx_names, 0u);
  EXPECT_GT(sass, 100u);
}

} // namespace
