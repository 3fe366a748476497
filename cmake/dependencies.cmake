# dyng_require_package(<package> <what it is for> <Debian packages> <option that drops it>):
# find_package(<package>), or stop with the remedies: install it, point CMAKE_PREFIX_PATH at it,
# or build without the part that needs it.
function(dyng_require_package package what debian option)
  find_package(${package} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "${package} (${what}) was not found: install it (Debian: apt install ${debian}, or "
                        "bash ci/deps.sh), add its prefix to CMAKE_PREFIX_PATH, or build without it "
                        "(-D${option}=OFF)")
  endif()
endfunction()
