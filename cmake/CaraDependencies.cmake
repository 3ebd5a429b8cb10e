# Every third-party dependency, from Debian 12 packages only
# (scripts/install-deps installs them). Wired here once so that a later
# issue never discovers a broken package; tests/deps/ smoke-tests each.

find_package(PkgConfig REQUIRED)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
# Its archive, for programs linked statically (CARA_STATIC_CLIENT): the
# model names it for them only (model/CMakeLists.txt).
if(CARA_STATIC_CLIENT)
  find_library(CARA_PCRE2_ARCHIVE NAMES libpcre2-8.a HINTS ${PCRE2_LIBRARY_DIRS} REQUIRED)
endif()

if(CARA_FUZZ)
  return()  # the fuzz build needs only the model's dependencies
endif()

find_package(Threads REQUIRED)
if(CARA_JEMALLOC)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
endif()
find_package(CAF REQUIRED)
find_package(RocksDB 7.8 CONFIG REQUIRED)
find_package(ZLIB 1.2 REQUIRED)  # the record envelope's CRC-32
find_package(Boost 1.74 REQUIRED COMPONENTS serialization)
find_package(OpenSSL 3 REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3.11 CONFIG REQUIRED)
find_package(fmt 9 CONFIG REQUIRED)
if(CARA_TESTS)
  find_package(Catch2 2.13 REQUIRED)
  include(Catch)
endif()
