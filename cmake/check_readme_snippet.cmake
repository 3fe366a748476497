# Checks that README.md shows the quick start exactly as examples/quickstart.cpp has it between
# `// [quickstart-begin]` and `// [quickstart-end]`, in a ```cpp block. Run by CTest
# (`example.readme_snippet`) as  cmake -DSOURCE=<quickstart.cpp> -DREADME=<README.md> -P ...
# To fix a failure, copy the lines between the markers into README.md's quick start block.
file(READ "${SOURCE}" source)
file(READ "${README}" readme)

set(begin_marker "// [quickstart-begin]\n")
set(end_marker "// [quickstart-end]")
string(FIND "${source}" "${begin_marker}" begin)
string(FIND "${source}" "${end_marker}" end)
if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
  message(FATAL_ERROR "${SOURCE}: the markers '${begin_marker}' and '${end_marker}' are missing")
endif()
string(LENGTH "${begin_marker}" length)
math(EXPR begin "${begin} + ${length}")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${source}" ${begin} ${length} snippet)

string(FIND "${readme}" "```cpp\n${snippet}```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README} does not show the quick start of ${SOURCE} verbatim; put these "
                      "lines in a ```cpp block of the README:\n${snippet}")
endif()
message(STATUS "README.md shows the quick start of ${SOURCE}")
