#pragma once
// The one copy of a batch's rows, for the transformations that keep them (renaming ids, scaling
// weights): every row, in an order commit applies the same way.
#include <cstddef>
#include <span>

#include "dyng/graph/batch.hpp"

namespace dyng::detail {

/// A batch with `b`'s k, semantics, policy and rows: the deletions, then the insertions and
/// weight changes interleaved as they were added (a later row for an edge wins), each vertex id
/// through `id(v, list, row)` and each row's k weights through `weights(w, list, row)` (returning
/// k weights); `list` and `row` locate the row for messages (batch_row_error).
template <class Id, class Weights>
batch copy_rows(batch const& b, Id const& id, Weights const& weights)
{
  auto const k = static_cast<std::size_t>(b.k());
  batch out(b.k(), b.semantics(), b.policy());
  out.reserve(b.insertions(), b.deletions());
  for (std::size_t j = 0; j < b.deletions(); ++j)
    out.erase(id(b.erase_src()[j], batch_list::deletion, j), id(b.erase_dst()[j], batch_list::deletion, j));
  std::size_t ins = 0, chg = 0;
  for (auto const kind : b.upsert_order()) {
    if (kind == 0) {
      out.insert(id(b.insert_src()[ins], batch_list::insertion, ins), id(b.insert_dst()[ins], batch_list::insertion, ins),
                 weights(b.insert_weights().subspan(ins * k, k), batch_list::insertion, ins));
      ++ins;
    } else {
      out.set_weights(id(b.change_src()[chg], batch_list::weight_change, chg), id(b.change_dst()[chg], batch_list::weight_change, chg),
                      weights(b.change_weights().subspan(chg * k, k), batch_list::weight_change, chg));
      ++chg;
    }
  }
  return out;
}

}  // namespace dyng::detail
