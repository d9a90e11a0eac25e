#!/usr/bin/env bash
# Writes generated seed inputs for one fuzzer into a directory: deep nesting and large counts,
# each input at most 64 KB, made at run time instead of checked in (scripts/fuzz.sh calls this).
# Usage: scripts/fuzz-seeds.sh NAME DIR   (NAME: cparse, callconv_dpu_ipu, cli, target,
# dwarf_cfi; others get no generated seeds)
set -euo pipefail
name=$1
dir=$2
mkdir -p "$dir"
command -v python3 >/dev/null || exit 0 # the checked-in corpus still seeds the run
python3 - "$name" "$dir" <<'EOF'
import os, sys

name, out = sys.argv[1], sys.argv[2]
LIMIT = 64 * 1024

def put(fname, data):
    if isinstance(data, str):
        data = data.encode("latin-1")
    assert len(data) <= LIMIT, (fname, len(data))
    with open(os.path.join(out, "gen_" + fname), "wb") as f:
        f.write(data)

# C text with deep nesting and large counts; `n` is chosen around and past the front-end's
# nesting limits so that both the accepted and the rejected side are reached.
def c_seeds():
    s = {}
    for n in (200, 2000):
        s[f"parens_{n}"] = "int x[" + "(" * n + "1" + ")" * n + "];\n"
        s[f"typeof_{n}"] = "typeof(" * n + "int" + ")" * n + " v;\n"
        s[f"gnu_typeof_{n}"] = "__typeof__(" * n + "char" + ")" * n + " v;\n"
        s[f"alignas_{n}"] = ("struct S { " + "_Alignas(" * n + "_Alignof(int)" + ")" * n +
                             " int a; };\n")
        s[f"alignof_{n}"] = "int a[" + "_Alignof(" * n + "int" + ")" * n + "];\n"
        s[f"structs_{n}"] = "".join(f"struct s{i} {{ int a{i}; " for i in range(n)) + \
            "int x; " + "}; " * n + "\n"
        s[f"anon_{n}"] = "struct t { " + "struct { " * n + "int x;" + " };" * n + " };\n"
        s[f"pointers_{n}"] = "int " + "*" * n + "p;\n"
        s[f"declarator_{n}"] = "int " + "(*" * n + "f" + ")" * n + "(void);\n"
        s[f"arrays_{n}"] = "int a" + "[2]" * n + ";\n"
        s[f"params_{n}"] = "void f(" + "void (*)(" * n + "int" + ")" * n + ");\n"
        s[f"macro_{n}"] = "#define F(x) (x)\nint v[" + "F(" * n + "1" + ")" * n + "];\n"
        s[f"if_{n}"] = "#if 1\n" * n + "int ok;\n" + "#endif\n" * n
        s[f"ifexpr_{n}"] = "#if " + "(" * n + "1" + ")" * n + "\nint ok;\n#endif\n"
        s[f"unary_{n}"] = "int a[" + "-" * n + "1 + 3];\n" + "int b[" + "!" * n + "0];\n"
        s[f"attr_{n}"] = "struct __attribute__((" + "aligned(" * n + "8" + ")" * n + ")) A;\n"
    s["macro_chain"] = "".join(f"#define M{i} M{i + 1}\n" for i in range(1500)) + \
        "#define M1500 int\nM0 z;\n"
    s["line_directives"] = "".join(f'#line {i * 7 + 1} "f{i % 13}.h"\n' for i in range(3000)) + \
        "struct L { int a; };\n"
    s["many_members"] = "struct M {\n" + "".join(f" int m{i};\n" for i in range(5000)) + "};\n"
    s["many_bitfields"] = "struct B {\n" + "".join(f" unsigned b{i} : {i % 31 + 1};\n"
                                                    for i in range(4000)) + "};\n"
    s["many_enumerators"] = "enum E {" + ",".join(f"e{i} = {i * 3}" for i in range(5000)) + "};\n"
    s["many_params"] = "int f(" + ", ".join(f"long p{i}" for i in range(5000)) + ");\n"
    s["many_records"] = "".join(f"struct r{i} {{ char c; double d; }};\n" for i in range(2000))
    s["large_counts"] = ("struct Big { char a[0x7fffffff]; char b[0x7fffffff]; };\n"
                         "struct Huge { int a[0x10000000][0x10000000]; };\n"
                         "typedef char T[9223372036854775807];\n"
                         "struct W { unsigned long long x : 64; int y : 0; } w;\n"
                         "enum { Z = 18446744073709551615ULL, Y = -9223372036854775807 - 1 };\n")
    s["long_identifier"] = "int " + "a" * 60000 + ";\n"
    s["long_string_macro"] = "#define S \"" + "x" * 60000 + "\"\n"
    s["many_macros"] = "".join(f"#define D{i}(a, b) ((a) + (b) * {i})\n" for i in range(1500)) + \
        "int v[D1499(1, 2)];\n"
    return {k: v for k, v in s.items() if len(v) <= LIMIT - 1}

if name == "cparse":
    for i, (k, v) in enumerate(sorted(c_seeds().items())):
        put(k, bytes([i % 8]) + v.encode())
elif name == "callconv_dpu_ipu":
    fns = "".join(f"struct s{i} {{ char c[{i % 17}]; int x; }};\n"
                  f"struct s{i} f{i}(struct s{i} a, ...);\n" for i in range(400))
    put("many_functions", b"\x00" + fns.encode())
    put("many_functions_ipu", b"\x03" + fns.encode())
    put("params", b"\x01" + ("int f(" + ", ".join(f"double p{i}" for i in range(3000)) +
                              ", ...);\n").encode())
    put("nested", b"\x02" + ("struct a " + "{ struct " * 150 + "{ int x; } y;" + " } y;" * 150 +
                              ";\nstruct a g(struct a v);\n").encode())
elif name == "target":
    exts = ["zba", "zbb", "zbc", "zbs", "zicsr", "zifencei", "zfh", "zvl1024b", "zve64d",
            "xtheadba", "svinval", "zk", "zkn", "zks", "zmmul", "zicbom", "zihintpause"]
    march = "rv64imafdcv_" + "_".join(exts * 60)
    put("march_long", "riscv64-unknown-elf\n" + march + "\nlp64d\n\nmedany\n\x00")
    put("march_versions", "riscv32-unknown-elf\nrv32i" + "2p999999999999999999" +
        "m99p99" * 300 + "\nilp32\n\n\n\x00")
    put("triple_long", "riscv64" + "-unknown" * 500 + "-elf\n\n\n\n\n\x00")
    put("mcpu_long", "amdgcn-amd-amdhsa\n\n\ngfx90a" + ":xnack+:sramecc-" * 200 + "\n\n\x04")
elif name == "cli":
    W = lambda *words: "\0".join(words)
    C = c_seeds()
    seeds = {
        "targets": W("targets", "--json"),
        "describe": W("describe", "--target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "--json"),
        "describe_dpu": W("describe", "--target=dpu-upmem-dpurte", "--abi-variant=documented"),
        "layout": W("layout", "@", "--target", "riscv64-unknown-elf", "--json") +
        "\x01struct S { char c; int i : 3; double d; };\n",
        "layout_asserts": W("layout", "@", "--target", "riscv32-unknown-elf", "-march=rv32imafdc",
                            "--emit-c-asserts", "-DX=1", "-UY", "--record", "S") +
        "\x01#ifdef X\nstruct S { long long x; };\n#endif\n",
        "call": W("call", "@", "--target", "riscv64-unknown-linux-gnu", "-mabi=lp64d", "--json",
                  "--variadic-args", "int,double,struct S,long double", "--function", "f") +
        "\x01struct S { float a, b; };\nint f(int, ...);\n",
        "call_ipu": W("call", "--target", "colossus-graphcore-elf", "-mcpu=ipu2", "-msupervisor") +
        "\x01long long g(long long a, float b);\n",
        "ptx": W("ptx", "--target", "nvptx64-nvidia-cuda", "-mcpu=sm_70", "--module",
                 "-mptx-style=ptxas") + "\x01__global__ void k(int *p, float f) {}\n",
        "kernarg": W("kernarg", "--target", "amdgcn-amd-amdhsa", "-mcpu=gfx906",
                     "-mcode-object-version=4", "-mhidden-args=all", "-x", "cl", "--yaml") +
        "\x01__kernel void k(__global int *a, int b) {}\n",
        "kernarg_hip": W("kernarg", "@", "--target=amdgcn-amd-amdhsa", "-x", "hip", "--json",
                         "--kernel", "k") + "\x01__global__ void k(int *a, double d) {}\n",
        "link_check": W("link-check", "@", "@") + "\x01\x7fELF\x01\x01\x01",
    }
    # ELF objects from the checked-in ELF corpus, through `elf` and `link-check`.
    if os.path.isdir("tests/fuzz/corpus/elf"):
        for f in sorted(os.listdir("tests/fuzz/corpus/elf"))[:8]:
            data = open(os.path.join("tests/fuzz/corpus/elf", f), "rb").read()
            if len(data) < 16000:
                put("elf_" + f, W("elf", "--json", "--symbols", "--relocs", "--notes").encode() +
                    b"\0@\x01" + data)
    for k in ("parens_200", "typeof_200", "structs_200", "macro_chain", "many_members",
              "line_directives"):
        if k in C and len(C[k]) < 15000:
            seeds["layout_" + k] = W("layout", "--target", "riscv64-unknown-elf", "--json") + \
                "\x01" + C[k]
    seeds["variadic_many"] = W("call", "@", "--target", "riscv32-unknown-elf", "--variadic-args",
                               ",".join(["struct S"] * 1000)) + "\x01struct S { int a; };\nint f(int, ...);\n"
    seeds["defines_many"] = "\0".join(["layout", "@", "--target", "riscv32-unknown-elf"] +
                                      [f"-DM{i}=M{i + 1}" for i in range(60)]) + "\x01M0 x;\n"
    for k, v in seeds.items():
        put(k, v)
elif name == "dwarf_cfi":
    # .debug_frame sections (first byte 0x00: little-endian, address size 8) at the limits:
    # remember_state nested past the bound, many columns then many rows, many FDEs of one CIE.
    import struct
    def entry(body):
        return struct.pack("<I", len(body)) + body
    def uleb(v):
        out = b""
        while True:
            b, v = v & 0x7f, v >> 7
            out += bytes([b | (0x80 if v else 0)])
            if not v:
                return out
    def cie(insns=b""):
        return entry(b"\xff\xff\xff\xff\x04\x00\x08\x00\x01\x78\x01\x0c\x02\x00" + insns)
    def fde(insns, start=0x1000):
        return entry(struct.pack("<IQQ", 0, start, 0x100000) + insns)
    put("remember_deep", b"\x00" + cie() + fde(b"\x0a" * 1100 + b"\x0b" * 1100))
    rules = b"".join(b"\x05" + uleb(64 + i) + b"\x01" for i in range(500))
    put("columns_rows", b"\x00" + cie() + fde(rules + b"\x41" * 1500))
    put("many_fdes", b"\x00" + cie(b"".join(b"\x05" + uleb(64 + i) + b"\x01" for i in range(300)))
        + b"".join(fde(b"\x41\x0e\x10", 0x1000 * i) for i in range(80)))
EOF
