# Compiler settings applied to caracara's own targets (never to system headers).

if(CARA_SANITIZE)
  set(CARA_SANITIZER_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
                           -fno-sanitize-recover=undefined)
  add_compile_options(${CARA_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
  # The instrumented programs link as plain executables, not PIE: the
  # sanitizers' per-check data makes `cara-pool` carry 142 MB of
  # relocations that a PIE applies at every start (a third of a second of
  # each of the thousands of `cara` and `cara-pool` processes the process
  # tests start, most of it page faults; bench/RESULTS.md, "The test
  # run's time, continued", 2026-12-07). Release builds stay PIE.
  add_link_options($<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
  # lld links these programs, heavy with debug information, in a fifth of
  # ld.bfd's time (cara-pool: 2 s against 10 s): the links were a sixth of
  # the test build. scripts/install-deps installs it; without it, ld.bfd.
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld CARA_HAVE_LLD)
  if(CARA_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

# cara_defaults(<target>): warnings as errors on our own code.
function(cara_defaults target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wpedantic)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 at -O3 reports a false -Wrestrict inside std::string
    # concatenation (GCC bug 105329).
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
