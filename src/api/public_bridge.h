// Between the public API (include/kindling/, namespace kindling::api) and Kindling's internal types:
// the public IValue holds an internal IValue's 16 bytes, the public Tensor an internal TensorImpl
// pointer with one reference; these functions convert without copying data. translateErrors runs a
// body and rethrows internal exceptions as the public ones of kindling/error.h, so no internal type
// escapes the library.
#pragma once
#ifndef KINDLING_INTERNAL_BUILD
#define KINDLING_INTERNAL_BUILD 1
#endif
#include <new>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/internal_error.h"
#include "core/ivalue.h"
#include "kindling/error.h"
#include "kindling/ivalue.h"
#include "kindling/module.h"
#include "kindling/tensor.h"
#include "runtime/module.h"
#include "tensor/tensor.h"

namespace kindling::api::detail {

static_assert(sizeof(::kindling::IValue) == 16 && alignof(::kindling::IValue) <= 8,
              "kindling::api::IValue stores an internal IValue in 16 bytes");

inline ::kindling::IValue& in(api::IValue& v) { return *std::launder(reinterpret_cast<::kindling::IValue*>(v.unsafeRepr())); }
inline const ::kindling::IValue& in(const api::IValue& v) {
  return *std::launder(reinterpret_cast<const ::kindling::IValue*>(v.unsafeRepr()));
}
inline api::IValue out(::kindling::IValue v) {
  api::IValue r;
  in(r) = std::move(v);
  return r;
}

inline ::kindling::TensorImpl* implOf(const api::Tensor& t) {
  return reinterpret_cast<::kindling::TensorImpl*>(t.unsafeHandle());
}
/// The internal tensor (a new reference); an undefined public tensor gives an undefined one.
inline ::kindling::Tensor in(const api::Tensor& t) {
  return ::kindling::Tensor(::kindling::IntrusivePtr<::kindling::TensorImpl>(implOf(t)));
}
inline api::Tensor out(const ::kindling::Tensor& t) {
  return api::Tensor::unsafeFromHandle(reinterpret_cast<TensorHandle*>(t.impl()));
}

/// Throws UsageError for an undefined tensor (what libtorch reports as "undefined tensor").
const ::kindling::Tensor& defined(const ::kindling::Tensor& t, const char* what);

/// The internal module behind a public Module; UsageError for an empty handle.
const ::kindling::Module& moduleOf(const jit::Module& m, const char* what);
/// A public Module for an internal one (its class types registered so that IValue::toModule finds the
/// compilation unit again).
jit::Module makeModule(::kindling::Module m);

/// Bumped by every public call that writes a module attribute: forward re-specializes when it changed.
void noteAttributeWrite();

[[noreturn]] void rethrowPublic();

/// Runs f(); internal errors come out as kindling::api errors (see kindling/error.h).
template <class F>
decltype(auto) translateErrors(F&& f) {
  try {
    return f();
  } catch (...) {
    rethrowPublic();
  }
}

}  // namespace kindling::api::detail
