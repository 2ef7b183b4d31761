// torch.save / torch.load files (zip format, PyTorch ≥ 1.6): the `--input IN.pt` / `--output OUT.pt` files
// of the CLI, and state dicts.
//
// Layout (any root folder name; PyTorch 1.13 uses the file's stem, 2.x "archive"):
//   <root>/data.pkl   pickle of the value (tensors as persistent ids, see pickler.h)
//   <root>/data/<key> raw little-endian storage bytes, 64-byte aligned
//   <root>/version    "3\n"            (newer writers add byteorder, .data/serialization_id: optional;
//                                     byteorder "big" data is byte-swapped as read)
// The legacy non-zip format (PyTorch < 1.6 or _use_new_zipfile_serialization=False) is rejected with a
// LoadError that says so.
#pragma once
#include <string>

#include "core/ivalue.h"
#include "tensor/tensor.h"

namespace kindling {

/// Reads a file written by torch.save(value). Throws LoadError for a missing/malformed file or a value
/// outside the unpickler's allow-list (see unpickler.h).
IValue loadTorchSave(const std::string& path);
/// The same from a file held in memory (`bytes`, kept alive by the tensors that map it); `name` stands for
/// the file in messages.
IValue loadTorchSave(Storage bytes, const std::string& name);

/// Writes `value` (tensors, ints, floats, bools, strings, None, devices, tuples, lists, dicts of these) so
/// that torch.load(path) returns the same value. Root folder "archive". Throws Error for values torch.save
/// cannot represent here (objects, futures) and LoadError when the file cannot be written.
void saveTorchSave(const IValue& value, const std::string& path);

}  // namespace kindling
