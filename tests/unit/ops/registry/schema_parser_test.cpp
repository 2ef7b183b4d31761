// Schema parser and printer: every schema PyTorch 1.13 registers must parse and print back verbatim.
#include "ops/registry/schema_parser.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/schema_types.h"

using namespace kindling;

namespace {

std::vector<std::string> allTorchSchemas() {
  std::ifstream f(std::string(KINDLING_TEST_DATA_DIR) + "/ops/jit_schemas_1_13.txt");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(f, line))
    if (!line.empty()) out.push_back(line);
  return out;
}

}  // namespace

TEST(SchemaParser, EveryTorchSchemaRoundTrips) {
  auto schemas = allTorchSchemas();
  ASSERT_EQ(schemas.size(), 4165u);
  size_t ok = 0;
  std::vector<std::string> failures;
  for (const auto& s : schemas) {
    try {
      FunctionSchema fs = parseSchema(s);
      std::string printed = fs.str();
      if (printed == s) {
        ++ok;
        // Printing must be a fixed point of parsing too.
        EXPECT_EQ(parseSchema(printed).str(), printed);
      } else {
        failures.push_back("MISMATCH\n  torch:    " + s + "\n  kindling: " + printed);
      }
    } catch (const Error& e) {
      failures.push_back(std::string("PARSE ERROR ") + e.what());
    }
  }
  for (size_t i = 0; i < failures.size() && i < 20; ++i) ADD_FAILURE() << failures[i];
  EXPECT_EQ(ok, schemas.size()) << ok << " of " << schemas.size() << " round-trip";
}

TEST(SchemaParser, Structure) {
  FunctionSchema s = parseSchema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(s.name, "aten::add");
  EXPECT_EQ(s.overloadName, "Tensor");
  EXPECT_EQ(s.qualifiedName(), "aten::add.Tensor");
  ASSERT_EQ(s.arguments.size(), 3u);
  EXPECT_EQ(s.arguments[0].type->kind(), TypeKind::Tensor);
  EXPECT_FALSE(s.arguments[1].kwargOnly);
  EXPECT_TRUE(s.arguments[2].kwargOnly);
  EXPECT_EQ(s.arguments[2].type->kind(), TypeKind::Number);
  ASSERT_TRUE(s.arguments[2].defaultValue.has_value());
  EXPECT_EQ(s.arguments[2].defaultValue->toInt(), 1);
  ASSERT_EQ(s.returns.size(), 1u);
  EXPECT_EQ(s.argumentIndex("alpha"), 2);
  EXPECT_EQ(s.argumentIndex("beta"), -1);
  EXPECT_FALSE(s.isMutable());
  EXPECT_FALSE(s.isVarArg);
}

TEST(SchemaParser, FixedSizeListDefaultsBroadcast) {
  FunctionSchema s = parseSchema(
      "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, "
      "int[2] dilation=1, int groups=1) -> Tensor");
  EXPECT_EQ(s.arguments[2].type->kind(), TypeKind::Optional);
  EXPECT_TRUE(s.arguments[2].defaultValue->isNone());
  EXPECT_EQ(*s.arguments[3].N, 2);
  EXPECT_EQ(s.arguments[3].type->kind(), TypeKind::List);
  EXPECT_EQ(s.arguments[3].defaultValue->toIntVector(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(s.arguments[4].defaultValue->toIntVector(), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(s.arguments[3].str(), "int[2] stride=1");
  // Unequal elements print as a list; a one-element list prints as a list.
  EXPECT_EQ(parseSchema("a::f(int[2] x=[0, 1]) -> ()").arguments[0].str(), "int[2] x=[0, 1]");
  EXPECT_EQ(parseSchema("a::f(int[1] x=1) -> ()").arguments[0].str(), "int[1] x=[1]");
  EXPECT_EQ(parseSchema("a::f(int[2] x=[]) -> ()").arguments[0].str(), "int[2] x=[]");
}

TEST(SchemaParser, DefaultsPrintAsPyTorch) {
  auto arg = [](const std::string& a) { return parseSchema("a::f(" + a + ") -> ()").arguments[0]; };
  // str(s) in PyTorch prints doubles with 17 significant digits and integral doubles as "1.".
  EXPECT_EQ(arg("float eps=1e-05").str(), "float eps=1.0000000000000001e-05");
  EXPECT_EQ(arg("float eps=1.0000000000000001e-05").defaultValue->toDouble(), 1e-05);
  EXPECT_EQ(arg("float p=0.5").str(), "float p=0.5");
  EXPECT_EQ(arg("float p=2").str(), "float p=2.");
  EXPECT_EQ(arg("float p=1.0").str(), "float p=1.");
  EXPECT_EQ(arg("float p=-0.0").str(), "float p=-0.");
  EXPECT_EQ(arg("Scalar a=1").defaultValue->isInt(), true);
  EXPECT_EQ(arg("Scalar a=1.").defaultValue->isDouble(), true);
  EXPECT_EQ(arg("Scalar a=0.33333333333333331").str(), "Scalar a=0.33333333333333331");
  EXPECT_EQ(arg("bool b=True").defaultValue->toBool(), true);
  EXPECT_EQ(arg("int a=-100").defaultValue->toInt(), -100);
  // Enum names map to their ints (PyTorch prints the int back).
  EXPECT_EQ(arg("MemoryFormat m=contiguous_format").defaultValue->toInt(), 0);
  EXPECT_EQ(arg("MemoryFormat m=contiguous_format").str(), "MemoryFormat m=0");
  EXPECT_EQ(arg("int reduction=Mean").defaultValue->toInt(), 1);
  EXPECT_EQ(arg("ScalarType dtype=long").defaultValue->toInt(), 4);
  EXPECT_EQ(arg("Layout l=strided").defaultValue->toInt(), 0);
  // Strings keep escapes.
  EXPECT_EQ(arg("str chars=\" \\n\\t\\f\\v\"").defaultValue->toStringRef(), " \n\t\f\v");
  EXPECT_EQ(arg("str chars=\" \\n\\t\\f\\v\"").str(), "str chars=\" \\n\\t\\f\\v\"");
  EXPECT_EQ(arg("str a=\"\\\"\\'\\\\\"").defaultValue->toStringRef(), "\"'\\");
  EXPECT_EQ(arg("str a='nearest'").str(), "str a=\"nearest\"");
}

TEST(SchemaParser, TypesAndAliases) {
  FunctionSchema s = parseSchema("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  EXPECT_TRUE(s.isMutable());
  ASSERT_TRUE(s.arguments[0].aliasInfo.has_value());
  EXPECT_TRUE(s.arguments[0].aliasInfo->isWrite);
  EXPECT_EQ(s.arguments[0].aliasInfo->beforeSets, std::vector<std::string>{"a"});

  FunctionSchema v = parseSchema("aten::values.str(Dict(str, t) self) -> t[](*)");
  EXPECT_EQ(v.arguments[0].type->kind(), TypeKind::Dict);
  EXPECT_EQ(v.returns[0].type->kind(), TypeKind::List);
  EXPECT_EQ(v.returns[0].aliasInfo->beforeSets, std::vector<std::string>{"*"});

  FunctionSchema l = parseSchema("aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(l.arguments[0].aliasInfo->afterSets, std::vector<std::string>{"*"});
  EXPECT_EQ(l.arguments[1].type->kind(), TypeKind::Int);  // SymInt is an int...
  EXPECT_EQ(l.arguments[1].str(), "SymInt split_size");   // ...spelled SymInt
  EXPECT_EQ(l.returns[0].aliasInfo->containedTypes.size(), 1u);

  FunctionSchema items = parseSchema("aten::items.str(Dict(str, t) self) -> ((str, t)[])");
  ASSERT_EQ(items.returns.size(), 1u);
  EXPECT_EQ(items.returns[0].type->kind(), TypeKind::List);
  EXPECT_EQ(items.str(), "aten::items.str(Dict(str, t) self) -> ((str, t)[])");

  FunctionSchema fmt = parseSchema("aten::format(str self, ...) -> str");
  EXPECT_TRUE(fmt.isVarArg);
  FunctionSchema p = parseSchema("prim::Print(...) -> ()");
  EXPECT_TRUE(p.isVarArg);
  EXPECT_TRUE(p.returns.empty());
  EXPECT_EQ(p.str(), "prim::Print(...) -> ()");

  FunctionSchema m = parseSchema("aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  EXPECT_EQ(m.returns[1].name, "indices");

  EXPECT_EQ(parseSchemaType("int[]")->kind(), TypeKind::List);
  EXPECT_EQ(parseSchemaType("Tensor?")->kind(), TypeKind::Optional);
  EXPECT_EQ(schema_types::typeStr(parseSchemaType("Dict(str, Tensor[])")), "Dict(str, Tensor[])");
  EXPECT_EQ(schema_types::typeStr(parseSchemaType("(int, float)")), "(int, float)");
  EXPECT_EQ(schema_types::typeStr(parseSchemaType("Scalar?")), "Scalar?");
  EXPECT_EQ(parseSchemaType("t")->kind(), TypeKind::Var);
  EXPECT_EQ(parseSchemaType("__torch__.torch.classes.quantized.Conv2dPackedParamsBase").get(),
            parseSchemaType("__torch__.torch.classes.quantized.Conv2dPackedParamsBase").get());
}

TEST(SchemaParser, MalformedSchemasThrow) {
  const char* bad[] = {
      "add(Tensor self) -> Tensor",                 // no namespace
      "aten::add(Tensor self -> Tensor",            // unbalanced
      "aten::add(Tensor) -> Tensor",                // argument without a name
      "aten::add(Tensor self) ->",                  // no return
      "aten::add(Bogus self) -> Tensor",            // unknown type
      "aten::add(int x=\"a) -> int",                // unterminated string
      "aten::add(int x=foo) -> int",                // unknown default
      "aten::add(int[] x=1) -> int",                // list default without size
  };
  for (int i = 0; i < 8; ++i) EXPECT_THROW(parseSchema(bad[i]), Error) << bad[i];
  EXPECT_THROW(parseSchema("aten::add(Tensor self) -> Tensor a b"), Error);
  EXPECT_THROW(parseSchemaType("int[] junk"), Error);
  EXPECT_THROW(parseSchemaType(std::string(100000, '(')), Error);  // no stack overflow
  EXPECT_THROW(parseSchemaType("Dict(str"), Error);
  EXPECT_THROW(parseSchema(""), Error);
  try {
    parseSchema("aten::add(Bogus self) -> Tensor");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Bogus"), std::string::npos);
  }
}
