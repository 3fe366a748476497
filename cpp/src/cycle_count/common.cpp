// Shared pieces of the cycle_count engines: scratch from the workspace, checked sums, and the
// change lists an update reads from the graph's change set.
#include <algorithm>
#include <string>
#include <variant>

#include "cycle_count/detail.hpp"

namespace dyng::cycle_count::detail {

std::vector<scratch> make_scratch(workspace& ws, std::size_t threads, vertex_t n, int k)
{
  auto const nn = static_cast<std::size_t>(n);
  auto const kk = static_cast<std::size_t>(k) + 1;
  std::vector<scratch> out(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    auto const slot = [&](char const* what) { return "cycle_count." + std::string(what) + "." + std::to_string(t); };
    // Stamps: [generation, stamps initialised so far, stamps...]. Memory reused for a larger n
    // holds garbage past the stamps initialised before; those are cleared here, once.
    bool fresh = false;
    auto const block = ws.get<std::uint32_t>(slot("stamp"), nn + 2, &fresh);
    if (fresh) block[0] = block[1] = 0;
    if (block[1] < nn) {
      std::fill(block.begin() + 2 + block[1], block.end(), 0u);
      block[1] = static_cast<std::uint32_t>(nn);
    }
    auto& s = out[t];
    s.header = block.first(2);
    s.stamp = block.subspan(2, nn);
    s.dist = ws.get<std::int32_t>(slot("dist"), nn);
    s.queue = ws.get<vertex_t>(slot("queue"), nn);
    s.path = ws.get<vertex_t>(slot("path"), kk);
    s.frames = ws.get<std::uint64_t>(slot("frames"), kk * scratch::frame_words);
    s.hist = ws.filled<std::uint64_t>(slot("hist"), kk, 0);
    if (k > scratch::scanned_path) s.deep_on_path = ws.filled<std::uint8_t>(slot("deep_on_path"), nn, 0);
  }
  return out;
}

std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, std::string_view what)
{
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum))
    throw not_supported("cycle_count: " + std::string(what) +
                        " exceeds 2^64-1 cycles; counts are unsigned 64-bit (use a smaller k)");
  return sum;
}

change_lists collect_changes(graph_impl const& g)
{
  change_lists c;
  std::visit(
      [&](auto const& cs) {
        for (std::size_t i = 0; i < cs.size(); ++i) {
          if (cs.src[i] == cs.dst[i]) continue;  // a self-loop lies on no cycle of length >= 2
          if (cs.kind[i] == dyng::detail::change_kind::deleted) c.del.push_back({cs.src[i], cs.dst[i], 0});
          else if (cs.kind[i] == dyng::detail::change_kind::inserted) c.ins.push_back({cs.src[i], cs.dst[i], 0});
        }
      },
      g.last_changes);
  auto const by_uv = [](arc const& a, arc const& b) { return a.u < b.u || (a.u == b.u && a.v < b.v); };
  auto const same = [](arc const& a, arc const& b) { return a.u == b.u && a.v == b.v; };
  auto const by_vu = [](arc const& a, arc const& b) { return a.v < b.v || (a.v == b.v && a.u < b.u); };
  for (auto* list : {&c.del, &c.ins}) {
    std::sort(list->begin(), list->end(), by_uv);
    list->erase(std::unique(list->begin(), list->end(), same), list->end());
    for (std::size_t i = 0; i < list->size(); ++i) (*list)[i].rank = static_cast<std::int64_t>(i);
  }
  c.del_in = c.del;
  std::sort(c.del_in.begin(), c.del_in.end(), by_vu);
  c.ins_in = c.ins;
  std::sort(c.ins_in.begin(), c.ins_in.end(), by_vu);
  for (auto const* list : {&c.del, &c.ins})
    for (auto const& a : *list) {
      c.touched.push_back(a.u);
      c.touched.push_back(a.v);
    }
  std::sort(c.touched.begin(), c.touched.end());
  c.touched.erase(std::unique(c.touched.begin(), c.touched.end()), c.touched.end());
  return c;
}

}  // namespace dyng::cycle_count::detail
