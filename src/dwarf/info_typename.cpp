// A type's name as llvm-dwarfdump prints it after a DW_AT_type reference ("S_t *", "int[4]",
// "const char *", "int (*)(int, ...)", "structure " for an unnamed struct): the C++-flavoured
// declarator printer of LLVM's DWARFTypePrinter, over abikit's DIE index. The walk is bounded
// (kMaxDepth nested types, kMaxSteps types in all): a reference cycle or a fan of parameters in
// hostile DWARF ends the name, never the program.
#include "abikit/dwarf_info.h"

namespace abikit::dwarf {

namespace {

constexpr unsigned kMaxDepth = 64;
constexpr unsigned kMaxSteps = 4096;
constexpr size_t kMaxChars = 65536; // a name longer than this ends there

struct D {
  const Unit* u = nullptr;
  uint32_t i = 0;
  explicit operator bool() const { return u != nullptr; }
  const Die& die() const { return u->dies[i]; }
  uint16_t tag() const { return die().tag; }
};

class Printer {
public:
  Printer(const DebugInfo& info, std::string& out) : info_(info), os_(out), start_(out.size()) {}

  void qualifiedName(D d) {
    if (!enter()) return;
    if (d && scoped(d.tag())) scopes(parent(d));
    unqualifiedName(d);
    leave();
  }

private:
  const DebugInfo& info_;
  std::string& os_;
  bool word_ = true;
  bool ended_template_ = false;
  unsigned depth_ = 0, steps_ = 0;
  size_t start_;

  bool enter() {
    if (depth_ >= kMaxDepth || steps_ >= kMaxSteps || os_.size() - start_ > kMaxChars) return false;
    ++depth_;
    ++steps_;
    return true;
  }
  void leave() { --depth_; }

  static bool scoped(uint16_t tag) {
    return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type ||
           tag == DW_TAG_namespace || tag == DW_TAG_enumeration_type;
  }

  D parent(D d) const {
    if (!d || d.die().parent == Die::kNone) return {};
    return {d.u, d.die().parent};
  }

  D ref(D d, uint16_t attr = DW_AT_type) const {
    if (!d) return {};
    std::optional<AttrValue> v = info_.attribute(*d.u, d.die(), attr);
    if (!v || v->kind != AttrValue::Kind::Reference) return {};
    D r;
    if (!info_.findDie(v->u, r.u, r.i)) return {};
    return r;
  }

  std::string_view nameOf(D d) const {
    std::optional<AttrValue> v = info_.attribute(*d.u, d.die(), DW_AT_name);
    return v && v->kind == AttrValue::Kind::String ? v->str : std::string_view();
  }
  bool has(D d, uint16_t attr) const { return info_.attribute(*d.u, d.die(), attr).has_value(); }
  std::optional<uint64_t> unsignedOf(D d, uint16_t attr) const {
    std::optional<AttrValue> v = info_.attribute(*d.u, d.die(), attr);
    if (!v || (v->kind != AttrValue::Kind::Constant && v->kind != AttrValue::Kind::Flag) ||
        v->form == DW_FORM_sdata)
      return std::nullopt;
    return v->u;
  }

  template <class F> void children(D d, F&& f) const {
    const Die& p = d.die();
    for (uint32_t c = d.i + 1; c < p.next; c = d.u->dies[c].next) f(D{d.u, c});
  }

  void tagName(uint16_t tag) {
    std::string_view s = dwarf::tagName(tag);
    if (!s.starts_with("DW_TAG_") || !s.ends_with("_type")) return;
    os_ += s.substr(7, s.size() - 12);
    os_ += ' ';
  }

  D skipQualifiers(D d) {
    for (unsigned k = 0;
         d && k < kMaxDepth && (d.tag() == DW_TAG_const_type || d.tag() == DW_TAG_volatile_type);
         ++k)
      d = ref(d);
    return d;
  }
  bool needsParens(D d) {
    d = skipQualifiers(d);
    return d && (d.tag() == DW_TAG_subroutine_type || d.tag() == DW_TAG_array_type);
  }

  void pointerLikeBefore(D inner, std::string_view ptr) {
    qualifiedNameBefore(inner);
    if (word_) os_ += ' ';
    if (needsParens(inner)) os_ += '(';
    os_ += ptr;
    word_ = false;
    ended_template_ = false;
  }

  D qualifiedNameBefore(D d) {
    if (d && scoped(d.tag())) scopes(parent(d));
    return unqualifiedNameBefore(d);
  }

  D unqualifiedNameBefore(D d) {
    word_ = true;
    if (!d) {
      os_ += "void";
      return {};
    }
    if (!enter()) return {};
    D inner;
    switch (d.tag()) {
    case DW_TAG_pointer_type:
      pointerLikeBefore(inner = ref(d), "*");
      break;
    case DW_TAG_reference_type:
      pointerLikeBefore(inner = ref(d), "&");
      break;
    case DW_TAG_rvalue_reference_type:
      pointerLikeBefore(inner = ref(d), "&&");
      break;
    case DW_TAG_subroutine_type:
      qualifiedNameBefore(inner = ref(d));
      if (word_) os_ += ' ';
      word_ = false;
      break;
    case DW_TAG_array_type:
    case DW_TAG_LLVM_ptrauth_type:
      qualifiedNameBefore(inner = ref(d));
      break;
    case DW_TAG_ptr_to_member_type:
      qualifiedNameBefore(inner = ref(d));
      if (needsParens(inner))
        os_ += '(';
      else if (word_)
        os_ += ' ';
      if (D cont = ref(d, DW_AT_containing_type)) {
        qualifiedName(cont);
        ended_template_ = false;
        os_ += "::";
      }
      os_ += '*';
      word_ = false;
      break;
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
      constVolatileBefore(d);
      break;
    case DW_TAG_namespace: {
      std::string_view n = nameOf(d);
      os_ += n.data() ? n : "(anonymous namespace)";
      break;
    }
    case DW_TAG_unspecified_type: {
      std::string_view n = info_.name(*d.u, d.die());
      if (n == "decltype(nullptr)") n = "std::nullptr_t";
      word_ = true;
      os_ += n;
      ended_template_ = false;
      break;
    }
    default: {
      std::string_view n = nameOf(d);
      if (!n.data()) {
        tagName(d.tag());
        leave();
        return {};
      }
      word_ = true;
      ended_template_ = n.ends_with('>');
      os_ += n;
      if (n.ends_with('>')) break;
      if (!templateParameters(d)) break;
      if (ended_template_) os_ += ' ';
      os_ += '>';
      ended_template_ = true;
      word_ = true;
      break;
    }
    }
    leave();
    return inner;
  }

  void unqualifiedNameAfter(D d, D inner, bool skip_artificial = false) {
    if (!d || !enter()) return;
    switch (d.tag()) {
    case DW_TAG_subroutine_type:
      subroutineAfter(d, inner, skip_artificial, false, false);
      break;
    case DW_TAG_array_type:
      arrayType(d);
      break;
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
      constVolatileAfter(d);
      break;
    case DW_TAG_ptr_to_member_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type:
    case DW_TAG_pointer_type:
      if (needsParens(inner)) os_ += ')';
      unqualifiedNameAfter(inner, ref(inner), d.tag() == DW_TAG_ptr_to_member_type);
      break;
    default:
      break;
    }
    leave();
  }

  void unqualifiedName(D d) {
    D inner = unqualifiedNameBefore(d);
    unqualifiedNameAfter(d, inner);
  }

  void arrayType(D d) {
    std::optional<uint64_t> default_lb;
    if (std::optional<AttrValue> lang = info_.attribute(*d.u, d.u->dies[0], DW_AT_language);
        lang && lang->kind == AttrValue::Kind::Constant && lang->form != DW_FORM_sdata)
      default_lb = languageLowerBound(lang->u);
    children(d, [&](D c) {
      if (c.tag() != DW_TAG_subrange_type) return;
      std::optional<uint64_t> lb = unsignedOf(c, DW_AT_lower_bound);
      std::optional<uint64_t> count = unsignedOf(c, DW_AT_count);
      std::optional<uint64_t> ub = unsignedOf(c, DW_AT_upper_bound);
      if (default_lb && lb && *lb == *default_lb) lb.reset();
      if (!lb && !count && !ub) {
        os_ += "[]";
      } else if (!lb && (count || ub) && default_lb) {
        os_ += '[';
        os_ += std::to_string(count ? *count : *ub - *default_lb + 1);
        os_ += ']';
      } else {
        os_ += "[[";
        os_ += lb ? std::to_string(*lb) : "?";
        os_ += ", ";
        if (count)
          os_ += lb ? std::to_string(*lb + *count) : "? + " + std::to_string(*count);
        else if (ub)
          os_ += std::to_string(*ub + 1);
        else
          os_ += '?';
        os_ += ")]";
      }
    });
    ended_template_ = false;
  }

  // Template parameters (C++ input: HIP); integer and type parameters as LLVM prints them, others
  // left out as LLVM does for pointers.
  bool templateParameters(D d) {
    bool first = true, is_template = false;
    children(d, [&](D c) {
      const uint16_t t = c.tag();
      if (t != DW_TAG_template_type_parameter && t != DW_TAG_template_value_parameter) return;
      D type = ref(c);
      if (t == DW_TAG_template_value_parameter && type &&
          (type.tag() == DW_TAG_pointer_type || type.tag() == DW_TAG_reference_type)) {
        os_ += first ? "<" : ", ";
        first = false;
        is_template = true;
        ended_template_ = false;
        return;
      }
      os_ += first ? "<" : ", ";
      first = false;
      is_template = true;
      ended_template_ = false;
      if (t == DW_TAG_template_type_parameter) {
        qualifiedName(type);
        return;
      }
      std::optional<AttrValue> v = info_.attribute(*c.u, c.die(), DW_AT_const_value);
      int64_t s = v ? v->s : 0;
      uint64_t u = v ? v->u : 0;
      std::string_view tn = type ? nameOf(type) : std::string_view();
      if (tn == "bool")
        os_ += u ? "true" : "false";
      else if (tn == "unsigned int")
        os_ += std::to_string(u) + "U";
      else if (tn == "unsigned long")
        os_ += std::to_string(u) + "UL";
      else if (tn == "unsigned long long")
        os_ += std::to_string(u) + "ULL";
      else if (tn == "long")
        os_ += std::to_string(s) + "L";
      else if (tn == "long long")
        os_ += std::to_string(s) + "LL";
      else
        os_ += std::to_string(s);
    });
    if (is_template && first) os_ += '<';
    return is_template;
  }

  void decompose(D n, D& t, D& c, D& v) {
    (n.tag() == DW_TAG_const_type ? c : v) = n;
    t = ref(n);
    if (t) {
      if (t.tag() == DW_TAG_const_type) {
        c = t;
        t = ref(t);
      } else if (t.tag() == DW_TAG_volatile_type) {
        v = t;
        t = ref(t);
      }
    }
  }

  void constVolatileAfter(D n) {
    D c, v, t;
    decompose(n, t, c, v);
    if (t && t.tag() == DW_TAG_subroutine_type)
      subroutineAfter(t, ref(t), false, bool(c), bool(v));
    else
      unqualifiedNameAfter(t, ref(t));
  }

  void constVolatileBefore(D n) {
    D c, v, t;
    decompose(n, t, c, v);
    const bool subroutine = t && t.tag() == DW_TAG_subroutine_type;
    D a = t;
    for (unsigned k = 0; a && a.tag() == DW_TAG_array_type && k < kMaxDepth; ++k) a = ref(a);
    const bool leading =
        (!a || (a.tag() != DW_TAG_pointer_type && a.tag() != DW_TAG_ptr_to_member_type)) &&
        !subroutine;
    if (leading) {
      if (c) os_ += "const ";
      if (v) os_ += "volatile ";
    }
    qualifiedNameBefore(t);
    if (!leading && !subroutine) {
      word_ = true;
      if (c) os_ += "const";
      if (v) {
        if (c) os_ += ' ';
        os_ += "volatile";
      }
    }
  }

  void subroutineAfter(D d, D inner, bool skip_artificial, bool is_const, bool is_volatile) {
    os_ += '(';
    ended_template_ = false;
    bool first = true, real_first = true, stop = false;
    D artificial;
    children(d, [&](D p) {
      if (stop) return;
      if (p.tag() != DW_TAG_formal_parameter && p.tag() != DW_TAG_unspecified_parameters) {
        stop = true;
        return;
      }
      D t = ref(p);
      if (skip_artificial && real_first && has(p, DW_AT_artificial)) {
        artificial = t;
        real_first = false;
        return;
      }
      if (!first) os_ += ", ";
      first = false;
      if (p.tag() == DW_TAG_unspecified_parameters)
        os_ += "...";
      else
        qualifiedName(t);
    });
    if (stop) return; // LLVM stops the name at a child that is no parameter
    ended_template_ = false;
    os_ += ')';
    if (artificial && artificial.tag() == DW_TAG_pointer_type) {
      if (D u = ref(artificial)) {
        is_const |= u.tag() == DW_TAG_const_type;
        is_volatile |= u.tag() == DW_TAG_volatile_type;
        if (D w = ref(u)) {
          is_const |= w.tag() == DW_TAG_const_type;
          is_volatile |= w.tag() == DW_TAG_volatile_type;
        }
      }
    }
    if (is_const) os_ += " const";
    if (is_volatile) os_ += " volatile";
    if (has(d, DW_AT_reference)) os_ += " &";
    if (has(d, DW_AT_rvalue_reference)) os_ += " &&";
    unqualifiedNameAfter(inner, ref(inner));
  }

  void scopes(D d) {
    if (!d || !enter()) return;
    const uint16_t t = d.tag();
    if (t != DW_TAG_compile_unit && t != DW_TAG_type_unit && t != DW_TAG_skeleton_unit &&
        t != DW_TAG_subprogram && t != DW_TAG_lexical_block) {
      scopes(parent(d));
      unqualifiedName(d);
      os_ += "::";
    }
    leave();
  }
};

} // namespace

void DebugInfo::dumpTypeName(uint64_t die_offset, std::string& out) const {
  D d;
  if (!findDie(die_offset, d.u, d.i)) return;
  Printer(*this, out).qualifiedName(d);
}

} // namespace abikit::dwarf
