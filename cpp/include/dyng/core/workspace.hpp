#pragma once
/// A cache of scratch arrays owned by a resources object. Engines ask for scratch by slot name
/// and size; a slot keeps its memory across calls, so steady-state updates allocate nothing.
/// Not thread-safe: like a CUDA stream, a resources object serves one call at a time.
#include <cstddef>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "dyng/core/export.hpp"

namespace dyng {

class DYNG_EXPORT workspace {
 public:
  /// `count` elements of scratch for `slot`, contents unspecified (left from the last use).
  /// Memory grows (by 1.5x at least) and never shrinks until `release()`.
  /// `fresh` (if given) tells whether the memory was just allocated (its contents garbage).
  /// @throws invalid_argument if `count` elements of T exceed the address space; std::bad_alloc.
  template <class T>
  std::span<T> get(std::string_view slot, std::size_t count, bool* fresh = nullptr)
  {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= alignment);
    return {static_cast<T*>(bytes(slot, count, sizeof(T), fresh)), count};
  }

  /// Like `get`, with every element set to `value`.
  template <class T>
  std::span<T> filled(std::string_view slot, std::size_t count, T value)
  {
    auto s = get<T>(slot, count);
    for (auto& x : s) x = value;
    return s;
  }

  /// Frees every slot's host memory (e.g. after a large compute, before long-lived small
  /// updates); the next calls allocate again. Spans handed out before are invalid after it.
  void release() noexcept { slots_.clear(); }
  /// Number of allocations made so far (tests use it to prove steady-state reuse).
  [[nodiscard]] std::size_t allocations() const noexcept { return allocations_; }
  /// Host bytes the slots hold now (their capacities).
  [[nodiscard]] std::size_t bytes_reserved() const noexcept;

  static constexpr std::size_t alignment = 64;

 private:
  struct aligned_delete {
    void operator()(std::byte* p) const noexcept;
  };
  struct block {
    std::unique_ptr<std::byte, aligned_delete> data;
    std::size_t capacity = 0;
  };
  void* bytes(std::string_view slot, std::size_t count, std::size_t element_size, bool* fresh);

  std::map<std::string, block, std::less<>> slots_;
  std::size_t allocations_ = 0;
};

}  // namespace dyng
