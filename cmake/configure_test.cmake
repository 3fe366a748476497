# ctest's cmake.configure: configures throwaway trees of this source with options dyng refuses and
# checks that configure stops with a message naming the remedy, and that the spellings it takes
# resolve as documented. Run by ctest (examples/CMakeLists.txt):
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -DGENERATOR=<gen> -DCUDA=ON|OFF -P configure_test.cmake
# With CUDA=ON the CUDA checks run too (they need nvcc, not a GPU).
set(failures 0)

# configure(<name> PASS|FAIL <regex> [cmake args...]): the configure succeeds or fails, and its
# output (whitespace folded, since CMake wraps messages) matches <regex>.
function(configure name outcome pattern)
  set(dir "${WORK_DIR}/${name}")
  file(REMOVE_RECURSE "${dir}")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${dir}" -G "${GENERATOR}"
                          -DDYNG_BUILD_TESTS=OFF -DDYNG_BUILD_APPS=OFF ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(REMOVE_RECURSE "${dir}")
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${out} ${err}")
  set(ok TRUE)
  if(outcome STREQUAL "PASS" AND NOT rc EQUAL 0)
    set(ok FALSE)
  elseif(outcome STREQUAL "FAIL" AND rc EQUAL 0)
    set(ok FALSE)
  elseif(NOT text MATCHES "${pattern}")
    set(ok FALSE)
  endif()
  if(ok)
    message(STATUS "ok: ${name}")
  else()
    message(STATUS "FAIL: ${name}: expected ${outcome} matching '${pattern}' (exit ${rc}):\n${out}\n${err}")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
  endif()
endfunction()

configure(sanitize_unknown FAIL "DYNG_SANITIZE: 'adress' is not one of address, undefined, leak, thread"
          -DDYNG_SANITIZE=adress)

if(CUDA)
  set(cuda -DDYNG_ENABLE_CUDA=ON)
  configure(arch_too_old FAIL "'52' is older than compute capability 75" ${cuda} -DDYNG_CUDA_ARCHITECTURES=52)
  configure(arch_unknown FAIL "nvcc [0-9.]+ cannot build '999'; it builds 75 " ${cuda} -DDYNG_CUDA_ARCHITECTURES=999)
  configure(arch_misspelt FAIL "'foo' is not native, release, all, all-major or an architecture" ${cuda}
            -DDYNG_CUDA_ARCHITECTURES=foo)
  configure(arch_empty FAIL "DYNG_CUDA_ARCHITECTURES is empty" ${cuda} -DDYNG_CUDA_ARCHITECTURES=)
  # all-major: the X.0 architectures nvcc builds from 7.5 on, as SASS, the newest with PTX too.
  configure(arch_all_major PASS "architectures 80-real, 90-real, ([0-9]+-real, )*[0-9]+0, " ${cuda}
            -DDYNG_CUDA_ARCHITECTURES=all-major)
  configure(cmake_architectures FAIL "CMAKE_CUDA_ARCHITECTURES=80 is set; dyng chooses the architectures with DYNG_CUDA_ARCHITECTURES"
            ${cuda} -DCMAKE_CUDA_ARCHITECTURES=80)
  configure(cmake_runtime FAIL "CMAKE_CUDA_RUNTIME_LIBRARY=Static is set; dyng chooses the CUDA runtime with DYNG_CUDA_RUNTIME"
            ${cuda} -DCMAKE_CUDA_RUNTIME_LIBRARY=Static)
  configure(static_runtime_shared_lib FAIL "DYNG_CUDA_RUNTIME=static cannot be combined with BUILD_SHARED_LIBS=ON"
            ${cuda} -DDYNG_CUDA_RUNTIME=static -DBUILD_SHARED_LIBS=ON)
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} configure check(s) failed")
endif()
