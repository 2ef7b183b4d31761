// The api tests share the serialize tests' helpers (scratch directory, running the PyTorch oracle).
#pragma once
#include "../serialize/test_util.h"
