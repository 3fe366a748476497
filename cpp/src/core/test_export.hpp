#pragma once
// DYNG_TEST_EXPORT marks an internal function (declared under cpp/src, never installed) that the
// repository's own tests and tools call (cpp/tests, io_throughput, cpp/fuzz). A shared libdyng
// exports it so that they link; it is no API and may change in any release. In a static libdyng
// it is empty, as DYNG_EXPORT is. See docs/adr/0014-exported-symbols.md.
#include "dyng/core/export.hpp"

#define DYNG_TEST_EXPORT DYNG_EXPORT
