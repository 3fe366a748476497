# The CUDA backend's build (DYNG_ENABLE_CUDA=ON): language, toolkit, architectures, runtime and
# flags. Included from the top-level CMakeLists.txt before the targets are made; see
# docs/adr/0004-cuda-backend-core.md.
#
#   DYNG_CUDA_ARCHITECTURES  native   the GPUs of this machine (SASS only; configure fails
#                                     without a visible GPU)
#                            release  SASS for every architecture of DYNG_CUDA_RELEASE_ARCHITECTURES
#                                     that this nvcc supports, plus PTX for the newest of them
#                            all      SASS for every architecture of 7.5 or newer this nvcc builds,
#                                     PTX for the newest (CMake's meaning, from nvcc's own list)
#                            all-major  the same for the X.0 architectures only (8.0, 9.0, ...)
#                            a list   e.g. "90" or "80;90-real": CMake's CUDA_ARCHITECTURES syntax
#   DYNG_CUDA_RUNTIME        shared (default) | static: libcudart.so or libcudart_static.a.
#                            static needs a static libdyng (BUILD_SHARED_LIBS=OFF).
#
# Sets DYNG_CUDART_TARGET (CUDA::cudart or CUDA::cudart_static) and defines
# dyng_cuda_target(<target>), which gives a target with CUDA sources dyng's CUDA flags.

set(DYNG_CUDA_ARCHITECTURES "native" CACHE STRING
    "CUDA architectures: native | release | all | all-major | a list such as 90 or 80;90-real")
set(DYNG_CUDA_RUNTIME "shared" CACHE STRING "CUDA runtime library: shared | static")
set_property(CACHE DYNG_CUDA_RUNTIME PROPERTY STRINGS shared static)

# The oldest architecture dyng supports is the first entry (compute capability 7.5, Turing): CUDA
# 13 dropped everything older (sm_50 ... sm_72), and the seeds' plugin probe (ADR 0031
# amendment 2) uses the same floor. The newest entry also gets PTX, so newer GPUs JIT it.
set(DYNG_CUDA_RELEASE_ARCHITECTURES 75 80 86 89 90 100 120)

# CMake's own variables would be overridden by the two above, silently: refused instead.
if(DEFINED CACHE{CMAKE_CUDA_RUNTIME_LIBRARY})
  message(FATAL_ERROR "CMAKE_CUDA_RUNTIME_LIBRARY=${CMAKE_CUDA_RUNTIME_LIBRARY} is set; dyng chooses the CUDA "
                      "runtime with DYNG_CUDA_RUNTIME=shared|static (checked against BUILD_SHARED_LIBS): "
                      "pass that instead, and -UCMAKE_CUDA_RUNTIME_LIBRARY")
endif()
if(DEFINED CACHE{CMAKE_CUDA_ARCHITECTURES} AND NOT DEFINED CACHE{_DYNG_CUDA_CONFIGURED})
  message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES} is set; dyng chooses the "
                      "architectures with DYNG_CUDA_ARCHITECTURES=native|release|<list>: pass that "
                      "instead, and -UCMAKE_CUDA_ARCHITECTURES")
endif()

# ---- runtime: checked before anything is compiled ---------------------------------------------
string(TOLOWER "${DYNG_CUDA_RUNTIME}" _dyng_cudart)
if(_dyng_cudart STREQUAL "shared")
  set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
elseif(_dyng_cudart STREQUAL "static")
  if(BUILD_SHARED_LIBS)
    message(FATAL_ERROR
      "DYNG_CUDA_RUNTIME=static cannot be combined with BUILD_SHARED_LIBS=ON: a shared libdyng "
      "would carry its own copy of the CUDA runtime and every program using it another, i.e. two "
      "CUDA runtimes with separate error states and device settings in one process. Either build "
      "a static libdyng (-DBUILD_SHARED_LIBS=OFF) or keep the shared runtime "
      "(-DDYNG_CUDA_RUNTIME=shared).")
  endif()
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
else()
  message(FATAL_ERROR "DYNG_CUDA_RUNTIME='${DYNG_CUDA_RUNTIME}' is not one of: shared, static")
endif()

# ---- compiler and toolkit ---------------------------------------------------------------------
# nvcc compiles host code with the same compiler as the C++ sources, unless told otherwise.
if(NOT DEFINED CMAKE_CUDA_HOST_COMPILER AND NOT DEFINED ENV{CUDAHOSTCXX}
   AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}")
endif()
enable_language(CUDA)
set(_DYNG_CUDA_CONFIGURED ON CACHE INTERNAL "CMAKE_CUDA_ARCHITECTURES is enable_language's from here on")
find_package(CUDAToolkit REQUIRED)
if(CUDAToolkit_VERSION VERSION_LESS 12.8)
  message(FATAL_ERROR "dyng's CUDA backend needs CUDA 12.8 or newer (tested with 13.0); found "
                      "${CUDAToolkit_VERSION} at ${CUDAToolkit_BIN_DIR}. Point CMAKE_CUDA_COMPILER "
                      "at a newer nvcc.")
endif()

# CUDA C++20. CMake before 3.26 does not know nvcc's flag for it; nvcc 12+ takes -std=c++20.
if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
set(CMAKE_CUDA_STANDARD 20)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)

# ---- architectures -> CMAKE_CUDA_ARCHITECTURES (initializes every target's CUDA_ARCHITECTURES) --
# What this nvcc can build ("sm_75\nsm_80\n..."), and dyng's floor.
execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-code
                OUTPUT_VARIABLE _dyng_codes RESULT_VARIABLE _dyng_rc ERROR_QUIET)
string(APPEND _dyng_codes "\n")
list(GET DYNG_CUDA_RELEASE_ARCHITECTURES 0 _dyng_floor)
if(DYNG_CUDA_ARCHITECTURES STREQUAL "native")
  if(NOT CMAKE_CUDA_ARCHITECTURES_NATIVE)
    message(FATAL_ERROR
      "DYNG_CUDA_ARCHITECTURES=native, but no CUDA GPU was detected on this machine (or its "
      "driver cannot be loaded). Name the architectures instead, e.g. "
      "-DDYNG_CUDA_ARCHITECTURES=90 for an H100/H200, or -DDYNG_CUDA_ARCHITECTURES=release.")
  endif()
  set(_dyng_archs ${CMAKE_CUDA_ARCHITECTURES_NATIVE})
elseif(DYNG_CUDA_ARCHITECTURES MATCHES "^(release|all|all-major)$")
  # Resolved from nvcc's own list, not CMake's: CMake's tables for `all` lag behind nvcc (3.25's
  # lists sm_35, which CUDA 13 dropped).
  if(NOT _dyng_rc EQUAL 0)
    message(FATAL_ERROR "'${CMAKE_CUDA_COMPILER} --list-gpu-code' failed; cannot resolve "
                        "DYNG_CUDA_ARCHITECTURES=${DYNG_CUDA_ARCHITECTURES}")
  endif()
  string(REGEX MATCHALL "sm_[0-9]+[\r\n]" _dyng_sms "${_dyng_codes}")
  string(REGEX REPLACE "sm_([0-9]+)[\r\n]" "\\1" _dyng_sms "${_dyng_sms}")
  list(SORT _dyng_sms COMPARE NATURAL)
  set(_dyng_archs "")
  foreach(_a IN LISTS _dyng_sms)
    if(DYNG_CUDA_ARCHITECTURES STREQUAL "release" AND NOT _a IN_LIST DYNG_CUDA_RELEASE_ARCHITECTURES)
      continue()
    endif()
    if(_a LESS _dyng_floor OR (DYNG_CUDA_ARCHITECTURES STREQUAL "all-major" AND NOT _a MATCHES "0$"))
      continue()
    endif()
    list(APPEND _dyng_archs ${_a}-real)
  endforeach()
  if(DYNG_CUDA_ARCHITECTURES STREQUAL "release" AND NOT "${_dyng_floor}-real" IN_LIST _dyng_archs)
    message(FATAL_ERROR "nvcc ${CMAKE_CUDA_COMPILER_VERSION} cannot build sm_${_dyng_floor}, dyng's "
                        "oldest supported architecture; use an explicit DYNG_CUDA_ARCHITECTURES list")
  endif()
  if(NOT _dyng_archs)
    message(FATAL_ERROR "nvcc ${CMAKE_CUDA_COMPILER_VERSION} builds no architecture of compute capability "
                        "${_dyng_floor} or newer for DYNG_CUDA_ARCHITECTURES=${DYNG_CUDA_ARCHITECTURES}")
  endif()
  list(POP_BACK _dyng_archs _dyng_newest)
  string(REPLACE "-real" "" _dyng_newest "${_dyng_newest}")
  list(APPEND _dyng_archs ${_dyng_newest})  # "120": SASS and PTX
else()
  set(_dyng_archs ${DYNG_CUDA_ARCHITECTURES})
  if(NOT _dyng_archs)
    message(FATAL_ERROR "DYNG_CUDA_ARCHITECTURES is empty; give native, release or a list such as 90")
  endif()
  string(REGEX REPLACE "sm_([0-9]+)[^\n]*\n" "\\1;" _dyng_buildable "${_dyng_codes}")
  foreach(_a IN LISTS _dyng_archs)
    if(NOT _a MATCHES "^([0-9]+)[af]?(-real|-virtual)?$")
      message(FATAL_ERROR "DYNG_CUDA_ARCHITECTURES: '${_a}' is not native, release, all, all-major "
                          "or an architecture like 90, 90-real, 90a or 100f")
    endif()
    if(CMAKE_MATCH_1 LESS _dyng_floor)
      message(FATAL_ERROR "DYNG_CUDA_ARCHITECTURES: '${_a}' is older than compute capability "
                          "${_dyng_floor}, the oldest dyng supports (docs/adr/0004)")
    endif()
    if(_dyng_rc EQUAL 0 AND NOT CMAKE_MATCH_1 IN_LIST _dyng_buildable)
      string(REPLACE ";" " " _dyng_list "${_dyng_buildable}")
      message(FATAL_ERROR "DYNG_CUDA_ARCHITECTURES: nvcc ${CMAKE_CUDA_COMPILER_VERSION} cannot build "
                          "'${_a}'; it builds ${_dyng_list}")
    endif()
  endforeach()
endif()
set(CMAKE_CUDA_ARCHITECTURES ${_dyng_archs})
# What the build has, in words, for cuda_error messages about a missing kernel image.
string(REPLACE ";" ", " DYNG_CUDA_ARCHITECTURES_BUILT "${_dyng_archs}")
message(STATUS "dyng: CUDA ${CUDAToolkit_VERSION}, architectures ${DYNG_CUDA_ARCHITECTURES_BUILT}, "
               "${_dyng_cudart} runtime")

if(CMAKE_CUDA_RUNTIME_LIBRARY STREQUAL "Static")
  set(DYNG_CUDART_TARGET CUDA::cudart_static)
else()
  set(DYNG_CUDART_TARGET CUDA::cudart)
endif()

# dyng_cuda_target(<target>): dyng's CUDA compile flags on a target that has .cu sources.
#   --expt-relaxed-constexpr  constexpr host functions (std::numeric_limits...) in device code
#   --extended-lambda         __device__ lambdas passed to CUB/Thrust from host code
#   -lineinfo                 source lines for compute-sanitizer and ncu in optimized builds
#   -Xcompiler=-W...          the host compiler's warnings of dyng_set_warnings for the host side
#                             of .cu files, less -Wold-style-cast and -Wpedantic, which fire on
#                             the code nvcc's front end generates (not on ours). CCCL comes in
#                             through -isystem, so its headers stay quiet.
#   -Werror=all-warnings      with DYNG_WARNINGS_AS_ERRORS: nvcc's and the device compiler's
#                             warnings are errors, and -Xcompiler=-Werror the host compiler's.
function(dyng_cuda_target target)
  set_target_properties(${target} PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON
                                             CUDA_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --extended-lambda>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wshadow,-Wconversion,-Wsign-conversion,-Wnon-virtual-dtor,-Woverloaded-virtual>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-lineinfo>)
  if(DYNG_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
  endif()
endfunction()
