// The front-end's built-in headers (generated per target from its data model) and realistic
// headers in the style of Linux UAPI. Expected numbers are clang-14's (for the targets clang
// knows: `clang-14 --target=... -ffreestanding` with its own headers) and the vendor compilers'
// documented data models for DPU and IPU (reference/dpu.md, reference/ipu.md).
#include "test_cparse_util.h"

using namespace abikit;
using namespace abikit::cparse_test;

namespace {

struct HeaderFacts {
  const char* triple;
  uint64_t max_align_size, max_align_align, va_list_size, wchar_size, intptr_size;
  bool int64_is_long, intptr_is_long, size_is_ulong;
  uint64_t long_max_bits; // LONG_MAX == 2^bits - 1
};

const HeaderFacts kFacts[] = {
    {"riscv64-unknown-elf", 32, 16, 8, 4, 8, true, true, true, 63},
    {"riscv32-unknown-elf", 32, 16, 4, 4, 4, false, false, false, 31},
    {"nvptx64-nvidia-cuda", 16, 8, 8, 4, 8, false, true, true, 63},
    {"nvptx-nvidia-cuda", 16, 8, 4, 4, 4, false, false, false, 31},
    {"amdgcn-amd-amdhsa", 16, 8, 8, 4, 8, false, true, true, 63},
    // DPU: clang's defaults for intptr_t (long, 8 bytes) and a 1-byte wchar_t.
    {"dpu-upmem-dpurte", 16, 8, 4, 1, 8, false, true, false, 63},
    {"colossus-graphcore-elf", 16, 8, 4, 4, 4, false, false, false, 31},
};

constexpr const char* kProbe = R"C(
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <limits.h>
#include <stdbool.h>
#include <stdalign.h>
#include <inttypes.h>
#include <uchar.h>
#include <float.h>
#include <iso646.h>
struct R {
  char max_size[sizeof(max_align_t)];
  char max_align[alignof(max_align_t)];
  char va[sizeof(va_list)];
  char w[sizeof(wchar_t)];
  char ip[sizeof(intptr_t)];
  char i64[_Generic((int64_t)0, long: 2, default: 1)];
  char ipl[_Generic((intptr_t)0, long: 2, default: 1)];
  char szl[_Generic((size_t)0, unsigned long: 2, default: 1)];
  char lmax[LONG_MAX == 0x7fffffff ? 31 : LONG_MAX == 0x7fffffffffffffff ? 63 : 1];
  char bits[CHAR_BIT];
  char b[sizeof(bool) + true];
  char c16[sizeof(char16_t) + sizeof(char32_t)];
  char u8[sizeof(uint8_t) + sizeof(int_least16_t) + sizeof(uint_fast32_t) + sizeof(uintmax_t)];
  char lit[sizeof(INT64_C(1)) + sizeof(UINT32_C(1))];
  char off[offsetof(struct { char c; int x; }, x)];
  char null[sizeof(NULL)];
  char ok[UINT8_MAX == 255 && INT16_MIN == -32768 && SIZE_MAX > 0 && (1 and 1) && FLT_RADIX == 2];
};
)C";

} // namespace

TEST(CParseHeaders, BuiltinHeadersFollowTheTarget) {
  for (const HeaderFacts& f : kFacts) {
    SCOPED_TRACE(f.triple);
    Parsed p = parse(kProbe, f.triple);
    auto n = [&](const char* field) { return dyn<ArrayType>(p.field("R", field)->type)->count; };
    EXPECT_EQ(n("max_size"), f.max_align_size);
    EXPECT_EQ(n("max_align"), f.max_align_align);
    EXPECT_EQ(n("va"), f.va_list_size);
    EXPECT_EQ(n("w"), f.wchar_size);
    EXPECT_EQ(n("ip"), f.intptr_size);
    EXPECT_EQ(n("i64"), f.int64_is_long ? 2u : 1u);
    EXPECT_EQ(n("ipl"), f.intptr_is_long ? 2u : 1u);
    EXPECT_EQ(n("szl"), f.size_is_ulong ? 2u : 1u);
    EXPECT_EQ(n("lmax"), f.long_max_bits);
    EXPECT_EQ(n("bits"), 8u);
    EXPECT_EQ(n("b"), 2u);
    EXPECT_EQ(n("c16"), 6u);
    EXPECT_EQ(n("u8"), 1u + 2 + 4 + 8);
    EXPECT_EQ(n("lit"), 8u + 4);
    EXPECT_EQ(n("off"), 4u);
    EXPECT_EQ(n("null"), p.ctx->data().pointer.size);
    EXPECT_EQ(n("ok"), 1u);
    // Built-in typedefs are not part of the translation unit.
    EXPECT_TRUE(p.tu.typedefs.empty());
    ASSERT_EQ(p.tu.records.size(), 1u);
  }
}

TEST(CParseHeaders, TargetProvidedHeaders) {
  Parsed p = parse("#include <ipudef.h>\nstruct S { half h; half4 v; float2 f; };\n",
                   "colossus-graphcore-elf");
  EXPECT_EQ(p.fieldType("S", "h"), "half");
  EXPECT_EQ(p.sizeOf("S"), 24u);
  EXPECT_EQ(errorLine("#include <ipudef.h>\n"), "test.h:1:10: error: 'ipudef.h' file not found");
}

TEST(CParseHeaders, StdintTypedefsAreSpelledByName) {
  Parsed p = parse("#include <stdint.h>\nstruct S { uint32_t a; int64_t b; uintptr_t c; };\n");
  EXPECT_EQ(p.fieldType("S", "a"), "uint32_t");
  EXPECT_EQ(typeName(stripTypedefs(p.field("S", "b")->type), *p.ctx), "long");
  Parsed p32 = parse("#include <stdint.h>\nstruct S { int64_t b; };\n", "riscv32-unknown-elf");
  EXPECT_EQ(typeName(stripTypedefs(p32.field("S", "b")->type), *p32.ctx), "long long");
}

// ----- realistic headers ----------------------------------------------------------------------

namespace {

// In the style of a Linux UAPI header: __u32/__le32 typedefs, __KERNEL__ guards, packed
// structs, unions of structs, endian-dependent bit-fields, ioctl numbers computed from sizeof,
// __DECLARE_FLEX_ARRAY and flexible arrays.
constexpr const char* kUapiDevice =
    R"C(/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_MYDEV_H
#define _UAPI_LINUX_MYDEV_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
__extension__ typedef unsigned long long __u64;
#define __bitwise
typedef __u16 __bitwise __le16;
typedef __u32 __bitwise __le32;
#define __aligned_u64 __u64 __attribute__((aligned(8)))
#define __user
#define __packed __attribute__((packed))

#ifdef __KERNEL__
#include <linux/kernel_only.h>
#endif

#define __DECLARE_FLEX_ARRAY(TYPE, NAME) \
	struct { \
		struct { } __empty_ ## NAME; \
		TYPE NAME[]; \
	}

#define _IOC_NRBITS	8
#define _IOC_TYPEBITS	8
#define _IOC_SIZEBITS	14
#define _IOC_NRSHIFT	0
#define _IOC_TYPESHIFT	(_IOC_NRSHIFT+_IOC_NRBITS)
#define _IOC_SIZESHIFT	(_IOC_TYPESHIFT+_IOC_TYPEBITS)
#define _IOC_DIRSHIFT	(_IOC_SIZESHIFT+_IOC_SIZEBITS)
#define _IOC_WRITE	1U
#define _IOC_READ	2U
#define _IOC(dir,type,nr,size) \
	(((dir)  << _IOC_DIRSHIFT) | ((type) << _IOC_TYPESHIFT) | \
	 ((nr)   << _IOC_NRSHIFT) | ((size) << _IOC_SIZESHIFT))
#define _IOW(type,nr,size)	_IOC(_IOC_WRITE,(type),(nr),(sizeof(size)))
#define _IOWR(type,nr,size)	_IOC(_IOC_READ|_IOC_WRITE,(type),(nr),(sizeof(size)))

enum mydev_state {
	MYDEV_STATE_IDLE = 0,
	MYDEV_STATE_RUNNING,
	MYDEV_STATE_ERROR = 0x80,
};

struct mydev_hdr {
	__le16 magic;
	__u8 version;
	__u8 flags;
	__le32 length;
} __packed;

struct mydev_desc {
	__aligned_u64 addr;
	__u32 len;
	__u16 id;
	__u8 type;
#if defined(__LITTLE_ENDIAN_BITFIELD) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__u8 ihl:4,
	     version:4;
#else
	__u8 version:4,
	     ihl:4;
#endif
};

struct mydev_cmd {
	__u32 opcode;
	union {
		struct {
			__u64 lba;
			__u32 count;
		} rw;
		struct {
			__u8 page;
			__u8 subpage;
			__u16 reserved;
		} identify;
		__u32 raw[4];
	};
	struct mydev_hdr hdr;
	void __user *buf;
	__DECLARE_FLEX_ARRAY(struct mydev_desc, descs);
};

struct mydev_event {
	__u32 type;
	__u32 size;
	__u8 data[];
};

#define MYDEV_IOC_MAGIC 'M'
#define MYDEV_IOC_SUBMIT _IOWR(MYDEV_IOC_MAGIC, 1, struct mydev_cmd)
#define MYDEV_IOC_RESET  _IOW(MYDEV_IOC_MAGIC, 2, __u32)

struct mydev_ioctl_table {
	__u32 cmds[2];
	char pad[MYDEV_IOC_RESET & 0xff];
	enum mydev_state state;
};

#endif /* _UAPI_LINUX_MYDEV_H */
)C";

// In the style of a networking UAPI header: nested unions of structs, arrays of structs, a
// big-endian bit-field variant, and a header included twice through its guard.
constexpr const char* kUapiNet = R"C(
#ifndef _UAPI_MYNET_H
#define _UAPI_MYNET_H
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef __u16 __be16;
typedef __u32 __be32;
#define MYNET_ALEN 6
struct mynet_addr {
	union {
		__u8 u6_addr8[16];
		__be16 u6_addr16[8];
		__be32 u6_addr32[4];
	} in6_u;
};
struct mynet_ethhdr {
	unsigned char h_dest[MYNET_ALEN];
	unsigned char h_source[MYNET_ALEN];
	__be16 h_proto;
} __attribute__((packed));
struct mynet_iphdr {
#if defined(__BIG_ENDIAN__)
	__u8 version:4, ihl:4;
#else
	__u8 ihl:4, version:4;
#endif
	__u8 tos;
	__be16 tot_len;
	__be32 saddr, daddr;
	struct mynet_addr extra[2];
};
#include "self"
#endif
)C";

} // namespace

TEST(CParseHeaders, LinuxUapiStyleDevice) {
  // Checked against clang-14 for riscv64 and riscv32.
  Parsed p = parse(kUapiDevice);
  EXPECT_EQ(p.sizeOf("mydev_hdr"), 8u);
  EXPECT_EQ(p.alignOf("mydev_hdr"), 1u);
  EXPECT_EQ(p.offsetOf("mydev_hdr", "length"), 4u);
  EXPECT_EQ(p.sizeOf("mydev_desc"), 16u);
  EXPECT_EQ(p.alignOf("mydev_desc"), 8u);
  EXPECT_EQ(p.field("mydev_desc", "addr")->aligned, 8u);
  EXPECT_EQ(p.field("mydev_desc", "ihl")->bit_width, 4);
  EXPECT_EQ(p.sizeOf("mydev_cmd"), 40u);
  EXPECT_EQ(p.offsetOf("mydev_cmd", "rw"), 8u);
  EXPECT_EQ(p.offsetOf("mydev_cmd", "hdr"), 24u);
  EXPECT_EQ(p.offsetOf("mydev_cmd", "buf"), 32u);
  EXPECT_EQ(p.offsetOf("mydev_cmd", "descs"), 40u);
  EXPECT_EQ(p.sizeOf("mydev_event"), 8u);
  EXPECT_EQ(p.sizeOf("mydev_ioctl_table"), 16u);
  EXPECT_EQ(p.fieldType("mydev_ioctl_table", "pad"), "char[2]");
  EXPECT_EQ(typeName(p.enumNamed("mydev_state")->underlying, *p.ctx), "unsigned int");
  std::vector<std::string> names;
  for (const RecordDecl* rd : p.tu.records) names.push_back(rd->displayName(*p.ctx));
  EXPECT_EQ(names,
            (std::vector<std::string>{"struct mydev_hdr", "struct mydev_desc", "struct mydev_cmd",
                                      "struct mydev_event", "struct mydev_ioctl_table"}));
  Parsed p32 = parse(kUapiDevice, "riscv32-unknown-elf");
  EXPECT_EQ(p32.sizeOf("mydev_cmd"), 40u);
  EXPECT_EQ(p32.offsetOf("mydev_cmd", "buf"), 32u);
  EXPECT_EQ(p32.offsetOf("mydev_cmd", "descs"), 40u);
}

TEST(CParseHeaders, LinuxUapiStyleDeviceWithKernelDefined) {
  ParseOptions o;
  o.defines = {{"__KERNEL__", std::nullopt}};
  EXPECT_EQ(errorLine(kUapiDevice, "riscv64-unknown-elf", Language::C, o),
            "test.h:17:10: error: 'linux/kernel_only.h' file not found");
}

TEST(CParseHeaders, LinuxUapiStyleNetworkingIncludedTwice) {
  TempDir dir;
  std::string text = kUapiNet;
  text.replace(text.find("#include \"self\""), 15, "#include \"net.h\"");
  std::string path = dir.write("net.h", text);
  Target t = targetFor("riscv64-unknown-elf");
  TypeContext ctx(t, Language::C);
  LayoutEngine layout(ctx);
  TranslationUnit tu = parseFile(ctx, layout, path, {});
  ASSERT_EQ(tu.records.size(), 3u);
  EXPECT_EQ(layout.of(*tu.findRecord("mynet_addr", ctx)).size, 16u);
  EXPECT_EQ(layout.of(*tu.findRecord("mynet_ethhdr", ctx)).size, 14u);
  const RecordDecl* ip = tu.findRecord("mynet_iphdr", ctx);
  EXPECT_EQ(layout.of(*ip).size, 44u);
  EXPECT_EQ(ip->fields[0].name, "ihl");
}
