// CAF's deterministic test DSL inside Catch2 (STACK-NOTES.md): CAF's check
// macros are mapped onto Catch2's before its DSL is included.
#pragma once

#include <caf/test/unit_test.hpp>
#include <catch2/catch.hpp>

#undef CAF_CHECK
#undef CAF_CHECK_EQUAL
#undef CAF_REQUIRE
#undef CAF_REQUIRE_EQUAL
#undef CAF_FAIL
#undef CAF_MESSAGE
#define CAF_CHECK(x) CHECK(x)
#define CAF_CHECK_EQUAL(x, y) CHECK((x) == (y))
#define CAF_REQUIRE(x) REQUIRE(x)
#define CAF_REQUIRE_EQUAL(x, y) REQUIRE((x) == (y))
#define CAF_FAIL(x) FAIL(x)
#define CAF_MESSAGE(x) INFO(x)

#include <caf/test/dsl.hpp>
