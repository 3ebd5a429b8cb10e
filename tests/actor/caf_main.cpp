// The one translation unit that instantiates CAF's test framework; Catch2
// provides main().
#define CAF_TEST_NO_MAIN
#include <caf/test/unit_test_impl.hpp>
