// `abikit ptx`: PTX prototypes as LLVM's NVPTX back end prints them (NVPTXAsmPrinter:
// emitFunctionParamList, printReturnValStr, emitDeclaration, emitLinkageDirective), or as
// NVIDIA's nvcc 13 prints them (--ptx-style=nvcc). The calling-convention decisions come from the
// NVPTX rule file through lowerFunction; this file decides only how they are printed. Every
// rule here was checked against clang-14, -19 and -22 with their llc, nvcc 13 and ptxas 13
// (docs/targets/nvptx.md, "PTX prototypes").
#include "abikit/callconv.h"
#include "abikit/diag.h"
#include "abikit/emit.h"

#include <algorithm>
#include <unordered_set>

namespace abikit {

namespace {

[[noreturn]] void reject(const FunctionDecl& fn, const std::string& message) {
  throw Error(ErrorKind::Unsupported, "function '" + std::string(fn.name) + "': " + message);
}

std::string describe(const ArgLowering* a, size_t index) {
  if (!a) return "the return value";
  if (a->name.empty()) return "parameter " + std::to_string(index + 1);
  return "parameter '" + std::string(a->name) + "'";
}

/// The IR integer width of an integer or enum type (_Bool is i1 as a value).
unsigned intBits(const Type* c, const DataModel& d) {
  const IntType* it = nullptr;
  if (auto* et = dyn<EnumType>(c))
    it = et->decl->underlying;
  else
    it = dyn<IntType>(c);
  if (it->is_bitint) return it->bits;
  if (it->ikind == IntKind::Bool) return 1;
  return unsigned(d.of(it->ikind).size) * 8u;
}

/// A valid PTX identifier: [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+.
bool validPtxName(std::string_view s) {
  if (s.empty()) return false;
  auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
  };
  char c0 = s[0];
  bool letter = (c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z');
  if (!letter && c0 != '_' && c0 != '$' && c0 != '%') return false;
  if (!letter && s.size() == 1) return false;
  for (size_t i = 1; i < s.size(); ++i)
    if (!word(s[i])) return false;
  return true;
}

struct Prototype {
  const FunctionDecl* fn = nullptr;
  bool kernel = false;
  bool definition = false; // printed with the definition header (and a body in a module)
  std::string ret;         // ".param .b32 func_retval0", or empty for void
  std::vector<std::string> params;
  bool empty_return = false;        // func_retval0[0]
  std::vector<size_t> empty_params; // parameters declared as [0] arrays
  bool b128 = false;                // a .b128 parameter or return value
  uint64_t param_space = 0;         // bytes of the parameters laid out in order (kernels)

  void addParam(uint64_t align, uint64_t size) {
    param_space = (param_space + align - 1) / align * align + size;
  }
};

class Printer {
public:
  Printer(TypeContext& ctx, const LayoutEngine& layout, const PtxOptions& options)
      : ctx_(ctx), layout_(layout), options_(options), target_(ctx.target()),
        nvcl_(target_.triple.size() > 5 &&
              target_.triple.compare(target_.triple.size() - 5, 5, "-nvcl") == 0) {}

  Prototype prototype(const FunctionDecl& fn) {
    Prototype p;
    p.fn = &fn;
    p.kernel = fn.type->fkind == FunctionKind::Kernel;
    p.definition = p.kernel || fn.is_definition;
    if (p.kernel && fn.is_static)
      reject(fn, "a static kernel: clang-14 (CUDA) externalises it under a C++ internal-linkage "
                 "name (_ZL...), which abikit does not produce");
    rejectAtomicValues(ctx_, fn);
    if (options_.style == PtxStyle::Nvcc)
      nvccPrototype(fn, p);
    else
      llvmPrototype(fn, p);
    if (options_.module && !validPtxName(fn.name))
      reject(fn, "'" + std::string(fn.name) + "' is not a valid PTX identifier; ptxas rejects it");
    return p;
  }

  std::string linkage(const Prototype& p) const {
    // emitLinkageDirective: only for the CUDA driver interface (not nvptx*-nvidia-nvcl).
    if (nvcl_) return "";
    if (!p.definition) return ".extern ";
    if (p.fn->is_static) return "";
    return ".visible ";
  }

  static std::string paramList(const Prototype& p) {
    if (p.params.empty()) return "()\n";
    std::string s = "(\n";
    for (size_t i = 0; i < p.params.size(); ++i) {
      if (i) s += ",\n";
      s += "\t" + p.params[i];
    }
    return s + "\n)\n";
  }

  /// The text llc prints before a definition's body (`NAME(` on the same line).
  std::string header(const Prototype& p) const {
    std::string s = linkage(p);
    if (p.kernel)
      s += ".entry ";
    else
      s += ".func " + (p.ret.empty() ? std::string() : " (" + p.ret + ") ");
    return s + std::string(p.fn->name) + paramList(p);
  }

  /// emitDeclaration: a declaration (`NAME` then the list on the next line, then `;`). In a
  /// module it is always `.extern`: llc-14's declarations for the OpenCL driver interface carry
  /// no linkage, and ptxas then wants the function defined in the same module.
  std::string declaration(const Prototype& p) const {
    std::string s = (options_.module && !p.definition ? std::string(".extern ") : linkage(p)) +
                    ".func " + (p.ret.empty() ? std::string() : " (" + p.ret + ") ");
    return s + std::string(p.fn->name) + "\n" + paramList(p) + ";\n";
  }

  std::string moduleHead() const {
    const NvptxTarget& nv = target_.nvptx();
    std::string s = "//\n// Generated by abikit: PTX prototypes as ";
    s += options_.style == PtxStyle::Nvcc ? std::string("NVIDIA's nvcc 13")
                                          : std::string(target_.nvptx().call.backend);
    s += " prints them\n//\n\n";
    s += ".version " + std::to_string(nv.ptx_version / 10) + "." +
         std::to_string(nv.ptx_version % 10) + "\n";
    s += ".target " + target_.cpu + (nvcl_ ? ", texmode_independent" : "") + "\n";
    s += ".address_size " + std::string(nv.is64 ? "64" : "32") + "\n\n";
    return s;
  }

  /// What ptxas accepts of llc's [0] arrays (empty aggregates): never as the return value or as
  /// a kernel parameter, only as the last parameter of a function and only from PTX ISA 6.0 and
  /// sm_30 (an unsized array).
  void checkModule(const Prototype& p) const {
    const NvptxTarget& nv = target_.nvptx();
    if (p.empty_return)
      reject(*p.fn, "the return value is empty: it is declared func_retval0[0], which ptxas "
                    "rejects (\"Output parameter cannot be an incomplete array\")");
    // ptxas 13: "Entry function uses too much parameter space" beyond 0x1100 bytes before PTX
    // ISA 8.1 and beyond 0x7ffc bytes from 8.1.
    uint64_t limit = nv.ptx_version >= 81 ? 32764 : 4352;
    if (p.kernel && p.param_space > limit)
      reject(*p.fn, "the kernel's parameters take " + std::to_string(p.param_space) +
                        " bytes; ptxas accepts at most " + std::to_string(limit) +
                        " bytes of kernel parameters with PTX ISA " +
                        std::to_string(nv.ptx_version / 10) + "." +
                        std::to_string(nv.ptx_version % 10) + " (4352 before 8.1, 32764 from 8.1)");
    if (p.b128 && (nv.ptx_version < 83 || nv.sm < 70))
      reject(*p.fn, "a _BitInt of 65 to 127 bits is declared .b128, which ptxas accepts from PTX "
                    "ISA 8.3 and sm_70 (this target writes .version " +
                        std::to_string(nv.ptx_version / 10) + "." +
                        std::to_string(nv.ptx_version % 10) + " and .target " + target_.cpu +
                        "; select e.g. -mcpu=sm_100)");
    if (p.empty_params.empty()) return;
    if (p.kernel)
      reject(*p.fn, "parameter " + std::to_string(p.empty_params.front() + 1) +
                        " is empty: it is declared as a [0] array, and ptxas rejects unsized "
                        "array parameters of kernels (\"Parameter to entry function cannot be an "
                        "incomplete array\")");
    if (p.empty_params.size() > 1 || p.empty_params.front() + 1 != p.params.size())
      reject(*p.fn, "parameter " + std::to_string(p.empty_params.front() + 1) +
                        " is empty: it is declared as a [0] array, which ptxas reads as an "
                        "unsized array and accepts only as the last parameter");
    if (nv.ptx_version < 60 || nv.sm < 30)
      reject(*p.fn, "the last parameter is empty: it is declared as a [0] array, which ptxas "
                    "reads as an unsized array parameter: that needs PTX ISA 6.0 and sm_30 or "
                    "later (this target writes .version " +
                        std::to_string(nv.ptx_version / 10) + "." +
                        std::to_string(nv.ptx_version % 10) + " and .target " + target_.cpu +
                        "; select e.g. -mcpu=sm_70)");
  }

private:
  std::string array(const FunctionDecl& fn, const std::string& what, uint64_t align, uint64_t size,
                    const std::string& name, bool is_return, Prototype& p) const {
    if (align > 128 && !(p.kernel && !is_return))
      reject(fn, what + " would be declared .align " + std::to_string(align) +
                     ", which ptxas rejects (the parameters and return value of a .func may be "
                     "aligned to 1, 2, 4, 8, 16, 32, 64 or 128 bytes; only a kernel's may be "
                     "aligned more)");
    if (size == 0) {
      if (is_return)
        p.empty_return = true;
      else
        p.empty_params.push_back(p.params.size());
    }
    if (!is_return) p.addParam(align, size);
    return ".param .align " + std::to_string(align) + " .b8 " + name + "[" + std::to_string(size) +
           "]";
  }

  /// A scalar: `.param .b32/.b64` for device functions and returns (integers narrower than 32
  /// bits promoted), the typed form for kernel parameters.
  std::string scalar(const FunctionDecl& fn, const std::string& what, const Type* c,
                     const std::string& name, bool kernel_param, Prototype& p) const {
    const DataModel& d = ctx_.data();
    if (kernel_param) {
      uint64_t bytes = c->kind == TypeKind::Int || c->kind == TypeKind::Enum
                           ? std::max(1u, (intBits(c, d) + 7) / 8)
                           : layout_.of(c).size;
      p.addParam(bytes, bytes);
    }
    if (c->kind == TypeKind::Pointer) {
      unsigned bits = unsigned(layout_.of(c).size) * 8u;
      if (!kernel_param) return ".param .b" + std::to_string(bits) + " " + name;
      std::string s = ".param .u" + std::to_string(bits) + " ";
      const NvptxKernelPointers kp = target_.nvptx().call.kernel_pointers;
      if (nvcl_ || kp == NvptxKernelPointers::AlignOne)
        s += pointerQualifiers(static_cast<const PointerType*>(c),
                               kp == NvptxKernelPointers::NvclPointeeAlign);
      return s + name;
    }
    if (c->kind == TypeKind::Float) {
      unsigned bits = unsigned(layout_.of(c).size) * 8u;
      return ".param ." + std::string(kernel_param ? "f" : "b") + std::to_string(bits) + " " + name;
    }
    unsigned bits = intBits(c, d);
    if (kernel_param) {
      if (bits == 1) return ".param .u8 " + name; // i1 kernel parameters are bytes
      if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        reject(fn, what + " has type '" + typeName(c, ctx_) +
                       "': " + std::string(target_.nvptx().call.backend) + " would declare it .u" +
                       std::to_string(bits) + ", which is not a PTX type (ptxas rejects it)");
      return ".param .u" + std::to_string(bits) + " " + name;
    }
    // promoteScalarArgumentSize: 32, 64, then 128 bits (a _BitInt of 65 to 127 bits, LLVM 22).
    if (bits > 64) p.b128 = true;
    return ".param .b" + std::to_string(bits <= 32 ? 32u : bits <= 64 ? 64u : 128u) + " " + name;
  }

  /// `.ptr [.global|.shared|.const] .align N ` of a kernel pointer parameter (N =
  /// getOpenCLAlignment of the pointee with LLVM 14, else the parameter's align attribute: 1).
  std::string pointerQualifiers(const PointerType* pt, bool pointee_align) const {
    std::string s = ".ptr ";
    switch (pt->address_space) {
    case 1:
      s += ".global ";
      break;
    case 3:
      s += ".shared ";
      break;
    case 4:
      s += ".const ";
      break;
    case 5: // LLVM 19 and later name the local space too
      if (!pointee_align) s += ".local ";
      break;
    default:
      break;
    }
    return s + ".align " +
           std::to_string(pointee_align ? ptxPointeeAlign(layout_, pt->pointee) : 1u) + " ";
  }

  void llvmPrototype(const FunctionDecl& fn, Prototype& p) {
    FunctionLowering fl = lowerFunction(ctx_, layout_, fn);
    if (fl.ret.kind != ArgKind::Ignore) p.ret = llvmValue(fn, fl.ret, nullptr, 0, p);
    for (size_t k = 0; k < fl.params.size(); ++k)
      p.params.push_back(llvmValue(fn, fl.params[k], &fl.params[k], k, p));
    // A variadic function's extra arguments: the generic address of their buffer.
    if (fl.variadic)
      p.params.push_back(".param .b" + std::string(target_.nvptx().is64 ? "64" : "32") + " " +
                         std::string(fn.name) + "_param_" + std::to_string(fl.params.size()));
  }

  /// LLVM 15 and later raise the alignment of a byte-array .param of a function with internal
  /// linkage (getFunctionParamOptimizedAlign): abikit reads no function bodies and takes the
  /// address of a static definition as not taken (docs/targets/nvptx.md).
  uint64_t localAlign(const Prototype& p, uint64_t align) const {
    const NvptxCallRules& r = target_.nvptx().call;
    if (r.local_array_align && p.fn->is_static && p.definition && !p.kernel)
      return std::max<uint64_t>(align, r.local_array_align);
    return align;
  }

  std::string llvmValue(const FunctionDecl& fn, const ArgLowering& a, const ArgLowering* named,
                        size_t index, Prototype& p) const {
    const std::string& name = a.parts.front().loc.param;
    const uint64_t size = a.parts.front().size;
    const std::string what = describe(named, index);
    if (a.kind == ArgKind::Indirect) {
      // byval: the object itself, at its byval alignment (LLVM 14: at least 4 for non-kernels).
      const NvptxCallRules& r = target_.nvptx().call;
      uint64_t align = p.kernel ? a.align : std::max<uint32_t>(a.align, r.byval_min_align);
      if (r.byval_ir_align) // LLVM 15 and later: at least the IR type's ABI alignment
        align = std::max<uint64_t>(align, ptxIrAlign(layout_, a.type));
      return array(fn, what, localAlign(p, align), size, name, false, p);
    }
    if (a.align) // a vector, __int128, half or returned aggregate: a byte array of the IR type
      return array(fn, what, localAlign(p, a.align), size, name, !named, p);
    return scalar(fn, what, stripTypedefs(a.type), name, p.kernel && named, p);
  }

  // ----- nvcc 13 ------------------------------------------------------------------------------

  /// Constructs nvcc 13 does not accept, or lays out differently than C does, anywhere in a
  /// value's type (nvcc compiles CUDA as C++, with EDG's layout rules; checked with nvcc 13).
  /// `inside` is true below the top level (in an aggregate).
  void nvccCheck(const FunctionDecl& fn, const std::string& what, const Type* t,
                 bool inside) const {
    const Type* c = stripTypedefs(t);
    switch (c->kind) {
    case TypeKind::Vector:
      reject(fn, what + " involves the vector type '" + typeName(t, ctx_) +
                     "': nvcc rejects vector_size vectors in device code and ignores "
                     "ext_vector_type");
    case TypeKind::Int:
      if (static_cast<const IntType*>(c)->is_bitint)
        reject(fn, what + " involves '" + typeName(t, ctx_) + "': nvcc 13 has no _BitInt");
      return;
    case TypeKind::Float: {
      FloatKind k = static_cast<const FloatType*>(c)->fkind;
      if (k == FloatKind::Fp16)
        reject(fn, what + " involves '" + typeName(t, ctx_) +
                       "': abikit does not model nvcc's __fp16 (use __half from cuda_fp16.h)");
      if (k == FloatKind::LongDouble && inside)
        reject(fn, what + " involves 'long double' inside an aggregate: nvcc lays it out as "
                          "the host's 16-byte long double, not as NVPTX's double");
      return;
    }
    case TypeKind::Array:
      nvccCheck(fn, what, static_cast<const ArrayType*>(c)->element, true);
      return;
    case TypeKind::Complex: {
      const Type* el = static_cast<const ComplexType*>(c)->element;
      if (stripTypedefs(el)->kind != TypeKind::Float)
        reject(fn, what + " involves '" + typeName(t, ctx_) +
                       "': nvcc accepts _Complex of floating types only");
      nvccCheck(fn, what, el, true);
      return;
    }
    case TypeKind::Record: {
      const RecordDecl& rd = *static_cast<const RecordType*>(c)->decl;
      if (layout_.recordType(rd).size == 0)
        reject(fn, what + " involves the empty " + rd.displayName(ctx_) +
                       ": nvcc compiles C++, where an empty struct has size 1, not 0 as in C");
      const RecordLayout& rl = layout_.of(rd);
      bool zero_array = false;
      for (const FieldDecl& f : rd.fields)
        if (auto* at = dyn<ArrayType>(stripTypedefs(f.type)))
          zero_array = zero_array || at->incomplete || layout_.of(at).size == 0;
      if (zero_array && rl.data_size != rl.size)
        reject(fn, what + " involves " + rd.displayName(ctx_) +
                       ", which has a flexible or zero-length array member and tail padding: "
                       "nvcc may then declare the .param without that padding (measured with "
                       "packed members), so abikit does not predict it");
      for (const FieldDecl& f : rd.fields) {
        if ((rd.packed || rd.max_field_align || f.packed) && f.bit_width == 0)
          reject(fn, what + " involves the packed " + rd.displayName(ctx_) +
                         " with a zero-width bit-field: nvcc ignores zero-width bit-fields in "
                         "packed records and under #pragma pack, C compilers align to them");
        if (declaredAlign(f.type) < naturalAlign(f.type))
          reject(fn, what + " involves " + rd.displayName(ctx_) + ", whose member '" +
                         std::string(f.name) +
                         "' has a typedef that lowers its alignment: nvcc "
                         "then declares the .param with the size of its own IR type, which "
                         "differs from sizeof");
        if (rd.max_field_align && f.isUnnamedBitField())
          reject(fn, what + " involves " + rd.displayName(ctx_) +
                         ", declared under #pragma pack with an unnamed bit-field: nvcc lets "
                         "it raise the record's alignment there, C compilers do not");
        if ((rd.packed || rd.max_field_align) && f.aligned)
          reject(fn, what + " involves " + rd.displayName(ctx_) +
                         ", a packed record (or one under #pragma pack) with an aligned "
                         "attribute on a field: nvcc and C compilers align that field "
                         "differently");
        nvccCheck(fn, what, f.type, true);
      }
      return;
    }
    case TypeKind::OpenCL:
      reject(fn, what + " has the OpenCL type '" + typeName(t, ctx_) + "'");
    default:
      return;
    }
  }

  /// The alignment of a member's declared type (of the element for a flexible array member).
  uint32_t declaredAlign(const Type* t) const {
    if (auto* at = dyn<ArrayType>(stripTypedefs(t)); at && at->incomplete)
      return declaredAlign(at->element);
    return layout_.of(t).align;
  }

  /// The alignment of a type with every typedef's alignment attribute ignored.
  uint32_t naturalAlign(const Type* t) const {
    const Type* c = stripTypedefs(t);
    if (auto* at = dyn<ArrayType>(c)) return naturalAlign(at->element);
    if (c->kind == TypeKind::Function) return 1;
    return layout_.of(c).align;
  }

  /// Whether a type mentions a vector anywhere, through pointers and function types too: nvcc
  /// rejects every device function whose type "contains a vector".
  bool mentionsVector(const Type* t, std::vector<const RecordDecl*>& seen) const {
    const Type* c = stripTypedefs(t);
    switch (c->kind) {
    case TypeKind::Vector:
      return true;
    case TypeKind::Pointer:
      return mentionsVector(static_cast<const PointerType*>(c)->pointee, seen);
    case TypeKind::Array:
      return mentionsVector(static_cast<const ArrayType*>(c)->element, seen);
    case TypeKind::Record: {
      const RecordDecl* rd = static_cast<const RecordType*>(c)->decl;
      if (std::find(seen.begin(), seen.end(), rd) != seen.end()) return false;
      seen.push_back(rd);
      for (const FieldDecl& f : rd->fields)
        if (mentionsVector(f.type, seen)) return true;
      return false;
    }
    case TypeKind::Function: {
      auto* ft = static_cast<const FunctionType*>(c);
      if (mentionsVector(ft->result, seen)) return true;
      for (const ParamDecl& p : ft->params)
        if (mentionsVector(p.type, seen)) return true;
      return false;
    }
    default:
      return false;
    }
  }

  void nvccPrototype(const FunctionDecl& fn, Prototype& p) {
    const FunctionType* ft = fn.type;
    if (ft->fkind == FunctionKind::Vertex) reject(fn, "vertex functions do not exist on NVPTX");
    std::vector<const RecordDecl*> seen;
    if (mentionsVector(ft, seen))
      reject(fn, "its type mentions a vector type: nvcc rejects device functions whose type "
                 "contains a vector (vector_size), even behind a pointer");
    if (ft->variadic) reject(fn, "nvcc does not compile variadic device functions");
    if (!ft->prototyped) reject(fn, "a function without a prototype (nvcc compiles C++)");
    if (fn.is_static)
      reject(fn, "nvcc names a static function after its C++ internal-linkage mangling "
                 "(_ZN..._INTERNAL_<hash>...), which abikit does not produce");
    const Type* rt = stripTypedefs(ft->result);
    if (rt->kind != TypeKind::Void) {
      if (p.kernel) reject(fn, "a kernel must return void");
      p.ret = nvccValue(fn, ft->result, nullptr, 0, "func_retval0", p);
    }
    std::string prefix = std::string(fn.name) + "_param_";
    for (size_t k = 0; k < ft->params.size(); ++k) {
      ArgLowering named; // only for describe()
      named.name = ft->params[k].name;
      const Type* t = adjustParameterType(ctx_, ft->params[k].type);
      p.params.push_back(nvccValue(fn, t, &named, k, prefix + std::to_string(k), p));
    }
  }

  std::string nvccValue(const FunctionDecl& fn, const Type* t, const ArgLowering* named,
                        size_t index, const std::string& name, Prototype& p) const {
    const std::string what = describe(named, index);
    nvccCheck(fn, what, t, false);
    const Type* c = stripTypedefs(t);
    switch (c->kind) {
    case TypeKind::Record:
    case TypeKind::Complex: {
      // Parameters and return values alike: the C alignment (a typedef's alignment included,
      // unlike clang, which classifies canonical types), no floor.
      TypeLayout tl = layout_.of(t);
      if (tl.align < naturalAlign(t))
        reject(fn, what + " has type '" + typeName(t, ctx_) +
                       "', a typedef that lowers the alignment of an aggregate: nvcc does not "
                       "always use the lowered alignment for the .param");
      uint64_t align = tl.align;
      // nvcc raises the alignment of a device function's aggregate parameter larger than 128
      // bytes to at least 4 (measured: 128 bytes keep their alignment, 129 get 4; kernels and
      // return values keep theirs).
      if (named && !p.kernel && tl.size > 128) align = std::max<uint64_t>(align, 4);
      return array(fn, what, align, tl.size, name, !named, p);
    }
    case TypeKind::Int:
    case TypeKind::Enum:
      if (intBits(c, ctx_.data()) == 128) {
        TypeLayout tl = layout_.of(t); // a typedef's alignment included
        return array(fn, what, tl.align, tl.size, name, !named, p);
      }
      return scalar(fn, what, c, name, p.kernel && named, p);
    case TypeKind::Float:
    case TypeKind::Pointer:
      layout_.of(c); // rejects the types the target lacks
      return scalar(fn, what, c, name, p.kernel && named, p);
    default:
      reject(fn, what + " has type '" + typeName(t, ctx_) + "', which cannot be passed");
    }
  }

  TypeContext& ctx_;
  const LayoutEngine& layout_;
  const PtxOptions& options_;
  const Target& target_;
  bool nvcl_;
};

} // namespace

std::string ptxPrototypes(TypeContext& ctx, const LayoutEngine& layout,
                          std::span<const FunctionDecl* const> functions,
                          const PtxOptions& options) {
  const Target& target = ctx.target();
  if (target.family != Family::NVPTX)
    throw Error(ErrorKind::Unsupported, "PTX prototypes need an NVPTX target (nvptx64-nvidia-cuda "
                                        "or nvptx-nvidia-cuda), not " +
                                            target.spelling);
  const NvptxTarget& nv = target.nvptx();
  if (options.style == PtxStyle::Nvcc) {
    if (!nv.is64)
      throw Error(ErrorKind::Unsupported,
                  "--ptx-style=nvcc: nvcc 13 produces 64-bit PTX only (use nvptx64-nvidia-cuda)");
    if (target.triple.find("-nvcl") != std::string::npos)
      throw Error(ErrorKind::Unsupported,
                  "--ptx-style=nvcc: nvcc has no OpenCL driver interface (use -nvidia-cuda)");
  }
  if (options.module && !nv.is64)
    throw Error(ErrorKind::Unsupported,
                "--module: ptxas 13 rejects 32-bit PTX (\".address_size 32\": \"32-Bit compilation "
                "is no longer supported\"); use nvptx64-nvidia-cuda");

  Printer printer(ctx, layout, options);
  std::vector<Prototype> protos;
  protos.reserve(functions.size());
  std::unordered_set<const FunctionDecl*> seen;
  seen.reserve(functions.size());
  for (const FunctionDecl* fn : functions) {
    if (!seen.insert(fn).second) continue;
    try {
      try {
        Prototype p = printer.prototype(*fn);
        if (options.module) printer.checkModule(p);
        protos.push_back(std::move(p));
      } catch (const Error& e) {
        // A rejection points at the declaration of the function it is about.
        if (e.hasSourcePosition() || fn->loc.line == 0) throw;
        unsupportedAt(ctx, fn->loc, e.message());
      }
    } catch (const Error& e) {
      if (!options.on_unanswered) throw;
      options.on_unanswered(e);
    }
  }

  std::string out;
  if (!options.module) {
    for (size_t i = 0; i < protos.size(); ++i) {
      if (i) out += "\n";
      const Prototype& p = protos[i];
      out += p.definition ? printer.header(p) : printer.declaration(p);
    }
    return out;
  }
  out = printer.moduleHead();
  bool any_decl = false;
  for (const Prototype& p : protos)
    if (!p.definition) {
      out += printer.declaration(p);
      any_decl = true;
    }
  if (any_decl) out += "\n";
  for (const Prototype& p : protos) {
    if (!p.definition) continue;
    if (!p.fn->is_static) // an external definition: llc notes its .globl
      out += "\t// .globl\t" + std::string(p.fn->name) + "\n";
    out += printer.header(p) + "{\n\n\n\tret;\n\n}\n";
  }
  return out;
}

} // namespace abikit
