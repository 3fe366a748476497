#pragma once
// Vertex marks that cost O(touched) to clear: a mark is set when its stamp equals the current
// generation, and a new generation clears every mark at once. The stamps live in the resources'
// workspace, so steady-state updates allocate nothing and never pay an O(n) reset; an update
// interrupted by an exception leaves only stale stamps behind.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>

#include "dyng/core/types.hpp"
#include "dyng/core/workspace.hpp"

namespace dyng::detail {

class vertex_marks {
 public:
  /// Marks for `n` vertices in workspace slot `slot`, all clear.
  vertex_marks(workspace& ws, std::string_view slot, vertex_t n)
  {
    // Layout: [generation, stamps initialised so far, stamps...]. Memory reused for a larger n
    // holds garbage past the stamps initialised before; those are cleared here, once.
    auto const count = static_cast<std::size_t>(n);
    bool fresh = false;
    auto const block = ws.get<std::uint32_t>(slot, count + 2, &fresh);
    if (fresh) block[0] = block[1] = 0;
    if (block[1] < count) {
      std::fill(block.begin() + 2 + block[1], block.end(), 0u);
      block[1] = static_cast<std::uint32_t>(count);
    }
    gen_ = ++block[0];
    if (gen_ == 0) {  // wrapped after 2^32 generations: clear for real
      std::fill(block.begin() + 2, block.end(), 0u);
      gen_ = block[0] = 1;
    }
    stamp_ = block.subspan(2);
  }
  [[nodiscard]] bool test(vertex_t v) const noexcept { return stamp_[static_cast<std::size_t>(v)] == gen_; }
  void set(vertex_t v) noexcept { stamp_[static_cast<std::size_t>(v)] = gen_; }
  /// Sets the mark; returns whether it was clear (the caller is the first to set it).
  bool set_first(vertex_t v) noexcept
  {
    if (test(v)) return false;
    set(v);
    return true;
  }
  [[nodiscard]] std::span<std::uint32_t> stamps() noexcept { return stamp_; }
  [[nodiscard]] std::uint32_t generation() const noexcept { return gen_; }

 private:
  std::span<std::uint32_t> stamp_;
  std::uint32_t gen_ = 0;
};

}  // namespace dyng::detail
