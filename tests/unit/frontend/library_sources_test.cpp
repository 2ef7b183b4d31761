// The embedded TorchScript library (frontend/library_sources.h): every .py file under src/frontend/library/
// is embedded byte for byte, and nothing else is.
#include "frontend/library_sources.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kindling {
namespace {

const std::filesystem::path kLibraryDir =
    std::filesystem::path(KINDLING_TEST_DATA_DIR) / ".." / ".." / ".." / "src" / "frontend" / "library";

TEST(LibrarySources, EveryPyFileIsEmbeddedVerbatim) {
  size_t onDisk = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kLibraryDir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".py") continue;
    ++onDisk;
    const std::string rel = std::filesystem::relative(entry.path(), kLibraryDir).generic_string();
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    auto text = embeddedLibrarySource(rel);
    ASSERT_TRUE(text.has_value()) << rel << " is not embedded";
    EXPECT_EQ(std::string(*text), buf.str()) << rel;
  }
  EXPECT_GE(onDisk, 2u);
  EXPECT_EQ(embeddedLibraryPaths().size(), onDisk);
}

TEST(LibrarySources, UnknownPathIsNullopt) {
  EXPECT_FALSE(embeddedLibrarySource("torch/nn/no_such_file.py").has_value());
  EXPECT_FALSE(embeddedLibrarySource("").has_value());
}

}  // namespace
}  // namespace kindling
