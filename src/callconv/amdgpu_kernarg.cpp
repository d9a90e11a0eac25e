// AMDGPU kernel arguments (docs/targets/amdgpu.md "Kernel arguments"; reference/gpu.md §2.11-2.13).
//
// Explicit arguments: clang-14's AMDGPUABIInfo::classifyKernelArgumentType decides the IR type of
// each parameter (a transparent union is its first member, a single-element struct its element;
// HIP turns generic pointers into global ones; outside OpenCL an aggregate is passed `byref` with
// its C alignment, in OpenCL it is passed as its IR struct, with the IR struct's alignment). LLVM
// 14's HSA metadata streamer then lays them out in order (offset rounded up to the argument's
// alignment, size = DataLayout alloc size) and fills the keys: the value kind from the OpenCL base
// type name or the IR type, `.address_space` for every pointer-typed IR argument, `.pointee_align`
// (the parameter's `align`, 1 without one) for local pointers, `.access` from
// kernel_arg_access_qual, the type qualifiers from kernel_arg_type_qual, `.type_name` from
// kernel_arg_type (OpenCL only; clang's spelling, reproduced here), `.name` from the parameter.
//
// Hidden arguments: code object V4 as LLVM 14's MetadataStreamerV4, V5 as LLVM 14's preliminary
// MetadataStreamerV5 (observed with llc-14 --amdhsa-code-object-version=5), for a kernel that
// uses them (-mhidden-args=all, clang -O0) or one that does not (auto, clang -O1).
#include "abikit/kernarg.h"
#include "amdgpu_ir.h"

#include <algorithm>

namespace abikit {

std::string_view kernargValueKindName(KernargValueKind k) {
  switch (k) {
  case KernargValueKind::ByValue:
    return "by_value";
  case KernargValueKind::GlobalBuffer:
    return "global_buffer";
  case KernargValueKind::DynamicSharedPointer:
    return "dynamic_shared_pointer";
  case KernargValueKind::Sampler:
    return "sampler";
  case KernargValueKind::Image:
    return "image";
  case KernargValueKind::Pipe:
    return "pipe";
  case KernargValueKind::Queue:
    return "queue";
  case KernargValueKind::HiddenGlobalOffsetX:
    return "hidden_global_offset_x";
  case KernargValueKind::HiddenGlobalOffsetY:
    return "hidden_global_offset_y";
  case KernargValueKind::HiddenGlobalOffsetZ:
    return "hidden_global_offset_z";
  case KernargValueKind::HiddenNone:
    return "hidden_none";
  case KernargValueKind::HiddenPrintfBuffer:
    return "hidden_printf_buffer";
  case KernargValueKind::HiddenHostcallBuffer:
    return "hidden_hostcall_buffer";
  case KernargValueKind::HiddenDefaultQueue:
    return "hidden_default_queue";
  case KernargValueKind::HiddenCompletionAction:
    return "hidden_completion_action";
  case KernargValueKind::HiddenMultigridSyncArg:
    return "hidden_multigrid_sync_arg";
  case KernargValueKind::HiddenBlockCountX:
    return "hidden_block_count_x";
  case KernargValueKind::HiddenBlockCountY:
    return "hidden_block_count_y";
  case KernargValueKind::HiddenBlockCountZ:
    return "hidden_block_count_z";
  case KernargValueKind::HiddenGroupSizeX:
    return "hidden_group_size_x";
  case KernargValueKind::HiddenGroupSizeY:
    return "hidden_group_size_y";
  case KernargValueKind::HiddenGroupSizeZ:
    return "hidden_group_size_z";
  case KernargValueKind::HiddenRemainderX:
    return "hidden_remainder_x";
  case KernargValueKind::HiddenRemainderY:
    return "hidden_remainder_y";
  case KernargValueKind::HiddenRemainderZ:
    return "hidden_remainder_z";
  case KernargValueKind::HiddenGridDims:
    return "hidden_grid_dims";
  case KernargValueKind::HiddenHeapV1:
    return "hidden_heap_v1";
  case KernargValueKind::HiddenDynamicLdsSize:
    return "hidden_dynamic_lds_size";
  case KernargValueKind::HiddenPrivateBase:
    return "hidden_private_base";
  case KernargValueKind::HiddenSharedBase:
    return "hidden_shared_base";
  case KernargValueKind::HiddenQueuePtr:
    return "hidden_queue_ptr";
  }
  return "";
}

std::string_view kernargAddressSpaceName(KernargAddressSpace a) {
  switch (a) {
  case KernargAddressSpace::None:
    return "";
  case KernargAddressSpace::Private:
    return "private";
  case KernargAddressSpace::Global:
    return "global";
  case KernargAddressSpace::Constant:
    return "constant";
  case KernargAddressSpace::Local:
    return "local";
  case KernargAddressSpace::Generic:
    return "generic";
  case KernargAddressSpace::Region:
    return "region";
  }
  return "";
}

std::string_view kernargAccessName(KernargAccess a) {
  switch (a) {
  case KernargAccess::None:
    return "";
  case KernargAccess::ReadOnly:
    return "read_only";
  case KernargAccess::WriteOnly:
    return "write_only";
  case KernargAccess::ReadWrite:
    return "read_write";
  }
  return "";
}

namespace {

using detail::amdgpu::IrTypes;

constexpr uint32_t kNoAddressSpace = ~0u;

uint64_t alignUp(uint64_t v, uint64_t a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

// AMDGPUAS numbers and their metadata qualifier (MetadataStreamerV3::getAddressSpaceQualifier).
KernargAddressSpace qualifierOf(uint32_t as) {
  switch (as) {
  case 0:
    return KernargAddressSpace::Generic;
  case 1:
    return KernargAddressSpace::Global;
  case 2:
    return KernargAddressSpace::Region;
  case 3:
    return KernargAddressSpace::Local;
  case 4:
    return KernargAddressSpace::Constant;
  case 5:
    return KernargAddressSpace::Private;
  default:
    return KernargAddressSpace::None;
  }
}

bool isImage(OpenCLKind k) {
  return k <= OpenCLKind::Image3d;
}

const OpenCLType* asOpenCL(const Type* t) {
  return dyn<OpenCLType>(stripTypedefs(t));
}

/// The PointerType node of a pointer type as written (through typedefs), or nullptr.
const PointerType* asPointer(const Type* t) {
  return dyn<PointerType>(stripTypedefs(t));
}

/// Qualifiers of `t` including those on its typedef layers (QualType::isConstQualified and
/// friends look through sugar) and, for an array, those of its elements (an array type is as
/// qualified as its element type).
uint8_t allQuals(const Type* t) {
  uint8_t q = 0;
  while (t) {
    q |= t->quals;
    const Type* u = t->unqualified;
    if (u->kind == TypeKind::Typedef)
      t = static_cast<const TypedefType*>(u)->decl->underlying;
    else if (u->kind == TypeKind::Array)
      t = static_cast<const ArrayType*>(u)->element;
    else
      break;
  }
  return q;
}

// ----- OpenCL kernel parameter rules (clang Sema checkIsValidOpenCLKernelParameter) -----------

enum class ClParam : uint8_t { Valid, Invalid, Pointer, BadAddressSpace, Record, Msaa };

bool isMsaa(OpenCLKind k) {
  return k == OpenCLKind::Image2dMsaa || k == OpenCLKind::Image2dArrayMsaa ||
         k == OpenCLKind::Image2dMsaaDepth || k == OpenCLKind::Image2dArrayMsaaDepth;
}

/// isOpenCLSizeDependentType: a typedef chain through size_t, intptr_t, uintptr_t or ptrdiff_t.
bool isSizeDependent(const Type* t) {
  while (t) {
    const Type* u = t->unqualified;
    if (u->kind != TypeKind::Typedef) return false;
    const TypedefDecl* td = static_cast<const TypedefType*>(u)->decl;
    if (td->name == "size_t" || td->name == "intptr_t" || td->name == "uintptr_t" ||
        td->name == "ptrdiff_t")
      return true;
    t = td->underlying;
  }
  return false;
}

ClParam classifyClParam(const Type* t) {
  if (const PointerType* pt = asPointer(t)) {
    uint32_t as = pt->address_space;
    if (as == 0 || as == 5) return ClParam::BadAddressSpace;
    if (asPointer(pt->pointee)) {
      ClParam inner = classifyClParam(pt->pointee);
      if (inner == ClParam::BadAddressSpace || inner == ClParam::Invalid) return inner;
    }
    return ClParam::Pointer;
  }
  if (isSizeDependent(t)) return ClParam::Invalid;
  const Type* c = stripTypedefs(t);
  if (const OpenCLType* ot = dyn<OpenCLType>(c)) {
    if (isMsaa(ot->okind)) return ClParam::Msaa;
    if (isImage(ot->okind)) return ClParam::Pointer;
    if (ot->okind == OpenCLKind::Event || ot->okind == OpenCLKind::ReserveId)
      return ClParam::Invalid;
    return ClParam::Valid;
  }
  if (auto* it = dyn<IntType>(c); it && it->ikind == IntKind::Bool && !it->is_bitint)
    return ClParam::Invalid;
  if (c->kind == TypeKind::Record) return ClParam::Record;
  return ClParam::Valid;
}

std::string clTypeWord(const Type* t, const TypeContext& ctx) {
  return "'" + typeName(t, ctx) + "'";
}

void checkOpenCLParam(const TypeContext& ctx, const ParamDecl& p) {
  const Type* t = p.type;
  std::string what = p.name.empty() ? "a parameter" : "parameter '" + std::string(p.name) + "'";
  switch (classifyClParam(t)) {
  case ClParam::Valid:
  case ClParam::Pointer:
    return;
  case ClParam::BadAddressSpace:
    unsupportedAt(ctx, p.loc,
                  what +
                      ": pointer arguments to OpenCL kernels must point into "
                      "'__global', '__constant' or '__local' memory (clang-14 rejects " +
                      clTypeWord(t, ctx) + ")");
  case ClParam::Invalid:
    unsupportedAt(ctx, p.loc,
                  what + ": " + clTypeWord(t, ctx) +
                      " cannot be the type of an OpenCL kernel parameter (bool, size_t, "
                      "ptrdiff_t, intptr_t, uintptr_t, event_t and reserve_id_t are not "
                      "allowed; clang-14 rejects it)");
  case ClParam::Msaa:
    unsupportedAt(ctx, p.loc,
                  what + ": " + clTypeWord(t, ctx) +
                      " needs cl_khr_gl_msaa_sharing, which clang-14 does not support "
                      "for amdgcn (it rejects the type)");
  case ClParam::Record:
    break;
  }
  // Records: every field, recursively, must itself be a valid by-value parameter.
  std::vector<const RecordDecl*> stack{static_cast<const RecordType*>(stripTypedefs(t))->decl};
  while (!stack.empty()) {
    const RecordDecl* rd = stack.back();
    stack.pop_back();
    for (const FieldDecl& fd : rd->fields) {
      switch (classifyClParam(fd.type)) {
      case ClParam::Valid:
        continue;
      case ClParam::Record:
        stack.push_back(static_cast<const RecordType*>(stripTypedefs(fd.type))->decl);
        continue;
      case ClParam::Pointer:
      case ClParam::BadAddressSpace:
      case ClParam::Msaa:
        unsupportedAt(ctx, p.loc,
                      what + ": OpenCL kernel parameters of " +
                          std::string(rd->is_union ? "union" : "struct") +
                          " type may not contain pointers (field '" + std::string(fd.name) +
                          "'; clang-14 rejects it)");
      case ClParam::Invalid:
        unsupportedAt(ctx, p.loc,
                      what + ": " + clTypeWord(t, ctx) +
                          " cannot be the type of an OpenCL kernel parameter: field '" +
                          std::string(fd.name) + "' has type " + clTypeWord(fd.type, ctx) +
                          " (clang-14 rejects it)");
      }
    }
  }
}

// ----- kernel_arg_type: clang's spelling of the parameter type ------------------------------

std::string addressSpaceWord(uint32_t as) {
  switch (as) {
  case 1:
    return "__global";
  case 3:
    return "__local";
  case 4:
    return "__constant";
  case 5:
    return "__private";
  default:
    return "";
  }
}

/// Qualifiers as clang prints them: const, volatile, restrict, then the address space.
std::string qualWords(uint8_t quals, uint32_t as) {
  std::string s;
  auto add = [&](std::string_view w) {
    if (w.empty()) return;
    if (!s.empty()) s += ' ';
    s += w;
  };
  if (quals & kQualConst) add("const");
  if (quals & kQualVolatile) add("volatile");
  if (quals & kQualRestrict) add("restrict");
  if (as != kNoAddressSpace) add(addressSpaceWord(as));
  return s;
}

std::string withDecl(std::string base, const std::string& decl) {
  if (decl.empty()) return base;
  return base + (decl[0] == '[' || decl[0] == '(' ? "" : " ") + decl;
}

std::string intSpelling(const IntType* it) {
  if (it->is_bitint)
    return std::string(it->is_signed ? "" : "unsigned ") + "_BitInt(" + std::to_string(it->bits) +
           ")";
  // clang prints _Bool as `bool` in kernel argument type names; the rest as spelt in C.
  if (it->ikind == IntKind::Bool) return "bool";
  return intKindName(it->ikind);
}

std::string clSpell(const Type* t, uint8_t extra_quals, uint32_t as, std::string decl,
                    const TypeContext& ctx) {
  const uint8_t quals = uint8_t(t->quals | extra_quals);
  const Type* u = t->unqualified;
  switch (u->kind) {
  case TypeKind::Pointer: {
    auto* pt = static_cast<const PointerType*>(u);
    std::string inner = "*";
    std::string q = qualWords(quals, as);
    if (!q.empty()) {
      inner += q;
      if (!decl.empty()) inner += ' ';
    }
    inner += decl;
    TypeKind pk = pt->pointee->unqualified->kind;
    if (pk == TypeKind::Array || pk == TypeKind::Function) inner = "(" + inner + ")";
    return clSpell(pt->pointee, 0, pt->address_space, std::move(inner), ctx);
  }
  case TypeKind::Array: {
    auto* at = static_cast<const ArrayType*>(u);
    std::string dim = at->incomplete ? "[]" : "[" + std::to_string(at->count) + "]";
    return clSpell(at->element, quals, as, decl + dim, ctx);
  }
  default:
    break;
  }
  std::string base;
  switch (u->kind) {
  case TypeKind::Int:
    base = intSpelling(static_cast<const IntType*>(u));
    break;
  case TypeKind::OpenCL: {
    auto* ot = static_cast<const OpenCLType*>(u);
    if (ot->okind == OpenCLKind::Pipe)
      base = "pipe " + clSpell(ot->pipe_element, 0, kNoAddressSpace, "", ctx);
    else
      base = openclTypeName(ot->okind); // without the access qualifier
    break;
  }
  default: // typedef names, records, enums, floats, vectors, void: as abikit spells them
    base = typeName(u, ctx);
  }
  std::string q = qualWords(quals, as);
  return withDecl(q.empty() ? base : q + " " + base, decl);
}

/// No typedef anywhere in the type (clang's QualType::isCanonical).
bool isCanonical(const Type* t) {
  const Type* u = t->unqualified;
  switch (u->kind) {
  case TypeKind::Typedef:
    return false;
  case TypeKind::Pointer:
    return isCanonical(static_cast<const PointerType*>(u)->pointee);
  case TypeKind::Array:
    return isCanonical(static_cast<const ArrayType*>(u)->element);
  case TypeKind::Vector:
    return isCanonical(static_cast<const VectorType*>(u)->element);
  case TypeKind::Complex:
    return isCanonical(static_cast<const ComplexType*>(u)->element);
  case TypeKind::Atomic:
    return isCanonical(static_cast<const AtomicType*>(u)->value);
  default:
    return true;
  }
}

/// CodeGenFunction's getTypeSpelling: the unqualified type as clang prints it, with "unsigned T"
/// shortened to "uT" and "signed T" to "T" when the type is written without typedefs.
std::string typeSpelling(const Type* t, uint32_t as, const TypeContext& ctx) {
  std::string s = clSpell(t->unqualified, 0, as, "", ctx);
  if (isCanonical(t)) {
    if (s.rfind("unsigned ", 0) == 0) return "u" + s.substr(9);
    if (s.rfind("signed ", 0) == 0) return s.substr(7);
  }
  return s;
}

const Type* pipeElement(const Type* t) {
  const OpenCLType* ot = asOpenCL(t);
  return ot && ot->okind == OpenCLKind::Pipe ? ot->pipe_element : nullptr;
}

// ----- hidden arguments ---------------------------------------------------------------------

struct HiddenBuilder {
  KernelArguments& out;
  uint64_t offset;
  uint32_t max_align = 1;

  void emit(KernargValueKind kind, uint64_t size, uint32_t align, bool pointer) {
    KernelArgument a;
    a.hidden = true;
    a.value_kind = kind;
    a.size = size;
    a.align = align;
    offset = alignUp(offset, align);
    a.offset = offset;
    offset += size;
    if (pointer) a.address_space = KernargAddressSpace::Global;
    max_align = std::max(max_align, align);
    out.args.push_back(std::move(a));
  }
  void skip(uint64_t n) { offset += n; }
};

// MetadataStreamerV4::emitHiddenKernelArgs with the implicit-argument byte count 56: the module's
// printf format metadata, a hostcall user and enqueue_kernel are not visible in declarations, so
// their slots are hidden_none.
void hiddenV4(KernelArguments& out) {
  HiddenBuilder b{out, out.explicit_size};
  b.emit(KernargValueKind::HiddenGlobalOffsetX, 8, 8, false);
  b.emit(KernargValueKind::HiddenGlobalOffsetY, 8, 8, false);
  b.emit(KernargValueKind::HiddenGlobalOffsetZ, 8, 8, false);
  b.emit(KernargValueKind::HiddenNone, 8, 8, true);
  b.emit(KernargValueKind::HiddenNone, 8, 8, true);
  b.emit(KernargValueKind::HiddenNone, 8, 8, true);
  b.emit(KernargValueKind::HiddenMultigridSyncArg, 8, 8, true);
}

// LLVM 14's preliminary MetadataStreamerV5 (observed): the V5 kinds at the V5 offsets, laid out
// from the end of the explicit arguments with each entry's own alignment (so the block count
// starts 4-aligned); printf, hostcall, heap, enqueue and dynamic-LDS slots are skipped, private
// and shared aperture bases are listed for GFX8 processors, the queue pointer unless the kernel
// is known not to need it (inferred at -O1, not at -O0).
void hiddenV5(KernelArguments& out, bool queue_ptr, bool apertures) {
  HiddenBuilder b{out, out.explicit_size};
  b.emit(KernargValueKind::HiddenBlockCountX, 4, 4, false);
  b.emit(KernargValueKind::HiddenBlockCountY, 4, 4, false);
  b.emit(KernargValueKind::HiddenBlockCountZ, 4, 4, false);
  b.emit(KernargValueKind::HiddenGroupSizeX, 2, 2, false);
  b.emit(KernargValueKind::HiddenGroupSizeY, 2, 2, false);
  b.emit(KernargValueKind::HiddenGroupSizeZ, 2, 2, false);
  b.emit(KernargValueKind::HiddenRemainderX, 2, 2, false);
  b.emit(KernargValueKind::HiddenRemainderY, 2, 2, false);
  b.emit(KernargValueKind::HiddenRemainderZ, 2, 2, false);
  b.skip(16); // tool correlation id, reserved
  b.emit(KernargValueKind::HiddenGlobalOffsetX, 8, 8, false);
  b.emit(KernargValueKind::HiddenGlobalOffsetY, 8, 8, false);
  b.emit(KernargValueKind::HiddenGlobalOffsetZ, 8, 8, false);
  b.emit(KernargValueKind::HiddenGridDims, 2, 2, false);
  b.skip(6); // reserved
  b.skip(8); // printf buffer (only when the module uses printf)
  b.skip(8); // hostcall buffer
  b.emit(KernargValueKind::HiddenMultigridSyncArg, 8, 8, true);
  b.skip(8);  // heap
  b.skip(16); // default queue, completion action (only for enqueue_kernel users)
  b.skip(72); // dynamic LDS size, reserved
  if (apertures) {
    b.emit(KernargValueKind::HiddenPrivateBase, 4, 4, false);
    b.emit(KernargValueKind::HiddenSharedBase, 4, 4, false);
  } else {
    b.skip(8);
  }
  if (queue_ptr) b.emit(KernargValueKind::HiddenQueuePtr, 8, 8, true);
}

/// AMDGPUABIInfo::classifyKernelArgumentType and the streamer's view of the resulting IR
/// argument: size, alignment, value kind, address space, access, pointee alignment.
struct IrArg {
  bool byref = false;   // an aggregate passed byref (outside OpenCL)
  bool coerced = false; // the IR type is not the parameter's converted type
};

IrArg classify(const LayoutEngine& layout, IrTypes& ir, const Type* declared, Language lang,
               KernelArgument& a) {
  IrArg how;
  const bool opencl = lang == Language::OpenCL;
  const bool hip = lang == Language::HIP;
  auto pointer = [&](uint32_t as, uint32_t bits) {
    if (hip && as == 0) as = 1; // HIP: generic pointers become global ones
    a.size = a.align = bits / 8;
    a.address_space = qualifierOf(as);
    a.value_kind =
        as == 3 ? KernargValueKind::DynamicSharedPointer : KernargValueKind::GlobalBuffer;
    if (as == 3) a.pointee_align = 1;
  };
  const Type* t = detail::amdgpu::passedType(declared);
  const Type* c = stripTypedefs(t);
  if (c->kind == TypeKind::Array || c->kind == TypeKind::Function) {
    // Adjusted to a generic pointer (outside OpenCL, which rejects pointers to private memory).
    pointer(0, 64);
    how.coerced = hip;
    return how;
  }
  if (const Type* elem = detail::amdgpu::singleElement(layout, t)) {
    t = elem;
    c = stripTypedefs(t);
    how.coerced = true;
  }
  if (hip && c->kind == TypeKind::Record && detail::amdgpu::isEmptyRecord(c))
    throw Error(ErrorKind::Unsupported,
                "an empty struct in HIP: how clang passes an empty C++ class is not modelled");
  if (const PointerType* pt = dyn<PointerType>(c)) {
    uint32_t as = hip && pt->address_space == 0 ? 1 : pt->address_space;
    uint32_t bits = IrTypes::pointerBits(as);
    if (!bits) (void)ir.align(c); // throws, naming the address space
    pointer(pt->address_space, bits);
    how.coerced = how.coerced || as != pt->address_space;
    return how;
  }
  if (const OpenCLType* ot = dyn<OpenCLType>(c)) {
    auto [as, bits] = IrTypes::openclPointer(ot->okind);
    pointer(as, bits);
    if (isImage(ot->okind)) a.value_kind = KernargValueKind::Image;
    if (ot->okind == OpenCLKind::Sampler) a.value_kind = KernargValueKind::Sampler;
    if (ot->okind == OpenCLKind::Queue) a.value_kind = KernargValueKind::Queue;
    if (ot->okind == OpenCLKind::Pipe) a.value_kind = KernargValueKind::Pipe;
    if (isImage(ot->okind) || ot->okind == OpenCLKind::Pipe)
      a.access = ot->access == AccessQual::WriteOnly   ? KernargAccess::WriteOnly
                 : ot->access == AccessQual::ReadWrite ? KernargAccess::ReadWrite
                                                       : KernargAccess::ReadOnly;
    return how;
  }
  if (c->kind == TypeKind::Void) throw Error(ErrorKind::Unsupported, "type 'void'");
  if (auto* f = dyn<FloatType>(c);
      f && f->fkind == FloatKind::LongDouble && hip && layout.of(c).size != 8) {
    // HIP lays long double out as the host's x87 type but its IR type on amdgcn is double:
    // the kernel argument is an 8-byte double (clang-14, verified).
    a.size = a.align = 8;
    a.value_kind = KernargValueKind::ByValue;
    return how;
  }
  a.size = layout.of(c).size;
  // Outside OpenCL an aggregate is byref with its C alignment; otherwise the IR type's ABI
  // alignment (an OpenCL struct: its IR struct's).
  how.byref = isAggregate(c) && !opencl;
  a.align = how.byref ? layout.of(t).align : ir.align(c);
  a.value_kind = KernargValueKind::ByValue;
  return how;
}

} // namespace

// ----- explicit arguments -------------------------------------------------------------------

KernelArguments computeKernelArguments(const LayoutEngine& layout, const FunctionDecl& kernel,
                                       const KernargOptions& options) {
  const TypeContext& ctx = layout.context();
  const Target& target = ctx.target();
  if (target.family != Family::AMDGPU)
    throw Error(ErrorKind::Unsupported, "kernel arguments are described for amdgcn targets only");
  const FunctionType* ft = kernel.type;
  const std::string kname = "kernel '" + std::string(kernel.name) + "'";
  if (ft->fkind != FunctionKind::Kernel)
    unsupportedAt(ctx, kernel.loc,
                  "'" + std::string(kernel.name) +
                      "' is not a kernel (declare it with __kernel, __global__ or "
                      "__attribute__((amdgpu_kernel)))");
  if (stripTypedefs(ft->result)->kind != TypeKind::Void)
    unsupportedAt(ctx, kernel.loc,
                  kname + " must return void (clang-14 rejects other return types)");
  if (ft->variadic) unsupportedAt(ctx, kernel.loc, kname + " cannot be variadic");
  rejectAtomicValues(ctx, kernel);
  const Language lang = ctx.language();
  if (lang == Language::CUDA)
    unsupportedAt(ctx, kernel.loc,
                  kname + ": CUDA source for an amdgcn target (write HIP, a .hip file)");
  const bool opencl = lang == Language::OpenCL;

  IrTypes ir(layout);
  KernelArguments out;
  out.name = kernel.name;
  if (opencl) {
    out.language = "OpenCL C";
    const unsigned v = ctx.languageMode().opencl_version;
    out.language_version = {v / 100, v / 10 % 10};
  }
  uint64_t offset = 0;
  uint32_t max_align = 1;
  for (const ParamDecl& p : ft->params) {
    const std::string what =
        p.name.empty() ? "a parameter" : "parameter '" + std::string(p.name) + "'";
    if (opencl) checkOpenCLParam(ctx, p);
    KernelArgument a;
    a.type = p.type;
    try {
      IrArg how = classify(layout, ir, p.type, lang, a);
      if (options.arg_names && !p.name.empty()) {
        // OpenCL: kernel_arg_name (-cl-kernel-arg-info). Elsewhere the IR argument's name when
        // clang keeps value names: "<name>.coerce" for an argument whose IR type is not the
        // parameter's (a single-element struct, a HIP pointer made global), none for a byref
        // aggregate.
        a.name = std::string(p.name);
        if (!opencl) {
          if (how.byref)
            a.name.clear();
          else if (how.coerced)
            a.name += ".coerce";
        }
      }
    } catch (const Error& e) {
      if (e.hasSourcePosition()) throw;
      unsupportedAt(ctx, p.loc, kname + ", " + what + ": " + e.message());
    }

    if (opencl) {
      // kernel_arg_type, kernel_arg_type_qual.
      if (const PointerType* pt = asPointer(p.type)) {
        const Type* pointee = pt->pointee;
        bool array_pointee = stripTypedefs(pointee)->kind == TypeKind::Array;
        a.type_name =
            typeSpelling(pointee, array_pointee ? pt->address_space : kNoAddressSpace, ctx) + "*";
        uint8_t pq = allQuals(pointee);
        a.is_restrict = allQuals(p.type) & kQualRestrict;
        a.is_const = (pq & kQualConst) || pt->address_space == 4;
        a.is_volatile = pq & kQualVolatile;
      } else if (const Type* elem = pipeElement(p.type)) {
        a.type_name = typeSpelling(elem, kNoAddressSpace, ctx);
        a.is_pipe = true;
      } else {
        a.type_name = typeSpelling(p.type, kNoAddressSpace, ctx);
      }
    }
    offset = alignUp(offset, a.align);
    a.offset = offset;
    offset += a.size;
    // LLVM keeps kernel-argument offsets and the segment size in 32 bits.
    if (offset > UINT32_MAX)
      unsupportedAt(ctx, p.loc, kname + ", " + what + ": the kernarg segment would exceed 4 GiB");
    max_align = std::max(max_align, a.align);
    out.args.push_back(std::move(a));
  }
  out.explicit_count = out.args.size();
  out.explicit_size = offset;

  // Hidden arguments and the segment (AMDGPUSubtarget::getKernArgSegmentSize: with implicit
  // arguments the size is alignTo(explicit, 8) + 56 and the alignment at least 8; the size is
  // rounded up to 4).
  const AmdgpuTarget& amd = target.amdgpu();
  const bool implicit = options.hidden == HiddenArgs::All;
  if (amd.code_object_version >= 5) {
    if (options.hidden != HiddenArgs::None) {
      bool gfx8 = amd.processor && amd.processor->generation == "GFX8";
      hiddenV5(out, implicit, gfx8);
      out.notes.push_back(
          "code object V5 as LLVM 14 writes it (preliminary): the hidden arguments are listed at "
          "their V5 offsets but .kernarg_segment_size counts " +
          std::string(implicit ? "only 56 implicit bytes" : "no implicit bytes") +
          " (reference/gpu.md section 2.12.4)");
    }
  } else if (implicit) {
    hiddenV4(out);
  }
  uint64_t total = offset;
  if (implicit) {
    total = alignUp(offset, 8) + 56;
    max_align = std::max<uint32_t>(max_align, 8);
  }
  out.kernarg_segment_size = alignUp(total, 4);
  out.kernarg_segment_align = std::max<uint32_t>(max_align, 4);
  if (options.hidden == HiddenArgs::Auto)
    out.notes.push_back(
        "hidden arguments: the kernel body is assumed not to use them (what llc-14 infers at "
        "-O1 for such a kernel); a kernel that calls printf, enqueue_kernel, reads the global "
        "offset or calls a function that is not inlined gets them: use -mhidden-args=all");
  else if (options.hidden == HiddenArgs::All && amd.code_object_version < 5)
    out.notes.push_back(
        "hidden arguments as for a kernel that uses them (llc-14 at -O0); the printf-buffer and "
        "enqueue slots are hidden_none because a module's printf use and enqueue_kernel calls "
        "are not visible in declarations");
  return out;
}

} // namespace abikit
