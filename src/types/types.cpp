// The type model: arena, interning, and C spelling of types.
#include "abikit/types.h"

#include "abikit/diag.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace abikit {

// ----- arena ----------------------------------------------------------------------------------

struct TypeContext::Arena {
  static constexpr size_t kBlock = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks;
  char* cur = nullptr;
  size_t left = 0;
  struct Dtor {
    void* p;
    void (*fn)(void*);
  };
  std::vector<Dtor> dtors;

  void* allocate(size_t size, size_t align) {
    size_t pad = (align - (reinterpret_cast<uintptr_t>(cur) & (align - 1))) & (align - 1);
    if (!cur || pad + size > left) {
      size_t n = std::max(kBlock, size + align);
      blocks.emplace_back(new char[n]);
      cur = blocks.back().get();
      left = n;
      pad = (align - (reinterpret_cast<uintptr_t>(cur) & (align - 1))) & (align - 1);
    }
    char* p = cur + pad;
    cur = p + size;
    left -= pad + size;
    return p;
  }
  ~Arena() {
    for (auto it = dtors.rbegin(); it != dtors.rend(); ++it) it->fn(it->p);
  }
};

template <class T> T* TypeContext::make() {
  void* mem = arena_->allocate(sizeof(T), alignof(T));
  T* obj = new (mem) T();
  if constexpr (!std::is_trivially_destructible_v<T>)
    arena_->dtors.push_back({obj, [](void* p) { static_cast<T*>(p)->~T(); }});
  return obj;
}

TypeContext::TypeContext(const Target& target, LanguageMode mode)
    : target_(&target), mode_(mode), data_(dataModelFor(target, mode.lang)),
      arena_(std::make_unique<Arena>()) {
  file_index_.emplace(files_.emplace_back("<built-in>"), 0);
  if (mode.lang == Language::OpenCL) {
    array_param_as_ = openclAddressSpace(target, "__private");
    default_pointee_as_ = openclGenericAddressSpace(target, mode)
                              ? openclAddressSpace(target, "__generic")
                              : array_param_as_;
    string_literal_as_ = openclAddressSpace(target, "__constant");
  }
}

// A record and its type: recordType() of a record created here needs no interning.
struct TypeContext::RecordBlock {
  RecordDecl decl;
  RecordType type;
};

TypeContext::~TypeContext() {
  // The records are destroyed here, not through the arena's list of destructors.
  for (RecordBlock* b : records_) b->~RecordBlock();
}

void TypeContext::InternTable::insert(uint64_t k0, uint64_t k1, const Type* t) {
  if ((count_ + 1) * 4 > slots_.size() * 3) {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.type) continue;
      size_t i = index(s.k0, s.k1) & mask;
      while (slots_[i].type) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  size_t mask = slots_.size() - 1;
  size_t i = index(k0, k1) & mask;
  while (slots_[i].type) i = (i + 1) & mask;
  slots_[i] = Slot{k0, k1, t};
  ++count_;
}

std::string_view TypeContext::intern(std::string_view s) {
  if (s.empty()) return {};
  char* p = static_cast<char*>(arena_->allocate(s.size(), 1));
  std::memcpy(p, s.data(), s.size());
  return {p, s.size()};
}

uint32_t TypeContext::addFile(std::string_view path) {
  auto it = file_index_.find(path);
  if (it != file_index_.end()) return it->second;
  uint32_t id = uint32_t(files_.size());
  file_index_.emplace(files_.emplace_back(path), id);
  return id;
}

std::string_view TypeContext::fileName(uint32_t id) const {
  return id < files_.size() ? std::string_view(files_[id]) : std::string_view("<unknown>");
}

// ----- interned types -------------------------------------------------------------------------

namespace {
enum : uint64_t {
  kTagPtr = 1,
  kTagArr,
  kTagIncArr,
  kTagVec,
  kTagCplx,
  kTagQual,
  kTagBitInt,
  kTagCL,
  kTagAtomic
};
uint64_t tag(uint64_t t, uint64_t extra) {
  return (t << 56) | (extra & 0x00FFFFFFFFFFFFFFull);
}
uint64_t ptrKey(const void* p) {
  return reinterpret_cast<uintptr_t>(p);
}
} // namespace

const Type* TypeContext::voidType() {
  if (!void_) {
    Type* t = make<Type>();
    t->kind = TypeKind::Void;
    t->unqualified = t;
    void_ = t;
  }
  return void_;
}

static bool kindIsSigned(IntKind k, const DataModel& d) {
  switch (k) {
  case IntKind::Char:
    return d.char_signed;
  case IntKind::SChar:
  case IntKind::Short:
  case IntKind::Int:
  case IntKind::Long:
  case IntKind::LongLong:
  case IntKind::Int128:
    return true;
  default:
    return false;
  }
}

const IntType* TypeContext::intType(IntKind k) {
  const IntType*& slot = ints_[size_t(k)];
  if (!slot) {
    IntType* t = make<IntType>();
    t->unqualified = t;
    t->ikind = k;
    t->is_signed = kindIsSigned(k, data_);
    slot = t;
  }
  return slot;
}

const IntType* TypeContext::bitIntType(unsigned bits, bool is_signed) {
  auto key = std::make_pair(tag(kTagBitInt, is_signed), uint64_t(bits));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const IntType*>(it);
  IntType* t = make<IntType>();
  t->unqualified = t;
  t->ikind = is_signed ? IntKind::Int : IntKind::UInt;
  t->is_signed = is_signed;
  t->is_bitint = true;
  t->bits = uint32_t(bits);
  interned_.insert(key.first, key.second, t);
  return t;
}

const FloatType* TypeContext::floatType(FloatKind k) {
  const FloatType*& slot = floats_[size_t(k)];
  if (!slot) {
    FloatType* t = make<FloatType>();
    t->unqualified = t;
    t->fkind = k;
    slot = t;
  }
  return slot;
}

const PointerType* TypeContext::pointerTo(const Type* pointee, uint32_t as) {
  if (as == 0 && pointee->kind == TypeKind::Record && pointee->quals == 0) {
    auto* r = static_cast<const RecordType*>(pointee);
    if (!r->pointer) {
      PointerType* t = make<PointerType>();
      t->unqualified = t;
      t->pointee = pointee;
      r->pointer = t;
    }
    return r->pointer;
  }
  auto key = std::make_pair(tag(kTagPtr, as), ptrKey(pointee));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const PointerType*>(it);
  PointerType* t = make<PointerType>();
  t->unqualified = t;
  t->pointee = pointee;
  t->address_space = as;
  t->to_function = pointee && stripTypedefs(pointee)->kind == TypeKind::Function;
  interned_.insert(key.first, key.second, t);
  return t;
}

const ArrayType* TypeContext::arrayOf(const Type* element, uint64_t count) {
  // The count does not fit in the tag; chain through a per-element map keyed by count.
  auto key = std::make_pair(tag(kTagArr, count), ptrKey(element));
  if (count >> 56) key = std::make_pair(tag(kTagArr, 0x00FFFFFFFFFFFFFFull), ptrKey(element));
  const Type* it = interned_.find(key.first, key.second);
  if (it && static_cast<const ArrayType*>(it)->count == count)
    return static_cast<const ArrayType*>(it);
  ArrayType* t = make<ArrayType>();
  t->unqualified = t;
  t->element = element;
  t->count = count;
  if (!it) interned_.insert(key.first, key.second, t);
  return t;
}

const ArrayType* TypeContext::incompleteArrayOf(const Type* element) {
  auto key = std::make_pair(tag(kTagIncArr, 0), ptrKey(element));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const ArrayType*>(it);
  ArrayType* t = make<ArrayType>();
  t->unqualified = t;
  t->element = element;
  t->incomplete = true;
  interned_.insert(key.first, key.second, t);
  return t;
}

const VectorType* TypeContext::vectorOf(const Type* element, uint32_t count, VectorKind vk) {
  auto key = std::make_pair(tag(kTagVec, (uint64_t(vk) << 32) | count), ptrKey(element));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const VectorType*>(it);
  VectorType* t = make<VectorType>();
  t->unqualified = t;
  t->element = element;
  t->count = count;
  t->vkind = vk;
  interned_.insert(key.first, key.second, t);
  return t;
}

const ComplexType* TypeContext::complexOf(const Type* element) {
  auto key = std::make_pair(tag(kTagCplx, 0), ptrKey(element));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const ComplexType*>(it);
  ComplexType* t = make<ComplexType>();
  t->unqualified = t;
  t->element = element;
  interned_.insert(key.first, key.second, t);
  return t;
}

const AtomicType* TypeContext::atomicOf(const Type* value) {
  auto key = std::make_pair(tag(kTagAtomic, 0), ptrKey(value));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const AtomicType*>(it);
  AtomicType* t = make<AtomicType>();
  t->unqualified = t;
  t->value = value;
  interned_.insert(key.first, key.second, t);
  return t;
}

const OpenCLType* TypeContext::openclType(OpenCLKind k, AccessQual access,
                                          const Type* pipe_element) {
  auto key =
      std::make_pair(tag(kTagCL, (uint64_t(k) << 8) | uint64_t(access)), ptrKey(pipe_element));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const OpenCLType*>(it);
  OpenCLType* t = make<OpenCLType>();
  t->unqualified = t;
  t->okind = k;
  t->access = access;
  t->pipe_element = pipe_element;
  interned_.insert(key.first, key.second, t);
  return t;
}

const Type* TypeContext::qualified(const Type* t, uint8_t quals) {
  uint8_t q = uint8_t(t->quals | quals);
  if (q == t->quals) return t;
  const Type* base = t->unqualified;
  auto key = std::make_pair(tag(kTagQual, q), ptrKey(base));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return it;
  Type* copy = nullptr;
  switch (base->kind) {
  case TypeKind::Void:
    copy = make<Type>();
    copy->kind = TypeKind::Void;
    break;
  case TypeKind::Int: {
    auto* c = make<IntType>();
    auto* s = static_cast<const IntType*>(base);
    c->ikind = s->ikind;
    c->is_signed = s->is_signed;
    c->is_bitint = s->is_bitint;
    c->bits = s->bits;
    copy = c;
    break;
  }
  case TypeKind::Float: {
    auto* c = make<FloatType>();
    c->fkind = static_cast<const FloatType*>(base)->fkind;
    copy = c;
    break;
  }
  case TypeKind::Pointer: {
    auto* c = make<PointerType>();
    auto* s = static_cast<const PointerType*>(base);
    c->pointee = s->pointee;
    c->address_space = s->address_space;
    c->to_function = s->to_function;
    copy = c;
    break;
  }
  case TypeKind::Array: {
    auto* c = make<ArrayType>();
    auto* s = static_cast<const ArrayType*>(base);
    c->element = s->element;
    c->count = s->count;
    c->incomplete = s->incomplete;
    copy = c;
    break;
  }
  case TypeKind::Vector: {
    auto* c = make<VectorType>();
    auto* s = static_cast<const VectorType*>(base);
    c->element = s->element;
    c->count = s->count;
    c->vkind = s->vkind;
    copy = c;
    break;
  }
  case TypeKind::Complex: {
    auto* c = make<ComplexType>();
    c->element = static_cast<const ComplexType*>(base)->element;
    copy = c;
    break;
  }
  case TypeKind::Atomic: {
    auto* c = make<AtomicType>();
    c->value = static_cast<const AtomicType*>(base)->value;
    copy = c;
    break;
  }
  case TypeKind::Enum: {
    auto* c = make<EnumType>();
    c->decl = static_cast<const EnumType*>(base)->decl;
    copy = c;
    break;
  }
  case TypeKind::Record: {
    auto* c = make<RecordType>();
    c->decl = static_cast<const RecordType*>(base)->decl;
    copy = c;
    break;
  }
  case TypeKind::Typedef: {
    auto* c = make<TypedefType>();
    c->decl = static_cast<const TypedefType*>(base)->decl;
    copy = c;
    break;
  }
  case TypeKind::OpenCL: {
    auto* c = make<OpenCLType>();
    auto* s = static_cast<const OpenCLType*>(base);
    c->okind = s->okind;
    c->access = s->access;
    c->pipe_element = s->pipe_element;
    copy = c;
    break;
  }
  case TypeKind::Function:
    return t; // qualifiers on function types are meaningless in C
  }
  copy->quals = q;
  copy->unqualified = base;
  interned_.insert(key.first, key.second, copy);
  return copy;
}

// ----- declarations ---------------------------------------------------------------------------

void* TypeContext::allocate(size_t bytes, size_t align) {
  return arena_->allocate(bytes, align);
}

RecordDecl* TypeContext::createRecord(std::string_view name, bool is_union, SourceLoc loc) {
  auto* b = new (arena_->allocate(sizeof(RecordBlock), alignof(RecordBlock))) RecordBlock();
  records_.push_back(b);
  RecordDecl* rd = &b->decl;
  rd->id = uint32_t(records_.size() - 1);
  rd->name = name;
  rd->is_union = is_union;
  rd->loc = loc;
  b->type.decl = rd;
  return rd;
}

const RecordType* TypeContext::recordType(RecordDecl* decl) {
  // A record created by this context (its id still names it) carries its type.
  if (decl->id < records_.size() && &records_[decl->id]->decl == decl)
    return &records_[decl->id]->type;
  auto key = std::make_pair(tag(kTagQual, 0xFE), ptrKey(decl));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const RecordType*>(it);
  RecordType* t = make<RecordType>();
  t->unqualified = t;
  t->decl = decl;
  interned_.insert(key.first, key.second, t);
  return t;
}

EnumDecl* TypeContext::createEnum(std::string_view name, SourceLoc loc) {
  EnumDecl* ed = make<EnumDecl>();
  ed->name = name;
  ed->loc = loc;
  return ed;
}

const EnumType* TypeContext::enumType(EnumDecl* decl) {
  auto key = std::make_pair(tag(kTagQual, 0xFD), ptrKey(decl));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const EnumType*>(it);
  EnumType* t = make<EnumType>();
  t->unqualified = t;
  t->decl = decl;
  interned_.insert(key.first, key.second, t);
  return t;
}

TypedefDecl* TypeContext::createTypedef(std::string_view name, const Type* underlying,
                                        SourceLoc loc) {
  TypedefDecl* td = make<TypedefDecl>();
  td->name = name;
  td->underlying = underlying;
  td->loc = loc;
  return td;
}

const TypedefType* TypeContext::typedefType(TypedefDecl* decl) {
  auto key = std::make_pair(tag(kTagQual, 0xFC), ptrKey(decl));
  const Type* it = interned_.find(key.first, key.second);
  if (it) return static_cast<const TypedefType*>(it);
  TypedefType* t = make<TypedefType>();
  t->unqualified = t;
  t->decl = decl;
  interned_.insert(key.first, key.second, t);
  return t;
}

FunctionType* TypeContext::createFunctionType() {
  FunctionType* t = make<FunctionType>();
  t->unqualified = t;
  return t;
}

FunctionDecl* TypeContext::createFunction(std::string_view name, const FunctionType* type,
                                          SourceLoc loc) {
  FunctionDecl* fd = make<FunctionDecl>();
  fd->name = name;
  fd->type = type;
  fd->loc = loc;
  return fd;
}

// ----- queries --------------------------------------------------------------------------------

const Type* Type::canonical() const {
  return stripTypedefs(this);
}

bool isAggregate(const Type* t) {
  switch (stripTypedefs(t)->kind) {
  case TypeKind::Record:
  case TypeKind::Array:
  case TypeKind::Complex:
    return true;
  default:
    return false;
  }
}

bool containsAtomic(const Type* t) {
  // Records nest only through complete fields, so the walk ends; a record met again is left
  // alone (its first visit answers for it).
  std::vector<const Type*> todo{t};
  std::vector<const RecordDecl*> seen;
  while (!todo.empty()) {
    const Type* u = stripTypedefs(todo.back());
    todo.pop_back();
    while (u->kind == TypeKind::Array) u = stripTypedefs(static_cast<const ArrayType*>(u)->element);
    if (u->kind == TypeKind::Atomic) return true;
    if (auto* r = dyn<RecordType>(u)) {
      if (std::find(seen.begin(), seen.end(), r->decl) != seen.end()) continue;
      seen.push_back(r->decl);
      for (const FieldDecl& f : r->decl->fields) todo.push_back(f.type);
    }
  }
  return false;
}

std::string RecordDecl::displayName(const TypeContext& ctx) const {
  const char* kw = is_union ? "union" : "struct";
  if (!name.empty()) return std::string(kw) + " " + std::string(name);
  if (!typedef_name.empty()) return std::string(typedef_name);
  return std::string(kw) + " (anonymous at " + std::string(ctx.fileName(loc.file)) + ":" +
         std::to_string(loc.line) + ":" + std::to_string(loc.col) + ")";
}

const RecordDecl* TranslationUnit::findRecord(std::string_view name, const TypeContext& ctx) const {
  for (const RecordDecl* rd : records) {
    if (rd->typedef_name == name || rd->displayName(ctx) == name) return rd;
    if (!rd->name.empty() && rd->name == name) return rd;
  }
  for (const TypedefDecl* td : typedefs) {
    if (td->name != name) continue;
    if (auto* rt = dyn<RecordType>(stripTypedefs(td->underlying))) return rt->decl;
  }
  return nullptr;
}

const FunctionDecl* TranslationUnit::findFunction(std::string_view name) const {
  for (const FunctionDecl* fd : functions)
    if (fd->name == name) return fd;
  return nullptr;
}

// ----- spelling -------------------------------------------------------------------------------

const char* openclTypeName(OpenCLKind k) {
  switch (k) {
  case OpenCLKind::Image1d:
    return "image1d_t";
  case OpenCLKind::Image1dArray:
    return "image1d_array_t";
  case OpenCLKind::Image1dBuffer:
    return "image1d_buffer_t";
  case OpenCLKind::Image2d:
    return "image2d_t";
  case OpenCLKind::Image2dArray:
    return "image2d_array_t";
  case OpenCLKind::Image2dDepth:
    return "image2d_depth_t";
  case OpenCLKind::Image2dArrayDepth:
    return "image2d_array_depth_t";
  case OpenCLKind::Image2dMsaa:
    return "image2d_msaa_t";
  case OpenCLKind::Image2dArrayMsaa:
    return "image2d_array_msaa_t";
  case OpenCLKind::Image2dMsaaDepth:
    return "image2d_msaa_depth_t";
  case OpenCLKind::Image2dArrayMsaaDepth:
    return "image2d_array_msaa_depth_t";
  case OpenCLKind::Image3d:
    return "image3d_t";
  case OpenCLKind::Sampler:
    return "sampler_t";
  case OpenCLKind::Event:
    return "event_t";
  case OpenCLKind::ClkEvent:
    return "clk_event_t";
  case OpenCLKind::Queue:
    return "queue_t";
  case OpenCLKind::ReserveId:
    return "reserve_id_t";
  case OpenCLKind::Pipe:
    return "pipe";
  }
  return "?";
}

namespace {

const char* floatName(FloatKind k, Language lang) {
  return k == FloatKind::Fp16 && lang == Language::OpenCL ? "half" : floatKindName(k);
}

std::string qualPrefix(uint8_t q) {
  std::string s;
  if (q & kQualConst) s += "const ";
  if (q & kQualVolatile) s += "volatile ";
  if (q & kQualRestrict) s += "restrict ";
  return s;
}

std::string addressSpacePrefix(uint32_t as, const TypeContext& ctx) {
  if (as == 0) return {};
  if (const AddressSpaceInfo* info = ctx.target().findAddressSpace(as))
    if (!info->c_spelling.empty()) return std::string(info->c_spelling) + " ";
  return "__attribute__((address_space(" + std::to_string(as) + "))) ";
}

// Builds "specifiers" and wraps "decl" (the declarator text so far) C-style.
std::string spell(const Type* t, const TypeContext& ctx, std::string decl) {
  auto withDecl = [&](std::string base) {
    return decl.empty() ? base : base + (decl[0] == '[' ? "" : " ") + decl;
  };
  std::string q = qualPrefix(t->quals);
  const Type* u = t->unqualified;
  switch (u->kind) {
  case TypeKind::Void:
    return withDecl(q + "void");
  case TypeKind::Int: {
    auto* it = static_cast<const IntType*>(u);
    if (it->is_bitint)
      return withDecl(q + (it->is_signed ? "_BitInt(" : "unsigned _BitInt(") +
                      std::to_string(it->bits) + ")");
    if (it->ikind == IntKind::Bool && ctx.language() != Language::C)
      return withDecl(q + "bool"); // OpenCL C and C++ spell it bool
    return withDecl(q + intKindName(it->ikind));
  }
  case TypeKind::Float:
    return withDecl(q + floatName(static_cast<const FloatType*>(u)->fkind, ctx.language()));
  case TypeKind::Complex:
    return withDecl(q + "_Complex " + spell(static_cast<const ComplexType*>(u)->element, ctx, ""));
  case TypeKind::Atomic:
    return withDecl(q + "_Atomic(" + spell(static_cast<const AtomicType*>(u)->value, ctx, "") +
                    ")");
  case TypeKind::Enum: {
    auto* ed = static_cast<const EnumType*>(u)->decl;
    std::string n = !ed->name.empty()           ? "enum " + std::string(ed->name)
                    : !ed->typedef_name.empty() ? std::string(ed->typedef_name)
                                                : std::string("enum (anonymous)");
    return withDecl(q + n);
  }
  case TypeKind::Record:
    return withDecl(q + static_cast<const RecordType*>(u)->decl->displayName(ctx));
  case TypeKind::Typedef:
    return withDecl(q + std::string(static_cast<const TypedefType*>(u)->decl->name));
  case TypeKind::OpenCL: {
    auto* ot = static_cast<const OpenCLType*>(u);
    std::string acc;
    if (ot->access == AccessQual::ReadOnly) acc = "__read_only ";
    if (ot->access == AccessQual::WriteOnly) acc = "__write_only ";
    if (ot->access == AccessQual::ReadWrite) acc = "__read_write ";
    if (ot->okind == OpenCLKind::Pipe)
      return withDecl(q + acc + "pipe " + spell(ot->pipe_element, ctx, ""));
    return withDecl(q + acc + openclTypeName(ot->okind));
  }
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(u);
    std::string elem = spell(vt->element, ctx, "");
    if (vt->vkind == VectorKind::Ext)
      return withDecl(q + elem + " __attribute__((ext_vector_type(" + std::to_string(vt->count) +
                      ")))");
    return withDecl(q + "__attribute__((__vector_size__(" + std::to_string(vt->count) +
                    " * sizeof(" + elem + ")))) " + elem);
  }
  case TypeKind::Pointer: {
    auto* pt = static_cast<const PointerType*>(u);
    std::string inner = "*";
    if (t->quals) {
      std::string qs = qualPrefix(t->quals);
      inner += qs.substr(0, qs.size() - 1);
      if (!decl.empty()) inner += ' ';
    }
    inner += decl;
    const Type* pc = pt->pointee->unqualified;
    if (pc->kind == TypeKind::Array || pc->kind == TypeKind::Function) inner = "(" + inner + ")";
    return addressSpacePrefix(pt->address_space, ctx) + spell(pt->pointee, ctx, inner);
  }
  case TypeKind::Array: {
    auto* at = static_cast<const ArrayType*>(u);
    std::string dim = at->incomplete ? "[]" : "[" + std::to_string(at->count) + "]";
    return q + spell(at->element, ctx, decl + dim);
  }
  case TypeKind::Function: {
    auto* ft = static_cast<const FunctionType*>(u);
    std::string params = "(";
    for (size_t i = 0; i < ft->params.size(); ++i) {
      if (i) params += ", ";
      params += spell(ft->params[i].type, ctx, "");
    }
    if (ft->variadic)
      params += ft->params.empty() ? "..." : ", ...";
    else if (ft->params.empty() && ft->prototyped)
      params += "void";
    params += ")";
    return spell(ft->result, ctx, decl + params);
  }
  }
  return "?";
}

} // namespace

std::string typeName(const Type* t, const TypeContext& ctx) {
  return spell(t, ctx, "");
}

const Type* adjustParameterType(TypeContext& ctx, const Type* t) {
  const Type* c = stripTypedefs(t);
  if (auto* a = dyn<ArrayType>(c))
    return ctx.pointerTo(a->element, ctx.arrayParameterAddressSpace());
  if (c->kind == TypeKind::Function) return ctx.pointerTo(t);
  return t;
}

void unsupportedAt(const TypeContext& ctx, SourceLoc loc, std::string message) {
  if (loc.line == 0) throw Error(ErrorKind::Unsupported, std::move(message));
  throw Error::atSourceFile(ErrorKind::Unsupported, std::move(message),
                            std::string(ctx.fileName(loc.file)), loc.line, loc.col);
}

} // namespace abikit
