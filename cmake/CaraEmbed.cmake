# cara_embed(OUTPUT <cpp> FILES <path:type>...): a C++ file that holds the
# given files' bytes (apps/web/assets.h's find_asset), regenerated when one
# of them changes. Each entry is the file's path relative to the current
# source directory, a colon, and its content type.
function(cara_embed)
  cmake_parse_arguments(E "" "OUTPUT" "FILES" ${ARGN})
  set(inputs)
  foreach(entry ${E_FILES})
    string(FIND "${entry}" ":" colon)
    string(SUBSTRING "${entry}" 0 ${colon} file)
    list(APPEND inputs "${CMAKE_CURRENT_SOURCE_DIR}/${file}")
  endforeach()
  string(REPLACE ";" "|" files_arg "${E_FILES}")
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${E_OUTPUT}" "-DBASE=${CMAKE_CURRENT_SOURCE_DIR}" "-DFILES=${files_arg}"
            -P "${PROJECT_SOURCE_DIR}/cmake/CaraEmbedRun.cmake"
    DEPENDS ${inputs} "${PROJECT_SOURCE_DIR}/cmake/CaraEmbedRun.cmake"
    COMMENT "Embedding the dashboard's files"
    VERBATIM)
endfunction()
