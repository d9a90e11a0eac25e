// RISC-V -march parsing: canonical strings of valid ISA strings, exact messages and positions of
// invalid ones (LLVM RISCVISAInfo's modern wording), canonical order, the implied closure, the
// extension table and the default ABI.
#include "abikit/diag.h"
#include "abikit/riscv_isa.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using abikit::Error;
using abikit::RiscvISAInfo;

namespace {

struct Valid {
  const char* march;
  const char* canonical;
};

// Expected strings follow LLVM's RISCVISAInfo rules (versions: LLVM 20 line; closure and order:
// RISCVISAUtils); the cases marked [isatest] are from llvm/unittests/TargetParser/
// RISCVISAInfoTest.cpp and [archtest] from clang/test/Driver/riscv-arch.c.
const Valid kValid[] = {
    {"rv32i", "rv32i2p1"},
    {"rv64i", "rv64i2p1"},
    {"rv32e", "rv32e2p0"},
    {"rv64e", "rv64e2p0"},
    {"rv64e2p0", "rv64e2p0"},
    {"rv32i2p1", "rv32i2p1"},
    {"rv64i2p1", "rv64i2p1"}, // [isatest]
    {"rv32g", "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv64g", "rv64i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv64gc",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32gc",
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32imac", "rv32i2p1_m2p0_a2p1_c2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv64imac", "rv64i2p1_m2p0_a2p1_c2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32imafc", "rv32i2p1_m2p0_a2p1_f2p2_c2p0_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32imafdc", "rv32i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv64imafdc", "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32ima", "rv32i2p1_m2p0_a2p1_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv64gcv", // [isatest]: 20 extensions
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_v1p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "zve32f1p0_zve32x1p0_zve64d1p0_zve64f1p0_zve64x1p0_zvl128b1p0_zvl32b1p0_zvl64b1p0"},
    {"rv64gcv_zvl256b",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_v1p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "zve32f1p0_zve32x1p0_zve64d1p0_zve64f1p0_zve64x1p0_zvl128b1p0_zvl256b1p0_zvl32b1p0_"
     "zvl64b1p0"},
    {"rv32i_zfinx1", "rv32i2p1_zicsr2p0_zfinx1p0"},   // [isatest]
    {"rv32i_zfinx1p0", "rv32i2p1_zicsr2p0_zfinx1p0"}, // [isatest]
    {"rv32imafdczifencei",                            // [isatest]: 11 extensions
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32i_m_a_f_d_c_zifencei",
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32imfad", "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32im_fa_d", "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32im2p0fad", "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32i2p1m2p0fad", "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv32i_zihintntl_m_a_f_d_svinval",
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zihintntl1p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "svinval1p0"},
    {"rv32izihintntl_mafdsvinval",
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zihintntl1p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "svinval1p0"},
    {"rv32i_zihintntl_mafd_svinval",
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zihintntl1p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "svinval1p0"},
    {"rv32i_zba_m", "rv32i2p1_m2p0_zmmul1p0_zba1p0"},
    {"rv32izba_m", "rv32i2p1_m2p0_zmmul1p0_zba1p0"},
    {"rv32izba1p0_m2p0", "rv32i2p1_m2p0_zmmul1p0_zba1p0"},
    {"rv32ia_zba_m", "rv32i2p1_m2p0_a2p1_zmmul1p0_zaamo1p0_zalrsc1p0_zba1p0"},
    {"rv32iazba_m", "rv32i2p1_m2p0_a2p1_zmmul1p0_zaamo1p0_zalrsc1p0_zba1p0"},
    {"rv32ia2p1zba1p0_m2p0", "rv32i2p1_m2p0_a2p1_zmmul1p0_zaamo1p0_zalrsc1p0_zba1p0"},
    {"rv64id", "rv64i2p1_f2p2_d2p2_zicsr2p0"}, // [isatest]: D implies F
    {"rv64izkn", "rv64i2p1_zbkb1p0_zbkc1p0_zbkx1p0_zkn1p0_zknd1p0_zkne1p0_zknh1p0"},
    {"rv64i_zbkb_zbkc_zbkx_zkne_zknd_zknh", // combination: zkn added
     "rv64i2p1_zbkb1p0_zbkc1p0_zbkx1p0_zkn1p0_zknd1p0_zkne1p0_zknh1p0"},
    {"rv64i_zk", "rv64i2p1_zbkb1p0_zbkc1p0_zbkx1p0_zk1p0_zkn1p0_zknd1p0_zkne1p0_zknh1p0_zkr1p0_"
                 "zkt1p0"},
    {"rv64i_zks", "rv64i2p1_zbkb1p0_zbkc1p0_zbkx1p0_zks1p0_zksed1p0_zksh1p0"},
    {"rv32izce", "rv32i2p1_zicsr2p0_zca1p0_zcb1p0_zce1p0_zcmp1p0_zcmt1p0"}, // [isatest]
    {"rv32ifzce", "rv32i2p1_f2p2_zicsr2p0_zca1p0_zcb1p0_zce1p0_zcf1p0_zcmp1p0_zcmt1p0"},
    {"rv32idzce", "rv32i2p1_f2p2_d2p2_zicsr2p0_zca1p0_zcb1p0_zce1p0_zcf1p0_zcmp1p0_zcmt1p0"},
    {"rv64izce", "rv64i2p1_zicsr2p0_zca1p0_zcb1p0_zce1p0_zcmp1p0_zcmt1p0"},
    {"rv64ifzce", "rv64i2p1_f2p2_zicsr2p0_zca1p0_zcb1p0_zce1p0_zcmp1p0_zcmt1p0"}, // no zcf
    {"rv64idzce", "rv64i2p1_f2p2_d2p2_zicsr2p0_zca1p0_zcb1p0_zce1p0_zcmp1p0_zcmt1p0"},
    {"rv32ifzfh01p0", "rv32i2p1_f2p2_zicsr2p0_zfh1p0_zfhmin1p0"}, // [archtest]: "01p0" is 1.0
    {"rv32izdinx", "rv32i2p1_zicsr2p0_zfinx1p0_zdinx1p0"},
    {"rv32izhinx", "rv32i2p1_zicsr2p0_zfinx1p0_zhinx1p0_zhinxmin1p0"},
    {"rv32ec", "rv32e2p0_c2p0"},
    {"rv32emc", "rv32e2p0_m2p0_c2p0_zmmul1p0"},
    {"rv32ezfinx", "rv32e2p0_zicsr2p0_zfinx1p0"},
    {"rv64ib", "rv64i2p1_b1p0_zba1p0_zbb1p0_zbs1p0"},
    {"rv64gc_zbb_zba_zbs",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "zba1p0_zbb1p0_zbs1p0"},
    {"rv64gc_zicntr_zihpm",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicntr2p0_zicsr2p0_zifencei2p0_zihpm2p0_zmmul1p0_"
     "zaamo1p0_zalrsc1p0"},
    {"rv64i_zcmop", "rv64i2p1_zca1p0_zcmop1p0"},
    {"rv32i_zcmt", "rv32i2p1_zicsr2p0_zca1p0_zcmt1p0"},
    {"rv64ifd_zca_zcmp", "rv64i2p1_f2p2_d2p2_zicsr2p0_zca1p0_zcmp1p0"}, // zcmp with D but no C
    {"rv32imafdq", "rv32i2p1_m2p0_a2p1_f2p2_d2p2_q2p2_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv64gq",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_q2p2_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0"},
    {"rv64iq", "rv64i2p1_f2p2_d2p2_q2p2_zicsr2p0"},
    {"rv64i_zicfilp1p0", "rv64i2p1_zicfilp1p0_zicsr2p0"}, // [isatest] printEnabledExtensions
    {"rv64i_zicfiss1p0", "rv64i2p1_zicfiss1p0_zicsr2p0_zimop1p0"},
    {"rv64izalasr0p1", "rv64i2p1_zalasr0p1"},
    {"rv32i_zvbb", "rv32i2p1_zicsr2p0_zvbb1p0_zve32x1p0_zvkb1p0_zvl32b1p0"},
    {"rv32i_zvbc", "rv32i2p1_zicsr2p0_zvbc1p0_zve32x1p0_zve64x1p0_zvl32b1p0_zvl64b1p0"},
    {"rv32i_zvknhb", "rv32i2p1_zicsr2p0_zve32x1p0_zve64x1p0_zvknhb1p0_zvl32b1p0_zvl64b1p0"},
    {"rv32i_zvkgs0p7", "rv32i2p1_zicsr2p0_zve32x1p0_zvkg1p0_zvkgs0p7_zvl32b1p0"},
    {"rv64i_zve32x", "rv64i2p1_zicsr2p0_zve32x1p0_zvl32b1p0"},
    {"rv64i_zve64d", "rv64i2p1_f2p2_d2p2_zicsr2p0_zve32f1p0_zve32x1p0_zve64d1p0_zve64f1p0_"
                     "zve64x1p0_zvl32b1p0_zvl64b1p0"},
    {"rv32ifd_zvfh", "rv32i2p1_f2p2_d2p2_zicsr2p0_zfhmin1p0_zve32f1p0_zve32x1p0_zvfh1p0_"
                     "zvfhmin1p0_zvl32b1p0"},
    {"rv32i_zvfbfwma", "rv32i2p1_f2p2_zicsr2p0_zfbfmin1p0_zve32f1p0_zve32x1p0_zvfbfmin1p0_"
                       "zvfbfwma1p0_zvl32b1p0"},
    {"rv64gcv_zvkned_zvknhb_zvkb_zvkt", // combination: zvkn added
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_v1p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "zve32f1p0_zve32x1p0_zve64d1p0_zve64f1p0_zve64x1p0_zvkb1p0_zvkn1p0_zvkned1p0_zvknhb1p0_"
     "zvkt1p0_zvl128b1p0_zvl32b1p0_zvl64b1p0"},
    {"rv64gc_ztso",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "ztso1p0"},
    {"rv32imafd_xssr_xfrep_xdma", // Snitch
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0_xdma0p1_xfrep0p1_"
     "xssr0p1"},
    {"rv32imafd_xssr0p1_xfrep0p1_xdma0p1",
     "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zmmul1p0_zaamo1p0_zalrsc1p0_xdma0p1_xfrep0p1_"
     "xssr0p1"},
    {"rv64i_xtheadba_xtheadbb", "rv64i2p1_xtheadba1p0_xtheadbb1p0"},
    {"rv64i_xtheadvdot", "rv64i2p1_f2p2_d2p2_v1p0_zicsr2p0_zve32f1p0_zve32x1p0_zve64d1p0_"
                         "zve64f1p0_zve64x1p0_zvl128b1p0_zvl32b1p0_zvl64b1p0_xtheadvdot1p0"},
    {"rv32i_xwchc", "rv32i2p1_zca1p0_xwchc2p2"},
    {"rv32i_xcvalu_xcvmac", "rv32i2p1_xcvalu1p0_xcvmac1p0"},
    {"rv64i_xsfvcp", "rv64i2p1_zicsr2p0_zve32x1p0_zvl32b1p0_xsfvcp1p0"},
    {"rv64i_xventanacondops_zicond", "rv64i2p1_zicond1p0_xventanacondops1p0"},
    {"rv64gc_sha",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_h1p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "sha1p0_shcounterenw1p0_shgatpa1p0_shtvala1p0_shvsatpa1p0_shvstvala1p0_shvstvecd1p0_"
     "ssstateen1p0"},
    {"rv64i_smctr1p0", "rv64i2p1_smctr1p0_sscsrind1p0"},
    {"rv64gc_svinval_svnapot_svpbmt",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_zalrsc1p0_"
     "svinval1p0_svnapot1p0_svpbmt1p0"},
    {"rv64i_zabha_zaamo", "rv64i2p1_zaamo1p0_zabha1p0"},
    {"rv32ia_zacas", "rv32i2p1_a2p1_zaamo1p0_zacas1p0_zalrsc1p0"},
    {"rv32ihd", "rv32i2p1_f2p2_d2p2_h1p0_zicsr2p0"},
    {"rvi20u32", "rv32i2p1"},
    {"rvi20u64_m_zba", "rv64i2p1_m2p0_zmmul1p0_zba1p0"}, // [isatest]
    {"rva20u64",                                         // [isatest]: 16 extensions
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_ziccamoa1p0_ziccif1p0_zicclsm1p0_ziccrse1p0_zicntr2p0_"
     "zicsr2p0_zmmul1p0_za128rs1p0_zaamo1p0_zalrsc1p0"},
    {"rva20s64",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_ziccamoa1p0_ziccif1p0_zicclsm1p0_ziccrse1p0_zicntr2p0_"
     "zicsr2p0_zifencei2p0_zmmul1p0_za128rs1p0_zaamo1p0_zalrsc1p0_ssccptr1p0_sstvala1p0_"
     "sstvecd1p0_svade1p0_svbare1p0"},
    {"rva22u64",
     "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zic64b1p0_zicbom1p0_zicbop1p0_zicboz1p0_ziccamoa1p0_"
     "ziccif1p0_zicclsm1p0_ziccrse1p0_zicntr2p0_zicsr2p0_zihintpause2p0_zihpm2p0_zmmul1p0_"
     "za64rs1p0_zaamo1p0_zalrsc1p0_zfhmin1p0_zba1p0_zbb1p0_zbs1p0_zkt1p0"},
};

struct Invalid {
  const char* march;
  const char* message;
  size_t index; // 0-based offending character
};

const Invalid kInvalid[] = {
    // Characters.
    {"RV32", "string may only contain [a-z0-9_]", 0},
    {"rV64", "string may only contain [a-z0-9_]", 1},
    {"rv32i2P0", "string may only contain [a-z0-9_]", 6},
    {"rv64i2p0_A2p0", "string may only contain [a-z0-9_]", 9},
    {"rv32imC", "string may only contain [a-z0-9_]", 6},
    {"rv32e2.0", "string may only contain [a-z0-9_]", 6},
    {"rva20u64+zbc", "string may only contain [a-z0-9_]", 8},
    {"rv64gc ", "string may only contain [a-z0-9_]", 6},
    // Base.
    {"", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"rv32", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"rv64", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"rv65i", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"rv128i", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"rv128g", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"unknown", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"rvi23u99", "string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0},
    {"rva23u64",
     "profile 'rva23u64' is not supported (known profiles: rvi20u32, rvi20u64, rva20u64, "
     "rva20s64, rva22u64, rva22s64)",
     0},
    {"rvi20u32m", "additional extensions must be after separator '_'", 8},
    {"rvi20u64c", "additional extensions must be after separator '_'", 8},
    {"rv32j", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    {"rv32_i", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    {"rv64k", "first letter after 'rv64' should be 'e', 'i' or 'g'", 4},
    {"rv32zba_im", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    {"rv32q", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    {"rv32xabc", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    {"rv32sabc", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    {"rv32m", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    {"rv32l", "first letter after 'rv32' should be 'e', 'i' or 'g'", 4},
    // Unknown names.
    {"rv32i_zmadeup", "unsupported standard user-level extension 'zmadeup'", 6},
    {"rv32i_zmadeup1p0", "unsupported standard user-level extension 'zmadeup'", 6},
    {"rv64g_smadeup", "unsupported standard supervisor-level extension 'smadeup'", 6},
    {"rv64g_smadeup1p0", "unsupported standard supervisor-level extension 'smadeup'", 6},
    {"rv64g_xmadeup", "unsupported non-standard user-level extension 'xmadeup'", 6},
    {"rv64g_xmadeup1p0", "unsupported non-standard user-level extension 'xmadeup'", 6},
    {"rv32ixabc", "unsupported non-standard user-level extension 'xabc'", 5},
    {"rv32ixabc_", "unsupported non-standard user-level extension 'xabc'", 5},
    {"rv32ixabc_a", "unsupported non-standard user-level extension 'xabc'", 5},
    {"rv32isa", "unsupported standard supervisor-level extension 'sa'", 5},
    {"rv32isp_xabc", "unsupported standard supervisor-level extension 'sp'", 5},
    {"rv32il", "unsupported standard user-level extension 'l'", 5},
    {"rv32ik2p0", "unsupported standard user-level extension 'k'", 5},
    {"rv32i_zve64x_zvl", "unsupported standard user-level extension 'zvl'", 13},
    {"rv32ix", "non-standard user-level extension name missing after 'x'", 5},
    {"rv32ix_s", "non-standard user-level extension name missing after 'x'", 5},
    {"rv32is", "standard supervisor-level extension name missing after 's'", 5},
    {"rv32iz", "standard user-level extension name missing after 'z'", 5},
    {"rv32imw", "invalid standard user-level extension 'w'", 6},
    {"rv64ii", "invalid standard user-level extension 'i'", 5},
    {"rv32ee", "invalid standard user-level extension 'e'", 5},
    {"rv64ig", "invalid standard user-level extension 'g'", 5},
    {"rv32i_1", "invalid standard user-level extension '1'", 6},
    // Multi-letter extensions run to the next '_'.
    {"rv32izbam", "unsupported standard user-level extension 'zbam'", 5},
    {"rv32i_zbam", "unsupported standard user-level extension 'zbam'", 6},
    {"rv32izbai_m", "unsupported standard user-level extension 'zbai'", 5},
    {"rv32izbaim", "unsupported standard user-level extension 'zbaim'", 5},
    {"rv32i_zba1p0m", "unsupported standard user-level extension 'zba1p0m'", 6},
    {"rv32izbb1p0zbs1p0", "unsupported standard user-level extension 'zbb1p0zbs'", 5},
    // Duplicates.
    {"rv64imm", "duplicated standard user-level extension 'm'", 6},
    {"rv32im_m", "duplicated standard user-level extension 'm'", 7},
    {"rv32i_zicsr_zicsr", "duplicated standard user-level extension 'zicsr'", 12},
    {"rva20u64_zicntr", "duplicated standard user-level extension 'zicntr'", 9},
    {"rv64g_xtheadba_xtheadba", "duplicated non-standard user-level extension 'xtheadba'", 15},
    {"rv64g_svinval_svinval", "duplicated standard supervisor-level extension 'svinval'", 14},
    // Versions.
    {"rv64i2p", "minor version number missing after 'p' for extension 'i'", 6},
    {"rv32ixt2p", "minor version number missing after 'p' for extension 'xt'", 8},
    {"rv64i1p0", "unsupported version number 1.0 for extension 'i'", 5},
    {"rv64i9p9", "unsupported version number 9.9 for extension 'i'", 5},
    {"rv32i2p2", "unsupported version number 2.2 for extension 'i'", 5},
    {"rv32i2", "unsupported version number 2 for extension 'i'", 5},
    {"rv32i20", "unsupported version number 20 for extension 'i'", 5},
    {"rv32imc5", "unsupported version number 5 for extension 'c'", 7},
    {"rv32im0p1", "unsupported version number 0.1 for extension 'm'", 6},
    {"rv32izifencei10p10", "unsupported version number 10.10 for extension 'zifencei'", 13},
    {"rv32iv0p1", "unsupported version number 0.1 for extension 'v'", 6},
    {"rv32izve32x0p1", "unsupported version number 0.1 for extension 'zve32x'", 11},
    {"rv32i_zmmul2p0", "unsupported version number 2.0 for extension 'zmmul'", 11},
    {"rv32imafd_xssr1p0", "unsupported version number 1.0 for extension 'xssr'", 14},
    {"rv32i99999999999", "Failed to parse major version number for extension 'i'", 5},
    {"rv32g1c", "version not supported for 'g'", 5},
    {"rv64g2p0", "version not supported for 'g'", 5},
    // Separators.
    {"rv64i__m", "extension name missing after separator '_'", 5},
    {"rv32ezicsr__zifencei", "extension name missing after separator '_'", 10},
    {"rv32i_", "extension name missing after separator '_'", 5},
    {"rv32izicsr_", "extension name missing after separator '_'", 10},
    {"rv64im_", "extension name missing after separator '_'", 6},
    // Experimental extensions need their exact version.
    {"rv64izalasr", "experimental extension requires explicit version number `zalasr`", 5},
    {"rv32i_zicfilp", "experimental extension requires explicit version number `zicfilp`", 6},
    {"rv64izalasr9p9",
     "unsupported version number 9.9 for experimental extension 'zalasr' (this compiler "
     "supports 0.1)",
     11},
    // Conflicts and dependencies (reported at the later of the extensions involved).
    {"rv32ifzfinx", "'f' and 'zfinx' extensions are incompatible", 6},
    {"rv64gzdinx", "'f' and 'zfinx' extensions are incompatible", 5},
    {"rv32idc_zcmp1p0",
     "'zcmp' extension is incompatible with 'c' extension when 'd' extension is enabled", 8},
    {"rv32id_zcd1p0_zcmp1p0",
     "'zcmp' extension is incompatible with 'zcd' extension when 'd' extension is enabled", 14},
    {"rv32idc_zcmt1p0",
     "'zcmt' extension is incompatible with 'c' extension when 'd' extension is enabled", 8},
    {"rv32id_zcd1p0_zcmt1p0",
     "'zcmt' extension is incompatible with 'zcd' extension when 'd' extension is enabled", 14},
    {"rv32ifdc_zce",
     "'zcmt' extension is incompatible with 'c' extension when 'd' extension is enabled", 9},
    {"rv64if_zcf", "'zcf' is only supported for 'rv32'", 7},
    {"rv64i_zcf", "'zcf' is only supported for 'rv32'", 6},
    {"rv64i_xwchc", "'xwchc' is only supported for 'rv32'", 6},
    {"rv32id_xwchc", "'d' and 'xwchc' extensions are incompatible", 7},
    {"rv32i_zcb_xwchc", "'xwchc' and 'zcb' extensions are incompatible", 10},
    {"rv32i_zvl32b", "'zvl*b' requires 'v' or 'zve*' extension to also be specified", 6},
    {"rv64i_zvl128b", "'zvl*b' requires 'v' or 'zve*' extension to also be specified", 6},
    {"rv32izvl64b", "'zvl*b' requires 'v' or 'zve*' extension to also be specified", 5},
    {"rv32i_zacas", "'zacas' requires 'a' or 'zaamo' extension to also be specified", 6},
    {"rv64i_zabha", "'zabha' requires 'a' or 'zaamo' extension to also be specified", 6},
};

TEST(RiscvIsa, TableHasAtLeastOneHundredCases) {
  EXPECT_GE(std::size(kValid) + std::size(kInvalid), 100u);
  EXPECT_GE(std::size(kValid), 50u);
  EXPECT_GE(std::size(kInvalid), 50u);
}

TEST(RiscvIsa, ValidStringsPrintCanonically) {
  for (const Valid& v : kValid) {
    try {
      RiscvISAInfo isa = RiscvISAInfo::parse(v.march);
      EXPECT_EQ(isa.toString(), v.canonical) << v.march;
      // The canonical string names every extension with its version, so it parses back to
      // itself once the `_` between single letters is allowed (it is).
      std::string again = isa.toString();
      // Experimental extensions keep their explicit versions; profiles are expanded.
      EXPECT_EQ(RiscvISAInfo::parse(again).toString(), again) << v.march;
    } catch (const Error& e) {
      ADD_FAILURE() << v.march << ": " << e.format();
    }
  }
}

TEST(RiscvIsa, InvalidStringsReportMessageAndPosition) {
  for (const Invalid& c : kInvalid) {
    try {
      RiscvISAInfo isa = RiscvISAInfo::parse(c.march);
      ADD_FAILURE() << c.march << " parsed as " << isa.toString();
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), abikit::ErrorKind::Target) << c.march;
      EXPECT_EQ(e.message(), c.message) << c.march;
      EXPECT_EQ(e.option(), "-march") << c.march;
      EXPECT_EQ(e.optionValue(), c.march) << c.march;
      EXPECT_EQ(e.optionIndex(), c.index) << c.march << ": " << e.message();
      EXPECT_LE(e.optionIndex(), std::string(c.march).size()) << c.march;
    }
  }
}

TEST(RiscvIsa, ErrorFormatPointsIntoTheOption) {
  try {
    RiscvISAInfo::parse("rv32izbam");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.format(), "abikit: error: unsupported standard user-level extension 'zbam' (in "
                          "'-march=rv32izbam' at character 6)");
  }
}

TEST(RiscvIsa, ExtensionCountsMatchLlvm) {
  // [isatest] counts after the implied closure.
  const std::pair<const char*, size_t> counts[] = {
      {"rv32g", 10},    {"rv64g", 10},     {"rv64gcv", 20},     {"rv32imafdczifencei", 11},
      {"rv32imfad", 9}, {"rv64id", 4},     {"rv64izkn", 8},     {"rv32izce", 7},
      {"rv32ifzce", 9}, {"rv32idzce", 10}, {"rv64ifzce", 8},    {"rv64idzce", 9},
      {"rva20u64", 16}, {"rv32izba_m", 4}, {"rv32ia_zba_m", 7},
  };
  for (const auto& [march, n] : counts)
    EXPECT_EQ(RiscvISAInfo::parse(march).extensions().size(), n) << march;
}

TEST(RiscvIsa, VersionsOfG) {
  RiscvISAInfo g = RiscvISAInfo::parse("rv32g");
  const std::pair<const char*, std::pair<unsigned, unsigned>> want[] = {
      {"i", {2, 1}},     {"m", {2, 0}},      {"a", {2, 1}},        {"f", {2, 2}},
      {"d", {2, 2}},     {"zicsr", {2, 0}},  {"zifencei", {2, 0}}, {"zmmul", {1, 0}},
      {"zaamo", {1, 0}}, {"zalrsc", {1, 0}},
  };
  for (const auto& [ext, ver] : want) {
    const std::string_view name = ext;
    auto it = std::find_if(g.extensions().begin(), g.extensions().end(),
                           [name](const abikit::RiscvExtension& e) { return e.name == name; });
    ASSERT_NE(it, g.extensions().end()) << name;
    EXPECT_EQ(it->major, ver.first) << name;
    EXPECT_EQ(it->minor, ver.second) << name;
  }
}

TEST(RiscvIsa, LengthsAndBase) {
  struct Row {
    const char* march;
    unsigned xlen, flen, vlen, elen, elen_fp;
    bool e;
  };
  const Row rows[] = {
      {"rv32i", 32, 0, 0, 0, 0, false},
      {"rv32e", 32, 0, 0, 0, 0, true},
      {"rv64e", 64, 0, 0, 0, 0, true},
      {"rv32if", 32, 32, 0, 0, 0, false},
      {"rv64g", 64, 64, 0, 0, 0, false},
      {"rv64gq", 64, 128, 0, 0, 0, false},
      {"rv32izfinx", 32, 0, 0, 0, 0, false},
      {"rv64gcv", 64, 64, 128, 64, 64, false},
      {"rv32i_zve32x", 32, 0, 32, 32, 0, false},
      {"rv32if_zve32f", 32, 32, 32, 32, 32, false},
      {"rv64i_zve64x_zvl1024b", 64, 0, 1024, 64, 0, false},
      {"rv64if_zve64f", 64, 32, 64, 64, 32, false},
      {"rv64i_zve32x_zvl65536b", 64, 0, 65536, 32, 0, false},
  };
  for (const Row& r : rows) {
    RiscvISAInfo isa = RiscvISAInfo::parse(r.march);
    EXPECT_EQ(isa.xlen(), r.xlen) << r.march;
    EXPECT_EQ(isa.flen(), r.flen) << r.march;
    EXPECT_EQ(isa.minVLen(), r.vlen) << r.march;
    EXPECT_EQ(isa.maxELen(), r.elen) << r.march;
    EXPECT_EQ(isa.maxELenFp(), r.elen_fp) << r.march;
    EXPECT_EQ(isa.isEBase(), r.e) << r.march;
  }
}

TEST(RiscvIsa, DefaultAbiIsClangComputeDefaultAbi) {
  const std::pair<const char*, const char*> rows[] = {
      {"rv32i", "ilp32"},        {"rv32imac", "ilp32"},   {"rv32if", "ilp32f"},
      {"rv32imafc", "ilp32f"},   {"rv32ifd", "ilp32d"},   {"rv32g", "ilp32d"},
      {"rv32gc", "ilp32d"},      {"rv32e", "ilp32e"},     {"rv32ec", "ilp32e"},
      {"rv32ef", "ilp32e"},      {"rv32izfinx", "ilp32"}, {"rv32izdinx", "ilp32"},
      {"rv32imafdq", "ilp32d"},  {"rv64i", "lp64"},       {"rv64imac", "lp64"},
      {"rv64if", "lp64f"},       {"rv64imafc", "lp64f"},  {"rv64ifd", "lp64d"},
      {"rv64g", "lp64d"},        {"rv64gc", "lp64d"},     {"rv64gq", "lp64d"},
      {"rv64e", "lp64e"},        {"rv64emac", "lp64e"},   {"rv64i_zve32f", "lp64f"},
      {"rv64i_zve64d", "lp64d"}, {"rv64izfinx", "lp64"},
  };
  for (const auto& [march, abi] : rows)
    EXPECT_EQ(RiscvISAInfo::parse(march).defaultAbi(), abi) << march;
}

TEST(RiscvIsa, CanonicalOrderIsIndependentOfInputOrder) {
  // Every order of these tokens (single letters, z/s/x names with and without versions) gives
  // the same canonical string.
  std::vector<std::string> tokens = {"m",        "a2p1",    "zba",    "zbb1p0",
                                     "xtheadba", "svinval", "zicond", "c"};
  std::sort(tokens.begin(), tokens.end());
  std::string expected;
  size_t permutations = 0;
  do {
    std::string march = "rv64i";
    for (const std::string& t : tokens) march += "_" + t;
    std::string got = RiscvISAInfo::parse(march).toString();
    if (expected.empty()) expected = got;
    ASSERT_EQ(got, expected) << march;
    ++permutations;
  } while (std::next_permutation(tokens.begin(), tokens.end()));
  EXPECT_EQ(permutations, 40320u);
  EXPECT_EQ(expected, "rv64i2p1_m2p0_a2p1_c2p0_zicond1p0_zmmul1p0_zaamo1p0_zalrsc1p0_zba1p0_"
                      "zbb1p0_svinval1p0_xtheadba1p0");
}

TEST(RiscvIsa, CanonicalOrderFollowsLlvmRanks) {
  // [isatest] OrderedExtensionMap: "i m l c y zicsr zmfoo zfinx zzfoo sbar sfoo xbar xfoo".
  // With known names: z* by the rank of their second letter (i e m a f d q l c b k j t p v n
  // h), then s* and x* lexicographically.
  RiscvISAInfo isa = RiscvISAInfo::parse(
      "rv64i_zvkt_zknh_zbb_zca_zfa_zaamo_zmmul_zicsr_ztso_h_v_b_q_c_sstc_smaia_xcvalu_xcvbi");
  std::vector<std::string> names;
  for (const auto& e : isa.extensions()) names.push_back(e.name);
  auto pos = [&](const std::string& n) {
    auto it = std::find(names.begin(), names.end(), n);
    EXPECT_NE(it, names.end()) << n;
    return it - names.begin();
  };
  const char* order[] = {"i",    "f",     "d",     "q",     "c",    "b",      "v",
                         "h",    "zicsr", "zmmul", "zaamo", "zfa",  "zca",    "zbb",
                         "zknh", "ztso",  "zvkt",  "smaia", "sstc", "xcvalu", "xcvbi"};
  for (size_t i = 1; i < std::size(order); ++i)
    EXPECT_LT(pos(order[i - 1]), pos(order[i])) << order[i - 1] << " before " << order[i];
}

TEST(RiscvIsa, KnownExtensionTableIsConsistent) {
  auto table = RiscvISAInfo::knownExtensions();
  ASSERT_GT(table.size(), 150u);
  std::set<std::string> names;
  for (size_t i = 0; i < table.size(); ++i) {
    names.insert(std::string(table[i].name));
    if (i) {
      EXPECT_LT(table[i - 1].name, table[i].name) << "table not sorted at " << table[i].name;
    }
    char c = table[i].name[0];
    EXPECT_TRUE(table[i].name.size() == 1 || c == 'z' || c == 's' || c == 'x') << table[i].name;
  }
  for (const auto& e : table) {
    size_t p = 0;
    std::string_view imp = e.implies;
    while (p < imp.size()) {
      size_t q = imp.find(' ', p);
      if (q == std::string_view::npos) q = imp.size();
      EXPECT_TRUE(names.count(std::string(imp.substr(p, q - p))))
          << e.name << " implies unknown " << imp.substr(p, q - p);
      p = q + 1;
    }
  }
  for (const char* snitch : {"xssr", "xfrep", "xdma"}) EXPECT_TRUE(names.count(snitch));
}

// Every known extension parses alone (with its exact version when experimental) and its
// closure is a fixpoint: everything any present extension implies is present.
TEST(RiscvIsa, EveryExtensionParsesAndClosureIsComplete) {
  auto table = RiscvISAInfo::knownExtensions();
  size_t parsed = 0;
  for (const auto& e : table) {
    if (e.name == "i" || e.name == "e") continue;
    for (unsigned xlen : {32u, 64u}) {
      if (e.rv32_only && xlen == 64) continue;
      std::string name(e.name);
      std::string march = "rv" + std::to_string(xlen) + "i_" + name;
      if (e.experimental) march += std::to_string(e.major) + "p" + std::to_string(e.minor);
      if (name.rfind("zvl", 0) == 0) march += "_zve32x";
      if (name == "zacas" || name == "zabha") march += "_zaamo";
      try {
        RiscvISAInfo isa = RiscvISAInfo::parse(march);
        ++parsed;
        EXPECT_TRUE(isa.has(name)) << march;
        for (const auto& present : isa.extensions()) {
          auto it = std::find_if(table.begin(), table.end(),
                                 [&](const auto& k) { return k.name == present.name; });
          ASSERT_NE(it, table.end()) << present.name;
          EXPECT_EQ(present.major, it->major) << present.name;
          EXPECT_EQ(present.minor, it->minor) << present.name;
          std::string_view imp = it->implies;
          size_t p = 0;
          while (p < imp.size()) {
            size_t q = imp.find(' ', p);
            if (q == std::string_view::npos) q = imp.size();
            EXPECT_TRUE(isa.has(imp.substr(p, q - p)))
                << march << ": " << present.name << " implies " << imp.substr(p, q - p);
            p = q + 1;
          }
        }
      } catch (const Error& err) {
        ADD_FAILURE() << march << ": " << err.message();
      }
    }
  }
  EXPECT_GT(parsed, 300u);
}

TEST(RiscvIsa, HostileInputsDoNotCrash) {
  // Long, repetitive and boundary inputs: each either parses or throws abikit::Error.
  std::vector<std::string> inputs = {std::string(10000, 'z'),
                                     "rv64i" + std::string(5000, 'm'),
                                     "rv64i" + std::string(5000, '_'),
                                     "rv32i" + std::string(3000, '9'),
                                     "rv64gzvl",
                                     "rv64i_zvl99999999999999999999b",
                                     "rv32i_x_",
                                     "rv32e_",
                                     "rv64i_zp",
                                     "rv64ip",
                                     "rv64i0p",
                                     "rv64ip0"};
  std::string many = "rv64i";
  for (const auto& e : RiscvISAInfo::knownExtensions())
    if (e.name.size() > 1 && !e.experimental) many += "_" + std::string(e.name);
  inputs.push_back(many);
  for (const std::string& s : inputs) {
    try {
      RiscvISAInfo::parse(s);
    } catch (const Error& e) {
      EXPECT_LE(e.optionIndex(), s.size()) << s.substr(0, 40);
    }
  }
}

} // namespace
