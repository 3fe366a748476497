# Installs a built dyng into a fresh prefix, then configures, builds and runs the consumer
# project against it, as a user of the installed package would. Run by CTest
# (`example.installed_package`, examples/CMakeLists.txt) as
#   cmake -DBUILD_DIR=... -DCONSUMER_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=...
#         [-DBUILD_TYPE=...] [-DCXX_FLAGS=...] -P install_test.cmake
foreach(var BUILD_DIR CONSUMER_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_test.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/consumer)
file(REMOVE_RECURSE ${WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_test.cmake: ${what} failed (${rc}):\n${out}")
  endif()
  message(STATUS "${what}: ok")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("install into ${prefix}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(file include/dyng/sssp/sssp.hpp include/dyng/update.hpp include/dyng/core/export.hpp
             share/doc/dyng/LICENSE)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "install_test.cmake: ${prefix}/${file} was not installed")
  endif()
endforeach()

set(configure_args -S ${CONSUMER_DIR} -B ${consumer_build} -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix})
if(BUILD_TYPE)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
endif()
if(CXX_FLAGS)  # e.g. the sanitizers a static libdyng was built with
  list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
       "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}")
endif()
run("configure the consumer" ${CMAKE_COMMAND} ${configure_args})

# find_package must have found the package just installed, not another copy.
file(STRINGS ${consumer_build}/CMakeCache.txt dyng_dir REGEX "^dyng_DIR:")
string(REGEX REPLACE "^dyng_DIR:[A-Z]+=" "" dyng_dir "${dyng_dir}")
file(REAL_PATH "${dyng_dir}" dyng_dir)
file(REAL_PATH "${prefix}" real_prefix)
string(FIND "${dyng_dir}" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "install_test.cmake: found dyng in ${dyng_dir}, not under ${real_prefix}")
endif()

# A component the package does not have fails find_package, saying which.
set(probe ${WORK_DIR}/probe)
file(WRITE ${probe}/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)\nproject(probe LANGUAGES CXX)\n"
     "find_package(dyng REQUIRED COMPONENTS nosuch)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${probe} -B ${probe}/build -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_PREFIX_PATH=${prefix}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0 OR NOT out MATCHES "dyng has no component 'nosuch'")
  message(FATAL_ERROR "install_test.cmake: COMPONENTS nosuch was not refused by name (${rc}):\n${out}")
endif()
message(STATUS "an unknown component is refused: ok")

run("build the consumer" ${CMAKE_COMMAND} --build ${consumer_build})
run("run the consumer" ${consumer_build}/consumer)
message(STATUS "consumer says: ${last_output}")
