#pragma once
// A checked enum argument: a value a cast made is refused by name at the API's edge, where a
// switch on it would otherwise take some case's path without a word.
#include <string>
#include <type_traits>

#include "dyng/core/error.hpp"

namespace dyng::detail {

/// @throws invalid_argument unless `value` is one of E's enumerators, which run from 0 to `last`.
template <class E>
void expect_enumerator(E value, E last, std::string const& what)
{
  using U = std::underlying_type_t<E>;
  auto const v = static_cast<U>(value);
  bool named = v <= static_cast<U>(last);
  if constexpr (std::is_signed_v<U>) named = named && v >= 0;
  DYNG_EXPECTS(named, what + " is " + std::to_string(+v) + ", none of its named values; pass one of them");
}

}  // namespace dyng::detail
