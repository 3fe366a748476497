# Warnings for dyng's own targets (never forced on consumers).
function(dyng_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
                              -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual>)
  if(DYNG_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
