# Checks what a shared libdyng exports (docs/adr/0014-exported-symbols.md): every defined dynamic
# symbol is of namespace dyng (no C++ library, CUB or Thrust instantiation), and the error
# classes' typeinfo is among them, so that an error thrown inside the library is caught by type
# outside it. Run by CTest (`library.exports`, cpp/tests/CMakeLists.txt) as
#   cmake -DLIBRARY=<libdyng.so> -DNM=<nm> -DCUDA=<ON|OFF> -P check_exports.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_exports.cmake: '${NM} -D --defined-only ${LIBRARY}' failed (${rc}): ${err}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${out}")
set(foreign "")
set(symbols "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^.* " "" symbol "${line}")  # "<address> <type> <name>"
  list(APPEND symbols ${symbol})
  # Functions and members (const ones too), typeinfo, its name and vtables of namespace dyng.
  if(NOT symbol MATCHES "^_Z(N|NK|TIN|TSN|TVN)4dyng")
    list(APPEND foreign ${symbol})
  endif()
endforeach()
list(LENGTH symbols count)
if(foreign)
  list(LENGTH foreign n)
  list(SUBLIST foreign 0 10 some)
  list(JOIN some "\n  " some)
  message(FATAL_ERROR "${LIBRARY} exports ${n} symbols outside namespace dyng (of ${count}), e.g.\n  "
                      "${some}\n(c++filt demangles them; cpp/libdyng.map says what is exported)")
endif()
# The error classes libdyng throws in every build (error, invalid_argument, not_supported,
# io_error, stale_result, logic_error, batch_row_error), and cuda_error with the CUDA backend.
set(errors 5error 16invalid_argument 13not_supported 8io_error 12stale_result 11logic_error
    15batch_row_error)
if(CUDA)
  list(APPEND errors 10cuda_error)
endif()
list(TRANSFORM errors REPLACE "(.+)" "_ZTIN4dyng\\1E" OUTPUT_VARIABLE typeinfos)
foreach(typeinfo IN LISTS typeinfos)
  if(NOT typeinfo IN_LIST symbols)
    message(FATAL_ERROR "${LIBRARY} does not export ${typeinfo} (typeinfo of an error class): "
                        "is the class marked DYNG_EXCEPTION_EXPORT?")
  endif()
endforeach()
message(STATUS "${LIBRARY}: ${count} symbols exported, all of namespace dyng")
