# Compiler settings applied to caracara's own targets (never to system headers).

if(CARA_SANITIZE)
  set(CARA_SANITIZER_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
                           -fno-sanitize-recover=undefined)
  add_compile_options(${CARA_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
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
