#include "dyng/graph/batch.hpp"

#include <string>

#include "core/enumerators.hpp"
#include "dyng/core/error.hpp"
#include "graph/graph_impl.hpp"

namespace dyng {
namespace {
void expect_k_weights(char const* what, std::size_t given, int k)
{
  DYNG_EXPECTS(given == static_cast<std::size_t>(k),
               std::string("batch::") + what + ": " + std::to_string(given) +
                   " weights given, the batch has k=" + std::to_string(k) +
                   "; pass k weights per row");
}
}  // namespace

char const* list_name(batch_list list) noexcept
{
  switch (list) {
    case batch_list::deletion:
      return "deletion";
    case batch_list::insertion:
      return "insertion";
    case batch_list::weight_change:
      return "weight change";
  }
  return "row";  // not an enumerator: unreachable for values the enum names
}

batch::batch(int k, batch_semantics semantics, missing_edge policy)
    : k_(k), semantics_(semantics), policy_(policy)
{
  detail::check_weight_columns(k, "batch: k");
  detail::expect_enumerator(semantics, batch_semantics::mosp, "batch: semantics");
  detail::expect_enumerator(policy, missing_edge::ignore, "batch: policy");
}

batch& batch::insert(vertex_t u, vertex_t v, std::span<double const> w)
{
  expect_k_weights("insert", w.size(), k_);
  ins_src_.push_back(u);
  ins_dst_.push_back(v);
  ins_w_.insert(ins_w_.end(), w.begin(), w.end());
  upsert_order_.push_back(0);
  return *this;
}

batch& batch::insert(vertex_t u, vertex_t v, double w) { return insert(u, v, std::span<double const>(&w, 1)); }

batch& batch::erase(vertex_t u, vertex_t v)
{
  del_src_.push_back(u);
  del_dst_.push_back(v);
  return *this;
}

batch& batch::set_weights(vertex_t u, vertex_t v, std::span<double const> w)
{
  expect_k_weights("set_weights", w.size(), k_);
  chg_src_.push_back(u);
  chg_dst_.push_back(v);
  chg_w_.insert(chg_w_.end(), w.begin(), w.end());
  upsert_order_.push_back(1);
  return *this;
}

batch& batch::set_weights(vertex_t u, vertex_t v, double w)
{
  return set_weights(u, v, std::span<double const>(&w, 1));
}

void batch::clear() noexcept
{
  ins_src_.clear();
  ins_dst_.clear();
  del_src_.clear();
  del_dst_.clear();
  chg_src_.clear();
  chg_dst_.clear();
  ins_w_.clear();
  chg_w_.clear();
  upsert_order_.clear();
}

void batch::reserve(std::size_t insertions, std::size_t deletions)
{
  // A row holds at least two ids: counts past max_size / 2 (or whose weights overflow) are no
  // batch, and would surface as std::length_error or a wrapped size.
  auto const limit = ins_src_.max_size() / 2;
  std::string const rows = "batch::reserve: " + std::to_string(insertions) + " insertions and " + std::to_string(deletions) + " deletions";
  DYNG_EXPECTS(insertions <= limit / static_cast<std::size_t>(k_) && deletions <= limit,
               rows + " are more rows than memory can hold; reserve what the batch will hold");
  // With overcommit a reservation past memory succeeds and fills in later (or is std::bad_alloc).
  double const bytes = static_cast<double>(insertions) * (2.0 * sizeof(vertex_t) + 1 + 8.0 * k_) +
                       static_cast<double>(deletions) * 2.0 * sizeof(vertex_t);
  if (auto const short_by = detail::memory_shortfall(bytes); !short_by.empty())
    throw invalid_argument(rows + " would " + short_by + "; reserve what the batch will hold");
  ins_src_.reserve(insertions);
  ins_dst_.reserve(insertions);
  ins_w_.reserve(insertions * static_cast<std::size_t>(k_));
  upsert_order_.reserve(insertions);
  del_src_.reserve(deletions);
  del_dst_.reserve(deletions);
}

}  // namespace dyng
