// Attributes: GNU __attribute__((...)), [[...]], __declspec(...), and the table of those abikit
// knows.
#include "parser.h"

#include <algorithm>

namespace abikit::detail {

namespace {

// Every attribute abikit knows. Ignored ones do not change layout or calling conventions;
// Unsupported ones do and are rejected when used.
constexpr AttrEntry kAttributes[] = {
    {"packed", AttrKind::Packed, ArgStyle::None},
    {"aligned", AttrKind::Aligned, ArgStyle::OptInt},
    {"vector_size", AttrKind::VectorSize, ArgStyle::Int},
    {"ext_vector_type", AttrKind::ExtVectorType, ArgStyle::Int},
    {"mode", AttrKind::Mode, ArgStyle::Ident},
    {"address_space", AttrKind::AddressSpace, ArgStyle::Int},
    {"transparent_union", AttrKind::TransparentUnion, ArgStyle::None},
    {"amdgpu_kernel", AttrKind::Kernel, ArgStyle::None},
    {"nvptx_kernel", AttrKind::Kernel, ArgStyle::None},
    {"global", AttrKind::Kernel, ArgStyle::None}, // CUDA/HIP __global__
    {"colossus_vertex", AttrKind::Vertex, ArgStyle::None},
    {"opencl_global", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_local", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_constant", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_private", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_generic", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"ms_struct", AttrKind::MsStruct, ArgStyle::None},
    {"gcc_struct", AttrKind::GccStruct, ArgStyle::None},
    // Change layout or ABI; not implemented.
    {"scalar_storage_order", AttrKind::Unsupported, ArgStyle::Skip},
    {"randomize_layout", AttrKind::Unsupported, ArgStyle::None},
    {"regparm", AttrKind::Unsupported, ArgStyle::Skip},
    {"ms_abi", AttrKind::Unsupported, ArgStyle::None},
    {"sysv_abi", AttrKind::Unsupported, ArgStyle::None},
    {"vectorcall", AttrKind::Unsupported, ArgStyle::None},
    {"pcs", AttrKind::Unsupported, ArgStyle::Skip},
    {"preserve_most", AttrKind::Unsupported, ArgStyle::None},
    {"preserve_all", AttrKind::Unsupported, ArgStyle::None},
    {"swiftcall", AttrKind::Unsupported, ArgStyle::None},
    {"vectorcall", AttrKind::Unsupported, ArgStyle::None},
    {"riscv_vector_cc", AttrKind::Unsupported, ArgStyle::None},
    {"overloadable", AttrKind::Unsupported, ArgStyle::None},
    {"matrix_type", AttrKind::Unsupported, ArgStyle::Skip},
    {"neon_vector_type", AttrKind::Unsupported, ArgStyle::Skip},
    {"neon_polyvector_type", AttrKind::Unsupported, ArgStyle::Skip},
    {"btf_type_tag", AttrKind::Ignored, ArgStyle::Skip},
    // The i386 conventions: clang ignores them on every other target (x86-64 and Windows x64
    // included), and abikit lowers no i386 call (`call` refuses the x86 hosts).
    {"stdcall", AttrKind::Ignored, ArgStyle::None},
    {"fastcall", AttrKind::Ignored, ArgStyle::None},
    {"thiscall", AttrKind::Ignored, ArgStyle::None},
    {"cdecl", AttrKind::Ignored, ArgStyle::None},
    {"pascal", AttrKind::Ignored, ArgStyle::None},
    // Harmless.
    {"deprecated", AttrKind::Ignored, ArgStyle::Skip},
    {"unavailable", AttrKind::Ignored, ArgStyle::Skip},
    {"availability", AttrKind::Ignored, ArgStyle::Skip},
    {"unused", AttrKind::Ignored, ArgStyle::None},
    {"used", AttrKind::Ignored, ArgStyle::None},
    {"maybe_unused", AttrKind::Ignored, ArgStyle::None},
    {"visibility", AttrKind::Ignored, ArgStyle::Skip},
    {"noreturn", AttrKind::Ignored, ArgStyle::None},
    {"_Noreturn", AttrKind::Ignored, ArgStyle::None},
    {"format", AttrKind::Ignored, ArgStyle::Skip},
    {"format_arg", AttrKind::Ignored, ArgStyle::Skip},
    {"nonnull", AttrKind::Ignored, ArgStyle::Skip},
    {"null_terminated_string_arg", AttrKind::Ignored, ArgStyle::Skip},
    {"warn_unused_result", AttrKind::Ignored, ArgStyle::None},
    {"nodiscard", AttrKind::Ignored, ArgStyle::Skip},
    {"warn_unused", AttrKind::Ignored, ArgStyle::None},
    {"always_inline", AttrKind::Ignored, ArgStyle::None},
    {"noinline", AttrKind::Ignored, ArgStyle::None},
    {"gnu_inline", AttrKind::Ignored, ArgStyle::None},
    {"artificial", AttrKind::Ignored, ArgStyle::None},
    {"flatten", AttrKind::Ignored, ArgStyle::None},
    {"const", AttrKind::Ignored, ArgStyle::None},
    {"pure", AttrKind::Ignored, ArgStyle::None},
    {"malloc", AttrKind::Ignored, ArgStyle::Skip},
    {"section", AttrKind::Ignored, ArgStyle::Skip},
    {"weak", AttrKind::Ignored, ArgStyle::None},
    {"weakref", AttrKind::Ignored, ArgStyle::Skip},
    {"alias", AttrKind::Ignored, ArgStyle::Skip},
    {"ifunc", AttrKind::Ignored, ArgStyle::Skip},
    {"cold", AttrKind::Ignored, ArgStyle::None},
    {"hot", AttrKind::Ignored, ArgStyle::None},
    {"nothrow", AttrKind::Ignored, ArgStyle::None},
    {"leaf", AttrKind::Ignored, ArgStyle::None},
    {"returns_nonnull", AttrKind::Ignored, ArgStyle::None},
    {"returns_twice", AttrKind::Ignored, ArgStyle::None},
    {"access", AttrKind::Ignored, ArgStyle::Skip},
    {"alloc_size", AttrKind::Ignored, ArgStyle::Skip},
    {"alloc_align", AttrKind::Ignored, ArgStyle::Skip},
    {"assume_aligned", AttrKind::Ignored, ArgStyle::Skip},
    {"sentinel", AttrKind::Ignored, ArgStyle::Skip},
    {"may_alias", AttrKind::Ignored, ArgStyle::None},
    {"designated_init", AttrKind::Ignored, ArgStyle::None},
    {"fallthrough", AttrKind::Ignored, ArgStyle::None},
    {"noescape", AttrKind::Ignored, ArgStyle::None},
    {"constructor", AttrKind::Ignored, ArgStyle::Skip},
    {"destructor", AttrKind::Ignored, ArgStyle::Skip},
    {"cleanup", AttrKind::Ignored, ArgStyle::Skip},
    {"no_instrument_function", AttrKind::Ignored, ArgStyle::None},
    {"no_sanitize", AttrKind::Ignored, ArgStyle::Skip},
    {"no_sanitize_address", AttrKind::Ignored, ArgStyle::None},
    {"no_sanitize_thread", AttrKind::Ignored, ArgStyle::None},
    {"no_sanitize_undefined", AttrKind::Ignored, ArgStyle::None},
    {"no_address_safety_analysis", AttrKind::Ignored, ArgStyle::None},
    {"no_stack_protector", AttrKind::Ignored, ArgStyle::None},
    {"no_split_stack", AttrKind::Ignored, ArgStyle::None},
    {"no_profile_instrument_function", AttrKind::Ignored, ArgStyle::None},
    {"optimize", AttrKind::Ignored, ArgStyle::Skip},
    {"target", AttrKind::Ignored, ArgStyle::Skip},
    {"externally_visible", AttrKind::Ignored, ArgStyle::None},
    {"noclone", AttrKind::Ignored, ArgStyle::None},
    {"noipa", AttrKind::Ignored, ArgStyle::None},
    {"no_icf", AttrKind::Ignored, ArgStyle::None},
    {"nonstring", AttrKind::Ignored, ArgStyle::None},
    {"retain", AttrKind::Ignored, ArgStyle::None},
    {"error", AttrKind::Ignored, ArgStyle::Skip},
    {"warning", AttrKind::Ignored, ArgStyle::Skip},
    {"copy", AttrKind::Ignored, ArgStyle::Skip},
    {"tls_model", AttrKind::Ignored, ArgStyle::Skip},
    {"common", AttrKind::Ignored, ArgStyle::None},
    {"nocommon", AttrKind::Ignored, ArgStyle::None},
    {"naked", AttrKind::Ignored, ArgStyle::None},
    {"nodebug", AttrKind::Ignored, ArgStyle::None},
    {"noduplicate", AttrKind::Ignored, ArgStyle::None},
    {"convergent", AttrKind::Ignored, ArgStyle::None},
    {"minsize", AttrKind::Ignored, ArgStyle::None},
    {"optnone", AttrKind::Ignored, ArgStyle::None},
    {"disable_tail_calls", AttrKind::Ignored, ArgStyle::None},
    {"not_tail_called", AttrKind::Ignored, ArgStyle::None},
    {"nocf_check", AttrKind::Ignored, ArgStyle::None},
    {"patchable_function_entry", AttrKind::Ignored, ArgStyle::Skip},
    {"no_reorder", AttrKind::Ignored, ArgStyle::None},
    {"no_randomize_layout", AttrKind::Ignored, ArgStyle::None},
    {"preserve_access_index", AttrKind::Ignored, ArgStyle::None},
    {"btf_decl_tag", AttrKind::Ignored, ArgStyle::Skip},
    {"btf_tag", AttrKind::Ignored, ArgStyle::Skip},
    {"counted_by", AttrKind::Ignored, ArgStyle::Skip},
    {"flag_enum", AttrKind::Ignored, ArgStyle::None},
    {"enum_extensibility", AttrKind::Ignored, ArgStyle::Skip},
    {"annotate", AttrKind::Ignored, ArgStyle::Skip},
    {"diagnose_if", AttrKind::Ignored, ArgStyle::Skip},
    {"enable_if", AttrKind::Ignored, ArgStyle::Skip},
    {"noderef", AttrKind::Ignored, ArgStyle::None},
    {"nomerge", AttrKind::Ignored, ArgStyle::None},
    {"uninitialized", AttrKind::Ignored, ArgStyle::None},
    {"objc_boxable", AttrKind::Ignored, ArgStyle::None},
    {"returns_nonnull", AttrKind::Ignored, ArgStyle::None},
    {"leaf", AttrKind::Ignored, ArgStyle::None},
    {"zero_call_used_regs", AttrKind::Ignored, ArgStyle::Skip},
    {"function_return", AttrKind::Ignored, ArgStyle::Skip},
    {"indirect_branch", AttrKind::Ignored, ArgStyle::Skip},
    {"interrupt", AttrKind::Unsupported, ArgStyle::Skip},
    // GPU kernel and variable attributes that do not change parameter passing.
    {"device", AttrKind::Ignored, ArgStyle::None},
    {"host", AttrKind::Ignored, ArgStyle::None},
    {"shared", AttrKind::Ignored, ArgStyle::None},
    {"constant", AttrKind::Ignored, ArgStyle::None},
    {"managed", AttrKind::Ignored, ArgStyle::None},
    {"launch_bounds", AttrKind::Ignored, ArgStyle::Skip},
    {"cudart_builtin", AttrKind::Ignored, ArgStyle::None},
    {"device_builtin", AttrKind::Ignored, ArgStyle::None},
    {"reqd_work_group_size", AttrKind::Ignored, ArgStyle::Skip},
    {"work_group_size_hint", AttrKind::Ignored, ArgStyle::Skip},
    {"vec_type_hint", AttrKind::Ignored, ArgStyle::Skip},
    {"intel_reqd_sub_group_size", AttrKind::Ignored, ArgStyle::Skip},
    {"opencl_unroll_hint", AttrKind::Ignored, ArgStyle::Skip},
    {"nosvm", AttrKind::Ignored, ArgStyle::None},
    {"amdgpu_flat_work_group_size", AttrKind::Ignored, ArgStyle::Skip},
    {"amdgpu_waves_per_eu", AttrKind::Ignored, ArgStyle::Skip},
    {"amdgpu_num_sgpr", AttrKind::Ignored, ArgStyle::Skip},
    {"amdgpu_num_vgpr", AttrKind::Ignored, ArgStyle::Skip},
};

} // namespace

const AttrEntry* findAttribute(std::string_view name) {
  for (const AttrEntry& e : kAttributes)
    if (name == e.name) return &e;
  return nullptr;
}

std::string_view normaliseAttrName(std::string_view n) {
  if (n.size() > 4 && n.substr(0, 2) == "__" && n.substr(n.size() - 2) == "__")
    return n.substr(2, n.size() - 4);
  return n;
}

int hasAttribute(std::string_view scope, std::string_view name, bool c2x) {
  name = normaliseAttrName(name);
  if (c2x && scope.empty()) {
    // Standard attributes: the value is the date of the standard that added them.
    if (name == "deprecated" || name == "fallthrough" || name == "maybe_unused") return 201904;
    if (name == "nodiscard") return 202003;
    if (name == "noreturn" || name == "_Noreturn") return 202202;
    return 0;
  }
  if (!scope.empty() && scope != "gnu" && scope != "__gnu__" && scope != "clang" &&
      scope != "_Clang")
    return 0;
  return findAttribute(name) ? 1 : 0;
}

// ----- attributes -----------------------------------------------------------------------------

bool Parser::atAttribute() const {
  if (tok_.kind == Tok::Ident)
    return tok_.ident->keyword == kKwAttribute || tok_.ident->keyword == kKwDeclspec ||
           tok_.ident->keyword == kKwCallConv;
  if (tok_.kind == Tok::LBracket) {
    const Token& n = const_cast<Parser*>(this)->peekTok(0);
    return n.kind == Tok::LBracket;
  }
  return false;
}

void Parser::parseAttributesSlow(AttrList& out) {
  while (atAttribute()) {
    if (tok_.kind == Tok::LBracket)
      parseC2xAttribute(out);
    else if (tok_.ident->keyword == kKwDeclspec)
      parseDeclspec(out);
    else if (tok_.ident->keyword == kKwCallConv)
      parseCallConvKeyword();
    else
      parseGnuAttribute(out);
  }
}

// A calling-convention keyword: the i386 conventions are ignored as their attributes are (every
// call abikit lowers is on a target where clang ignores them); __vectorcall and __regcall change
// x86-64 calls and are refused by name.
void Parser::parseCallConvKeyword() {
  const std::string_view name = tok_.ident->name;
  if (name.find("vectorcall") != std::string_view::npos || name == "__regcall")
    fail(tok_.loc, "unsupported calling convention '" + std::string(name) + "'", true);
  consume();
}

// __declspec(...) of the Microsoft dialect: align(N) is the aligned attribute; the storage and
// linkage ones do not change layouts; any other is refused by name. Outside the dialect clang
// does not know the keyword (MinGW defines it as a macro for __attribute__).
void Parser::parseDeclspec(AttrList& out) {
  Loc at = tok_.loc;
  if (!ctx_.data().ms_extensions)
    fail(at, "'__declspec' is not supported on " + ctx_.target().spelling, true);
  consume(); // __declspec
  expect(Tok::LParen, "after '__declspec'");
  static constexpr std::string_view kHarmless[] = {
      "dllimport",  "dllexport",   "noreturn",  "nothrow", "noinline",
      "noalias",    "restrict",    "selectany", "thread",  "novtable",
      "deprecated", "safebuffers", "allocator", "naked",   "no_sanitize_address",
      "code_seg",   "guard",       "spectre",   "allocate"};
  while (tok_.kind != Tok::RParen) {
    if (tok_.kind != Tok::Ident) failUnexpected("a __declspec attribute name");
    Attr a;
    a.name = tok_.ident->name;
    a.loc = tok_.loc;
    consume();
    if (a.name == "align") {
      a.name = "aligned";
      a.kind = AttrKind::Aligned;
      if (tok_.kind != Tok::LParen) fail(a.loc, "'align' takes one argument");
      parseAttributeArgs(a, ArgStyle::OptInt);
      if (!a.has_arg) fail(a.loc, "'align' takes one argument");
      out.push_back(a);
      continue;
    }
    if (std::find(std::begin(kHarmless), std::end(kHarmless), a.name) == std::end(kHarmless))
      fail(a.loc, "unsupported __declspec attribute '" + std::string(a.name) + "'", true);
    if (tok_.kind == Tok::LParen) skipBalanced(Tok::LParen, Tok::RParen);
  }
  consume(); // )
}

void Parser::skipBalanced(Tok open, Tok close) {
  // tok_ is `open`.
  Loc at = tok_.loc;
  unsigned depth = 0;
  for (;;) {
    if (tok_.kind == Tok::Eof)
      fail(at, "expected '" + std::string(punctuatorSpelling(close)) + "' to match this '" +
                   std::string(punctuatorSpelling(open)) + "'");
    if (tok_.kind == open)
      ++depth;
    else if (tok_.kind == close && --depth == 0) {
      consume();
      return;
    }
    consume();
  }
}

void Parser::parseAttributeArgs(Attr& a, ArgStyle style) {
  bool paren = tok_.kind == Tok::LParen;
  switch (style) {
  case ArgStyle::None:
    if (paren) {
      // An empty argument list is accepted (clang does too).
      if (peekTok(0).kind == Tok::RParen) {
        consume();
        consume();
        return;
      }
      fail(a.loc, "attribute '" + std::string(a.name) + "' takes no arguments");
    }
    return;
  case ArgStyle::Skip:
    if (paren) skipBalanced(Tok::LParen, Tok::RParen);
    return;
  case ArgStyle::OptInt:
    if (!paren) return;
    [[fallthrough]];
  case ArgStyle::Int: {
    if (!paren) fail(a.loc, "attribute '" + std::string(a.name) + "' takes one argument");
    consume();
    Loc at = tok_.loc;
    __int128 v = 0;
    evalInt("attribute argument", at, false, &v);
    if (v < 0) fail(at, "attribute '" + std::string(a.name) + "' argument must be non-negative");
    if (v > (__int128(1) << 62))
      fail(at, "attribute '" + std::string(a.name) + "' argument is too large");
    a.has_arg = true;
    a.value = uint64_t(v);
    expect(Tok::RParen, "after attribute argument");
    return;
  }
  case ArgStyle::Ident:
    if (!paren) fail(a.loc, "attribute '" + std::string(a.name) + "' takes one argument");
    consume();
    if (tok_.kind != Tok::Ident) failUnexpected("an identifier");
    a.ident = tok_.ident;
    a.has_arg = true;
    consume();
    expect(Tok::RParen, "after attribute argument");
    return;
  }
}

// clang 22 honours gcc_struct (and refuses it where the Microsoft rules are the only ones);
// earlier clangs ignore it as an unknown attribute.
void Parser::checkGccStruct(Attr& a) const {
  if (!compilerInfo(ctx_.target().compiler).gcc_struct_attribute) {
    a.kind = AttrKind::Ignored;
    return;
  }
  if (ctx_.data().record_rules == RecordRules::Microsoft)
    fail(a.loc, "'gcc_struct' asks for the generic record layout, which " + ctx_.target().spelling +
                    " does not have (clang: Itanium-compatible layout "
                    "for the Microsoft C++ ABI is not yet supported)");
}

void Parser::checkUnsupported(const Attr& a) const {
  if (a.kind == AttrKind::Unsupported)
    fail(a.loc, "unsupported attribute '" + std::string(a.name) + "'", true);
}

void Parser::parseGnuAttribute(AttrList& out) {
  Loc at = tok_.loc;
  consume(); // __attribute__
  expect(Tok::LParen, "after '__attribute__'");
  expect(Tok::LParen, "after '__attribute__('");
  for (;;) {
    if (tok_.kind == Tok::RParen) break;
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind != Tok::Ident) failUnexpected("an attribute name");
    Attr a;
    a.name = normaliseAttrName(tok_.ident->name);
    a.loc = tok_.loc;
    const AttrEntry* e = findAttribute(a.name);
    if (!e) fail(a.loc, "unsupported attribute '" + std::string(a.name) + "'", true);
    a.kind = e->kind;
    consume();
    parseAttributeArgs(a, e->args);
    checkUnsupported(a);
    if (a.kind == AttrKind::GccStruct) checkGccStruct(a);
    if (a.kind == AttrKind::OpenCLAddrSpace) {
      std::string spelling = "__" + std::string(a.name.substr(7)); // opencl_global -> __global
      a.as = 0;
      for (const AddressSpaceInfo& s : ctx_.target().address_spaces)
        if (s.c_spelling == spelling) a.as = s.number;
    }
    if (a.kind != AttrKind::Ignored) out.push_back(a);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind != Tok::RParen) failUnexpected("',' or ')' in the attribute list");
  }
  consume();
  if (tok_.kind != Tok::RParen) fail(at, "expected ')' to close '__attribute__(('");
  consume();
}

void Parser::parseC2xAttribute(AttrList& out) {
  consume(); // [
  consume(); // [
  for (;;) {
    if (tok_.kind == Tok::RBracket) break;
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind != Tok::Ident) failUnexpected("an attribute name");
    Attr a;
    a.c2x = true;
    a.loc = tok_.loc;
    std::string_view scope;
    std::string_view name = tok_.ident->name;
    consume();
    if (tok_.kind == Tok::ColonColon) {
      consume();
      if (tok_.kind != Tok::Ident) failUnexpected("an attribute name after '::'");
      scope = name;
      name = tok_.ident->name;
      consume();
    }
    a.name = normaliseAttrName(name);
    const AttrEntry* e = nullptr;
    if (scope.empty()) {
      if (hasAttribute("", a.name, true))
        e = findAttribute(a.name == "nodiscard" ? "nodiscard" : a.name);
      if (!e && hasAttribute("", a.name, true)) {
        static const AttrEntry kStd = {"", AttrKind::Ignored, ArgStyle::Skip};
        e = &kStd;
      }
    } else if (hasAttribute(scope, a.name, false)) {
      e = findAttribute(a.name);
    }
    if (!e)
      fail(a.loc,
           "unsupported attribute '" + (scope.empty() ? "" : std::string(scope) + "::") +
               std::string(a.name) + "'",
           true);
    a.kind = e->kind;
    parseAttributeArgs(a, e->args);
    checkUnsupported(a);
    if (a.kind == AttrKind::GccStruct) checkGccStruct(a);
    if (a.kind != AttrKind::Ignored) out.push_back(a);
  }
  consume();
  if (tok_.kind != Tok::RBracket) failUnexpected("']]' to close the attribute list");
  consume();
}

uint64_t Parser::attrAlignment(const Attr& a) const {
  uint64_t v = a.has_arg ? a.value : ctx_.data().default_aligned_attr;
  if (v == 0 || (v & (v - 1))) fail(a.loc, "requested alignment is not a power of 2");
  if (v > (uint64_t(1) << 32))
    fail(a.loc, "requested alignment must be 4294967296 bytes or smaller");
  if (v > (uint64_t(1) << 31))
    fail(a.loc, "requested alignment of " + std::to_string(v) + " bytes is not supported", true);
  return v;
}

QType Parser::applyMode(const Attr& a, QType t) {
  std::string_view m = normaliseAttrName(a.ident->name);
  const Type* cur = stripTypedefs(t.t);
  const DataModel& d = ctx_.data();
  unsigned width = 0;
  bool integer = true;
  bool explicit_ld = false;
  if (m.size() == 2 && (m[1] == 'I' || m[1] == 'F')) {
    switch (m[0]) {
    case 'Q':
      width = 8;
      break;
    case 'H':
      width = 16;
      break;
    case 'S':
      width = 32;
      break;
    case 'D':
      width = 64;
      break;
    case 'X':
      width = 96;
      break;
    case 'T':
      width = 128;
      explicit_ld = true;
      break;
    default:
      break;
    }
    integer = m[1] == 'I';
  } else if (m == "word") {
    width = d.pointer.size * 8u; // clang: the register width, which is the pointer width here
  } else if (m == "byte") {
    width = 8;
  } else if (m == "pointer") {
    width = d.pointer.size * 8u;
  } else if (m == "unwind_word") {
    width = d.pointer.size * 8u;
  }
  if (width == 0 || (m.size() == 2 && m[1] == 'C') || (m.size() >= 2 && m[0] == 'V'))
    fail(a.loc, "unsupported machine mode '" + std::string(a.ident->name) + "'", true);
  if (cur->kind == TypeKind::Enum)
    fail(a.loc, "mode attribute on an enumeration type is not supported", true);
  if (cur->kind == TypeKind::Vector)
    fail(a.loc, "mode attribute on a vector type is not supported", true);
  if (cur->kind != TypeKind::Int && cur->kind != TypeKind::Float)
    fail(a.loc, "mode attribute only supported for integer and floating-point types");
  if (integer) {
    if (cur->kind != TypeKind::Int)
      fail(a.loc, "type of machine mode does not match type of base type");
    bool sgn = static_cast<const IntType*>(cur)->is_signed;
    const IntKind order[] = {IntKind::SChar, IntKind::Short, IntKind::Int, IntKind::Long,
                             IntKind::LongLong};
    for (IntKind k : order) {
      if (d.of(k).size * 8u == width) {
        QType r = t;
        r.t = ctx_.qualified(ctx_.intType(sgn ? k : unsignedIntKind(k)), t.t->quals);
        return r;
      }
    }
    if (width == 128 && d.of(IntKind::Int128).supported()) {
      QType r = t;
      r.t = ctx_.qualified(ctx_.intType(sgn ? IntKind::Int128 : IntKind::UInt128), t.t->quals);
      return r;
    }
    fail(a.loc,
         "machine mode '" + std::string(a.ident->name) + "' is not supported on this target");
  }
  if (cur->kind != TypeKind::Float)
    fail(a.loc, "type of machine mode does not match type of base type");
  FloatKind fk;
  bool found = true;
  if (d.of(FloatKind::Float).size * 8u == width)
    fk = FloatKind::Float;
  else if (d.of(FloatKind::Double).size * 8u == width)
    fk = FloatKind::Double;
  else if (width == 96 && d.float_formats[size_t(FloatKind::LongDouble)] == FloatFormat::X87)
    fk = FloatKind::LongDouble;
  else if (width == 128 &&
           (d.float_formats[size_t(FloatKind::LongDouble)] == FloatFormat::IEEEQuad))
    fk = FloatKind::LongDouble;
  else if (width == 128 && d.of(FloatKind::Float128).supported())
    fk = FloatKind::Float128;
  else
    found = false;
  (void)explicit_ld;
  if (!found)
    fail(a.loc,
         "machine mode '" + std::string(a.ident->name) + "' is not supported on this target");
  QType r = t;
  r.t = ctx_.qualified(ctx_.floatType(fk), t.t->quals);
  return r;
}

QType Parser::applyTypeAttr(const Attr& a, QType t, bool is_typedef) {
  switch (a.kind) {
  case AttrKind::AddressSpace:
    if (a.value > 0x7FFFFF)
      fail(a.loc, "address space is larger than the maximum supported (8388587)");
    t.as = uint32_t(a.value);
    t.has_as = true;
    return t;
  case AttrKind::OpenCLAddrSpace:
    t.as = a.as;
    t.has_as = true;
    return t;
  case AttrKind::VectorSize: {
    const Type* e = stripTypedefs(t.t);
    bool ok = (e->kind == TypeKind::Int && static_cast<const IntType*>(e)->ikind != IntKind::Bool &&
               !static_cast<const IntType*>(e)->is_bitint) ||
              e->kind == TypeKind::Float;
    if (!ok) fail(a.loc, "invalid vector element type '" + typeStr(t.t) + "'");
    uint64_t esize = sizeOf(t.t, a.loc, "vector_size");
    if (a.value == 0) fail(a.loc, "zero vector size");
    if (esize == 0 || a.value % esize)
      fail(a.loc, "vector size not an integral multiple of component size");
    if (a.value / esize > 0xFFFFFFFFull) fail(a.loc, "vector size too large");
    QType r = t;
    r.t = ctx_.qualified(ctx_.vectorOf(ctx_.qualified(t.t->unqualified, 0),
                                       uint32_t(a.value / esize), VectorKind::Generic),
                         t.t->quals);
    return r;
  }
  case AttrKind::ExtVectorType: {
    if (!is_typedef) fail(a.loc, "'ext_vector_type' attribute only applies to typedefs");
    const Type* e = stripTypedefs(t.t);
    bool ok = e->kind == TypeKind::Int || e->kind == TypeKind::Float;
    if (!ok) fail(a.loc, "invalid vector element type '" + typeStr(t.t) + "'");
    if (a.value == 0) fail(a.loc, "zero vector size");
    if (a.value > 0xFFFFFFFFull) fail(a.loc, "vector size too large");
    QType r = t;
    r.t = ctx_.qualified(ctx_.vectorOf(t.t->unqualified, uint32_t(a.value), VectorKind::Ext),
                         t.t->quals);
    return r;
  }
  case AttrKind::Mode:
    return applyMode(a, t);
  default:
    return t;
  }
}

} // namespace abikit::detail
