#include "riscv_gdb.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace abikit::oracle {

namespace {

// The gdb side: connects, sets the breakpoints, and prints one JSON line per stop (marker
// "ABIKIT-GDB-STOP "), then {"end": why}. Its configuration is a JSON file named by
// $ABIKIT_GDB_CFG: remote, exe, breakpoints, max_stops, xlen, dump (a scratch file), stack_cap.
const char* const kGdbScript = R"PY(
# Captures machine state and variables at breakpoints (gdb-multiarch's Python 3).
import gdb, json, os, re, struct, time

with open(os.environ["ABIKIT_GDB_CFG"]) as _f:
    CFG = json.load(_f)
MARK = "ABIKIT-GDB-STOP "
XN = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3",
      "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
      "t3", "t4", "t5", "t6"]
FN = ["ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1",
      "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
      "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"]
DWARF = {n: i for i, n in enumerate(XN)}
DWARF.update({n: 32 + i for i, n in enumerate(FN)})
DWARF.update({"x%d" % i: i for i in range(32)})
DWARF.update({"f%d" % i: 32 + i for i in range(32)})
DWARF["s0"] = 8
DUMP = CFG["dump"]


def emit(obj):
    print(MARK + json.dumps(obj), flush=True)


def dump(v):
    """The value's bytes (gdb's own contents), or None when any part is unavailable."""
    gdb.set_convenience_variable("abk_v", v)
    try:
        gdb.execute("dump binary value %s $abk_v" % DUMP, to_string=True)
    except gdb.error:
        return None
    with open(DUMP, "rb") as f:
        return f.read()


def strip(t):
    return t.strip_typedefs()


def walk(v, off, buf, known, leaves):
    """Fills buf/known from v at byte offset off; counts leaves [known, unknown]."""
    t = strip(v.type)
    # gdb 13 says "<synthetic pointer>" for bytes that no DW_OP_piece covers (and for
    # DW_OP_implicit_pointer), and its contents have zeros there: such bytes are unknown.
    try:
        synthetic = "<synthetic pointer>" in v.format_string()
    except gdb.error:
        synthetic = False
    b = dump(v) if t.sizeof > 0 and not synthetic else None
    if b is not None and len(b) == t.sizeof:
        for i, c in enumerate(b):
            if off + i < len(buf):
                buf[off + i] = c
                known[off + i] = True
        leaves[0] += count_leaves(t)
        return
    code = t.code
    if code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        for fld in t.fields():
            if fld.is_base_class or not hasattr(fld, "bitpos"):
                continue
            if fld.bitsize:
                leaves[1] += 1
                continue
            try:
                walk(v[fld], off + fld.bitpos // 8, buf, known, leaves)
            except gdb.error:
                leaves[1] += count_leaves(fld.type)
        return
    if code == gdb.TYPE_CODE_ARRAY:
        lo, hi = t.range()
        et = strip(t.target())
        for i in range(lo, hi + 1):
            try:
                walk(v[i], off + (i - lo) * et.sizeof, buf, known, leaves)
            except gdb.error:
                leaves[1] += count_leaves(et)
        return
    leaves[1] += 1


def count_leaves(t):
    t = strip(t)
    if t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        return sum(count_leaves(f.type) for f in t.fields() if hasattr(f, "bitpos")) or 1
    if t.code == gdb.TYPE_CODE_ARRAY:
        lo, hi = t.range()
        return (hi - lo + 1) * count_leaves(t.target())
    return 1


def variable(sym, frame, depth):
    r = {"name": sym.name, "arg": bool(sym.is_argument), "line": sym.line, "depth": depth}
    try:
        t = sym.type
        r["type"] = str(t)
        size = strip(t).sizeof
        r["size"] = size
        v = sym.value(frame)
        try:
            v.fetch_lazy()
        except gdb.error:
            pass
        if v.address is not None:
            r["address"] = int(v.address)
        buf = bytearray(size)
        known = [False] * size
        leaves = [0, 0]
        walk(v, 0, buf, known, leaves)
        r["bytes"] = buf.hex()
        r["known"] = "".join("1" if k else "0" for k in known)
        if leaves[1] == 0:
            r["status"] = "value"
        elif leaves[0] == 0:
            r["status"] = "optimized_out"
        else:
            r["status"] = "partial"
        try:
            r["text"] = v.format_string()
        except gdb.error as e:
            r["text"] = "<" + str(e) + ">"
    except Exception as e:
        r["status"] = "error"
        r["message"] = str(e)
    return r


def read_mem(addr, size):
    return bytes(gdb.selected_inferior().read_memory(addr, size))


def writable_segments(path):
    """PT_LOAD segments with PF_W: [(vaddr, memsz)]."""
    with open(path, "rb") as f:
        h = f.read(64)
        is64 = h[4] == 2
        if is64:
            phoff, = struct.unpack_from("<Q", h, 32)
            phentsize, phnum = struct.unpack_from("<HH", h, 54)
        else:
            phoff, = struct.unpack_from("<I", h, 28)
            phentsize, phnum = struct.unpack_from("<HH", h, 42)
        f.seek(phoff)
        ph = f.read(phentsize * phnum)
    segs = []
    for i in range(phnum):
        e = ph[i * phentsize:(i + 1) * phentsize]
        if is64:
            typ, flags, _, vaddr, _, _, memsz = struct.unpack_from("<IIQQQQQ", e, 0)
        else:
            typ, _, vaddr, _, _, memsz, flags = struct.unpack_from("<IIIIIII", e, 0)
        if typ == 1 and flags & 2 and memsz:
            segs.append((vaddr, memsz))
    return segs


def memory(sp, segs):
    out = []
    start = max(sp - 512, 0)
    cap = start + CFG.get("stack_cap", 16384)
    a = start
    chunk = b""
    while a < cap:
        n = min((a | 4095) + 1, cap) - a
        try:
            chunk += read_mem(a, n)
        except gdb.error:
            break
        a += n
    if chunk:
        out.append([start, chunk.hex()])
    for vaddr, size in segs:
        try:
            out.append([vaddr, read_mem(vaddr, min(size, 1 << 20)).hex()])
        except gdb.error:
            pass
    return out


def registers(frame):
    names = set(r.name for r in frame.architecture().registers())
    xlen = CFG["xlen"]
    regs = []
    for i, n in enumerate(XN):
        if n not in names:
            continue
        v = int(frame.read_register(n)) & ((1 << (8 * xlen)) - 1)
        regs.append([i, v.to_bytes(xlen, "little").hex()])
    for i, n in enumerate(FN):
        if n not in names:
            continue
        b = dump(frame.read_register(n))
        if b is not None:
            regs.append([32 + i, b.hex()])
    return regs


def frame_info():
    text = gdb.execute("info frame", to_string=True)
    cfa = None
    m = re.search(r"frame at (0x[0-9a-fA-F]+)", text)
    if m:
        cfa = int(m.group(1), 16)
    saved = []
    m = re.search(r"Saved registers:\s*(.*)", text, re.S)
    if m:
        for name, addr in re.findall(r"(\w+) at (0x[0-9a-fA-F]+)", m.group(1)):
            if name in DWARF:
                saved.append([DWARF[name], int(addr, 16)])
    return cfa, saved


def capture(segs):
    frame = gdb.selected_frame()
    sal = frame.find_sal()
    r = {"pc": frame.pc(), "function": frame.name() or "", "line": sal.line if sal else 0}
    r["registers"] = registers(frame)
    sp = int(frame.read_register("sp")) & ((1 << (8 * CFG["xlen"])) - 1)
    r["memory"] = memory(sp, segs)
    r["cfa"], r["saved"] = frame_info()
    vars_ = []
    try:
        block = frame.block()
    except RuntimeError:
        block = None
    depth = 0
    while block is not None and not block.is_global and not block.is_static:
        for sym in block:
            if sym.is_argument or sym.is_variable:
                vars_.append(variable(sym, frame, depth))
        if block.function is not None:
            break
        block = block.superblock
        depth += 1
    r["variables"] = vars_
    return r


last_stop = [None]


def on_stop(ev):
    last_stop[0] = ev


def main():
    gdb.execute("set pagination off")
    try:
        gdb.execute("set debuginfod enabled off")
    except gdb.error:
        pass
    gdb.execute("set confirm off")
    gdb.execute("set print pretty off")
    gdb.execute("set width 0")
    gdb.execute("set breakpoint pending off")
    deadline = time.time() + 10
    while True:
        try:
            gdb.execute("target remote " + CFG["remote"], to_string=True)
            break
        except gdb.error as e:
            if time.time() > deadline:
                emit({"fatal": "cannot connect: " + str(e)})
                return
            time.sleep(0.05)
    segs = writable_segments(CFG["exe"])
    nbp = 0
    for spec in CFG["breakpoints"]:
        try:
            bp = gdb.Breakpoint(spec, internal=False)
            if bp.pending:  # the Python API makes one even with pending breakpoints off
                emit({"warning": "breakpoint %s: no location" % spec})
                bp.delete()
            else:
                nbp += 1
        except Exception as e:
            emit({"warning": "breakpoint %s: %s" % (spec, e)})
    if nbp == 0:
        emit({"fatal": "no breakpoint could be set"})
        return
    gdb.events.stop.connect(on_stop)
    stops = 0
    while stops < CFG["max_stops"]:
        last_stop[0] = None
        try:
            gdb.execute("continue", to_string=True)
        except gdb.error as e:
            emit({"end": "continue: " + str(e)})
            return
        ev = last_stop[0]
        if ev is None or not gdb.selected_inferior().threads():
            emit({"end": "exited"})
            return
        if not isinstance(ev, gdb.BreakpointEvent):
            sig = getattr(ev, "stop_signal", "?")
            emit({"end": "stopped by signal " + str(sig)})
            return
        try:
            emit({"stop": capture(segs)})
        except Exception as e:
            emit({"stop_error": str(e)})
        stops += 1
    emit({"end": "max_stops"})


try:
    main()
finally:
    try:
        gdb.execute("kill", to_string=True)
    except gdb.error:
        pass
)PY";

const char* const kMarker = "ABIKIT-GDB-STOP ";

using Clock = std::chrono::steady_clock;

/// A child in its own process group; killed with its group when the object dies.
class Child {
public:
  Child() = default;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() { kill(); }

  /// Starts argv with stdin from /dev/null, stdout/stderr to pipes (capture) or to `log`.
  bool start(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
             bool capture, const std::string& log, std::string& error) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (capture) {
      if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
        error = "pipe failed";
        posix_spawn_file_actions_destroy(&fa);
        return false;
      }
      posix_spawn_file_actions_adddup2(&fa, out[1], 1);
      posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    } else {
      posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      posix_spawn_file_actions_adddup2(&fa, 1, 2);
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> env_store(extra_env);
    for (char** e = environ; *e; ++e) env_store.emplace_back(*e);
    std::vector<char*> env;
    for (std::string& e : env_store) env.push_back(e.data());
    env.push_back(nullptr);
    int rc = posix_spawnp(&pid_, args[0], &fa, &attr, args.data(), env.data());
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    if (capture) {
      close(out[1]);
      close(err[1]);
      out_ = out[0];
      err_ = err[0];
    }
    if (rc != 0) {
      pid_ = -1;
      error = "cannot run " + argv[0] + ": " + std::strerror(rc);
      return false;
    }
    return true;
  }

  /// Reads the captured output until the child closes it or the deadline; false on timeout.
  bool collect(Clock::time_point deadline, std::string& out, std::string& err) {
    char buf[65536];
    while (out_ >= 0 || err_ >= 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return false;
      pollfd fds[2];
      int n = 0;
      int* fdp[2];
      std::string* dst[2];
      if (out_ >= 0) fds[n] = {out_, POLLIN, 0}, fdp[n] = &out_, dst[n++] = &out;
      if (err_ >= 0) fds[n] = {err_, POLLIN, 0}, fdp[n] = &err_, dst[n++] = &err;
      int r = poll(fds, nfds_t(n), int(std::min<int64_t>(left.count(), 1000)));
      if (r < 0 && errno != EINTR) return false;
      for (int i = 0; i < n && r > 0; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t got = read(*fdp[i], buf, sizeof buf);
        if (got > 0) {
          dst[i]->append(buf, size_t(got));
        } else if (got == 0 || errno != EINTR) {
          close(*fdp[i]);
          *fdp[i] = -1;
        }
      }
    }
    return true;
  }

  /// Waits for the exit until the deadline; true (and the status) if it exited.
  bool wait(Clock::time_point deadline, int* status = nullptr) {
    while (pid_ > 0) {
      int st = 0;
      pid_t r = waitpid(pid_, &st, WNOHANG);
      if (r == pid_ || (r < 0 && errno != EINTR)) {
        if (status) *status = st;
        pid_ = -1;
        break;
      }
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
  }

  bool running() {
    if (pid_ <= 0) return false;
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) pid_ = -1;
    return pid_ > 0;
  }

  void kill() {
    if (pid_ > 0) {
      ::kill(-pid_, SIGKILL);
      int st = 0;
      while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
      }
      pid_ = -1;
    }
    for (int* fd : {&out_, &err_})
      if (*fd >= 0) close(*fd), *fd = -1;
  }

private:
  pid_t pid_ = -1;
  int out_ = -1, err_ = -1;
};

std::vector<uint8_t> fromHex(const std::string& s) {
  std::vector<uint8_t> out;
  out.reserve(s.size() / 2);
  auto nib = [](char c) -> uint8_t {
    if (c >= '0' && c <= '9') return uint8_t(c - '0');
    if (c >= 'a' && c <= 'f') return uint8_t(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return uint8_t(c - 'A' + 10);
    return 0;
  };
  for (size_t i = 0; i + 1 < s.size(); i += 2)
    out.push_back(uint8_t(nib(s[i]) << 4 | nib(s[i + 1])));
  return out;
}

GdbVariable::Status parseStatus(const std::string& s) {
  if (s == "value") return GdbVariable::Status::Value;
  if (s == "optimized_out") return GdbVariable::Status::OptimizedOut;
  if (s == "partial") return GdbVariable::Status::Partial;
  return GdbVariable::Status::Error;
}

GdbStop parseStop(const nlohmann::json& j) {
  GdbStop s;
  s.pc = j.at("pc").get<uint64_t>();
  s.function = j.value("function", "");
  s.line = j.value("line", 0u);
  for (const auto& r : j.at("registers"))
    s.registers.emplace_back(r.at(0).get<uint32_t>(), fromHex(r.at(1).get<std::string>()));
  for (const auto& m : j.at("memory"))
    s.memory.emplace_back(m.at(0).get<uint64_t>(), fromHex(m.at(1).get<std::string>()));
  if (j.contains("cfa") && j["cfa"].is_number()) s.cfa = j["cfa"].get<uint64_t>();
  for (const auto& r : j.at("saved"))
    s.saved_registers.emplace_back(r.at(0).get<uint32_t>(), r.at(1).get<uint64_t>());
  for (const auto& v : j.at("variables")) {
    GdbVariable g;
    g.name = v.value("name", "");
    g.is_argument = v.value("arg", false);
    g.type = v.value("type", "");
    g.size = v.value("size", uint64_t(0));
    g.decl_line = v.value("line", 0u);
    g.depth = v.value("depth", 0u);
    g.status = parseStatus(v.value("status", "error"));
    g.value.bytes = fromHex(v.value("bytes", ""));
    for (char c : v.value("known", "")) g.value.known.push_back(c == '1');
    g.value.known.resize(g.value.bytes.size(), false);
    if (v.contains("address")) g.address = v["address"].get<uint64_t>();
    g.text = v.value("text", "");
    g.message = v.value("message", "");
    s.variables.push_back(std::move(g));
  }
  return s;
}

std::string lldFor(const std::string& compiler) {
  std::string version = compiler.substr(compiler.find('-') + 1);
  // lld-14 cannot link the R_RISCV_SET_ULEB128/SUB_ULEB128 relocations that newer clangs put
  // in .debug_loclists: a newer clang takes its own lld or the newest one there is.
  for (const std::string& name :
       {"ld.lld-" + version, std::string("ld.lld-22"), std::string("ld.lld-19")}) {
    if (version == "14" && name != "ld.lld-14") break;
    std::string p = findProgram(name);
    if (!p.empty()) return p;
  }
  return "";
}

bool isGcc(const std::string& compiler) {
  return compiler.rfind("gcc", 0) == 0;
}

std::string compilerPath(const std::string& compiler) {
  if (isGcc(compiler)) return findProgram("riscv64-unknown-elf-gcc");
  if (compiler.rfind("clang-", 0) == 0) return findProgram(compiler);
  return "";
}

/// A short fresh directory for the socket (a Unix socket path has at most 107 bytes).
std::string socketDir(const ScratchDir& dir) {
  if (dir.path().size() < 80) return dir.path();
  char tmpl[] = "/tmp/abkg-XXXXXX";
  return mkdtemp(tmpl) ? std::string(tmpl) : std::string();
}

bool isSocket(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

} // namespace

const char* statusName(GdbVariable::Status s) {
  switch (s) {
  case GdbVariable::Status::Value:
    return "value";
  case GdbVariable::Status::OptimizedOut:
    return "optimized-out";
  case GdbVariable::Status::Partial:
    return "partial";
  case GdbVariable::Status::Error:
    return "error";
  }
  return "?";
}

const std::vector<uint8_t>* GdbStop::reg(uint32_t dwarf) const {
  for (const auto& [n, b] : registers)
    if (n == dwarf) return &b;
  return nullptr;
}

bool GdbStop::readMemory(uint64_t addr, uint64_t size, std::vector<uint8_t>& out) const {
  for (const auto& [base, bytes] : memory) {
    if (addr >= base && addr - base <= bytes.size() && size <= bytes.size() - (addr - base)) {
      out.assign(bytes.begin() + std::ptrdiff_t(addr - base),
                 bytes.begin() + std::ptrdiff_t(addr - base + size));
      return true;
    }
  }
  return false;
}

bool riscvToolchainAvailable(const RiscvBuild& b) {
  if (compilerPath(b.compiler).empty()) return false;
  return isGcc(b.compiler) || !lldFor(b.compiler).empty();
}

bool riscvGdbAvailable() {
  return !findProgram("gdb-multiarch").empty() && !findProgram("qemu-riscv64").empty() &&
         !findProgram("qemu-riscv32").empty();
}

std::string buildRiscvProgram(const ScratchDir& dir, const std::string& source, const RiscvBuild& b,
                              std::string& error) {
  std::string cc = compilerPath(b.compiler);
  if (cc.empty()) {
    error = "missing compiler " + b.compiler;
    return "";
  }
  std::string src = dir.file(b.source_name);
  dir.write(b.source_name, source);
  std::string exe =
      dir.file(b.compiler + (b.rv32 ? "-rv32" : "-rv64") + b.opt + (b.object_only ? ".o" : ".elf"));
  std::vector<std::string> argv = {cc};
  if (!isGcc(b.compiler)) {
    std::string lld = lldFor(b.compiler);
    if (lld.empty()) {
      error = "missing ld.lld for " + b.compiler;
      return "";
    }
    argv.push_back(b.rv32 ? "--target=riscv32-unknown-linux-gnu"
                          : "--target=riscv64-unknown-linux-gnu");
    argv.push_back("-fuse-ld=lld");
    argv.push_back("--ld-path=" + lld);
  }
  for (const std::string& a :
       {"-march=" + b.archName(), "-mabi=" + b.abiName(), b.opt, std::string("-g"),
        std::string("-ffreestanding"), std::string("-nostdlib"), std::string("-static"),
        std::string("-fno-stack-protector"), std::string("-fno-pic")})
    argv.push_back(a);
  for (const std::string& f : b.extra_flags) argv.push_back(f);
  if (b.object_only) argv.push_back("-c");
  argv.insert(argv.end(), {"-o", exe, src});
  if (isGcc(b.compiler) && !b.object_only) argv.push_back("-lgcc");
  RunResult r = run(argv);
  if (r.exit_code != 0) {
    error = b.compiler + " failed (" + std::to_string(r.exit_code) + "): " + r.err;
    return "";
  }
  return exe;
}

std::vector<GdbStop> runUnderGdb(const std::string& executable, bool rv32,
                                 const std::vector<std::string>& breakpoints, unsigned max_stops,
                                 std::string& error, const GdbRunOptions& options,
                                 std::vector<std::string>* warnings) {
  std::vector<GdbStop> stops;
  std::string gdb = findProgram("gdb-multiarch");
  std::string qemu = findProgram(rv32 ? "qemu-riscv32" : "qemu-riscv64");
  if (gdb.empty() || qemu.empty()) {
    error = "missing gdb-multiarch or qemu-user";
    return stops;
  }
  ScratchDir dir;
  std::string sock_dir = socketDir(dir);
  if (sock_dir.empty()) {
    error = "no directory for the gdb socket";
    return stops;
  }
  std::string sock = sock_dir + "/gdb.sock";
  struct SocketDirGuard {
    std::string path, owned;
    ~SocketDirGuard() {
      unlink(path.c_str());
      if (!owned.empty()) rmdir(owned.c_str());
    }
  } guard{sock, sock_dir == dir.path() ? std::string() : sock_dir};

  nlohmann::json cfg = {{"remote", sock},
                        {"exe", executable},
                        {"breakpoints", breakpoints},
                        {"max_stops", max_stops},
                        {"xlen", rv32 ? 4 : 8},
                        {"dump", dir.file("value.bin")},
                        {"stack_cap", options.stack_cap}};
  dir.write("cfg.json", cfg.dump());
  dir.write("capture.py", kGdbScript);

  auto deadline =
      Clock::now() + std::chrono::milliseconds(int64_t(std::max(1.0, options.timeout_s) * 1000));
  Child q;
  if (!q.start({qemu, "-g", sock, executable}, {}, false, dir.file("qemu.log"), error))
    return stops;
  // qemu waits for gdb before the program's first instruction; wait until the socket is there.
  auto ready_by = std::min(deadline, Clock::now() + std::chrono::seconds(20));
  while (!isSocket(sock)) {
    if (!q.running()) {
      error = "qemu exited before gdb could attach (" + executable +
              "): " + readFile(dir.file("qemu.log"));
      return stops;
    }
    if (Clock::now() >= ready_by) {
      error = "qemu did not open " + sock;
      return stops;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }

  Child g;
  if (!g.start({gdb, "-batch", "-nx", "-iex", "set auto-load off", "-x", dir.file("capture.py"),
                executable},
               {"ABIKIT_GDB_CFG=" + dir.file("cfg.json")}, true, "", error))
    return stops;
  std::string out, err;
  bool finished = g.collect(deadline, out, err) && g.wait(deadline);
  if (!finished) error = "gdb timed out after " + std::to_string(options.timeout_s) + " s";
  g.kill();
  // gdb kills the inferior when it ends; qemu then exits by itself.
  if (finished) q.wait(Clock::now() + std::chrono::seconds(2));
  q.kill();

  std::string end;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) nl = out.size();
    std::string line = out.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.rfind(kMarker, 0) != 0) continue;
    nlohmann::json j = nlohmann::json::parse(line.substr(std::strlen(kMarker)), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      if (error.empty()) error = "unreadable line from gdb: " + line.substr(0, 200);
      continue;
    }
    try {
      if (j.contains("stop")) {
        stops.push_back(parseStop(j["stop"]));
      } else if (j.contains("warning")) {
        if (warnings) warnings->push_back(j["warning"].get<std::string>());
      } else if (j.contains("end")) {
        end = j["end"].get<std::string>();
      } else if (j.contains("fatal") || j.contains("stop_error")) {
        std::string m = j.contains("fatal")
                            ? j["fatal"].get<std::string>()
                            : "capture failed: " + j["stop_error"].get<std::string>();
        if (error.empty()) error = m;
      }
    } catch (const nlohmann::json::exception& e) {
      if (error.empty()) error = std::string("bad stop record: ") + e.what();
    }
  }
  if (error.empty() && end.empty())
    error = "gdb ended without finishing: " + err.substr(0, 2000);
  else if (error.empty() && end.rfind("stopped by signal", 0) == 0)
    error = "the program " + end;
  return stops;
}

} // namespace abikit::oracle
