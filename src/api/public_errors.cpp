// Internal exceptions → the public ones of kindling/error.h (see public_bridge.h).
#include "api/public_bridge.h"

#include <exception>

namespace kindling::api::detail {

void rethrowPublic() {
  try {
    throw;
  } catch (const api::Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const ::kindling::CompileError& e) {
    throw api::CompileError(e.what());
  } catch (const ::kindling::LoadError& e) {
    throw api::LoadError(e.what());
  } catch (const ::kindling::RuntimeError& e) {
    throw api::RuntimeError(e.what(), e.pythonClass(), e.callStack);
  } catch (const ::kindling::UsageError& e) {
    throw api::UsageError(e.what());
  } catch (const ::kindling::InternalError& e) {
    throw api::InternalError(e.what());
  } catch (const ::kindling::Error& e) {
    throw api::Error(e.what());
  } catch (const std::exception& e) {
    throw api::InternalError(std::string(::kindling::InternalError::kPrefix) + e.what());
  } catch (...) {
    throw api::InternalError(std::string(::kindling::InternalError::kPrefix) + "unknown exception");
  }
}

const ::kindling::Tensor& defined(const ::kindling::Tensor& t, const char* what) {
  if (!t.defined()) throw api::UsageError(std::string(what) + ": the tensor is undefined");
  return t;
}

}  // namespace kindling::api::detail
