#include "dyng/core/workspace.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <string>

#include "dyng/core/error.hpp"

namespace dyng {

void workspace::aligned_delete::operator()(std::byte* p) const noexcept
{
  ::operator delete[](p, std::align_val_t{alignment});
}

void* workspace::bytes(std::string_view slot, std::size_t count, std::size_t element_size, bool* fresh)
{
  if (count > std::numeric_limits<std::size_t>::max() / element_size)
    throw invalid_argument("workspace::get: slot '" + std::string(slot) + "': " + std::to_string(count) +
                           " elements of " + std::to_string(element_size) +
                           " bytes are more than the address space holds");
  std::size_t const size = count * element_size;
  if (fresh) *fresh = false;
  auto it = slots_.find(slot);
  if (it == slots_.end()) it = slots_.emplace(std::string(slot), block{}).first;
  auto& b = it->second;
  if (b.capacity < size) {
    std::size_t const grown = std::max(size, b.capacity + b.capacity / 2);
    b.data.reset(static_cast<std::byte*>(::operator new[](grown, std::align_val_t{alignment})));
    b.capacity = grown;
    ++allocations_;
    if (fresh) *fresh = true;
  }
  return b.data.get();
}

std::size_t workspace::bytes_reserved() const noexcept
{
  std::size_t total = 0;
  for (auto const& [name, b] : slots_) total += b.capacity;
  return total;
}

}  // namespace dyng
