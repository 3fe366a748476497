#pragma once
// Engine dispatch shared by the families: filter a family's manifest by backend and
// `check_support`, honour a pinned engine id. Each family keeps its own ranking home (its
// manifest order today); this is only the vocabulary every family's dispatch speaks.
//
// An Engine row has `id`, `backend` and `check_support(graph_impl const&, Params const&)`, which
// returns or throws not_supported naming its rule; Params has `engine` (an id, or empty).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"
#include "graph/graph_impl.hpp"

namespace dyng::detail {

/// The engines of `table` on `res`'s backend that accept (g, p), in table order; the reasons of
/// those that decline are appended to `declined`.
template <class Engine, class Params>
std::vector<Engine const*> accepted_engines(std::span<Engine const> table, resources const& res,
                                            graph_impl const& g, Params const& p, std::string* declined)
{
  std::vector<Engine const*> accepted;
  for (auto const& e : table) {
    if (e.backend != res.backend()) continue;
    try {
      e.check_support(g, p);
      accepted.push_back(&e);
    } catch (not_supported const& why) {
      if (declined) *declined += std::string(declined->empty() ? "" : "; ") + why.what();
    }
  }
  return accepted;
}

/// The ids of `table`'s engines on `res`'s backend, in table order, which is each family's
/// ranking (its rank() keeps table order): the order the families' `engines()` promise.
template <class Engine>
std::vector<std::string> engine_ids(std::span<Engine const> table, resources const& res)
{
  std::vector<std::string> ids;
  for (auto const& e : table)
    if (e.backend == res.backend()) ids.emplace_back(e.id);
  return ids;
}

/// The graph and the resources must agree on where the arrays live: a graph built with CUDA
/// resources lives in that device's memory. `what` names the call, `verb` ends the remedy
/// ("build the graph with the resources you <verb> with").
inline void check_placement(resources const& res, graph_impl const& g, std::string_view what, std::string_view verb)
{
  bool const device_graph = g.device != nullptr;
  DYNG_EXPECTS(device_graph == (res.backend() == backend::cuda),
               std::string(what) + ": the graph lives in " + (device_graph ? "device" : "host") +
                   " memory and the resources are " + std::string(to_string(res.backend())) +
                   "; build the graph with the resources you " + std::string(verb) + " with");
#if defined(DYNG_HAVE_CUDA)
  if (!device_graph) return;
  int const on = device_ordinal(g);
  DYNG_EXPECTS(res.device() == on, std::string(what) + ": the graph lives on CUDA device " + std::to_string(on) +
                                       " and the resources are on device " + std::to_string(res.device()) + "; " +
                                       std::string(verb) + " with CUDA resources on device " + std::to_string(on));
  order_reads(res, g);  // the call may run on another stream than the last commit
#endif
}

/// The ids of an engine table, in its order, for messages ("a, b, c").
template <class Engine>
std::string engine_ids(std::span<Engine const> table)
{
  std::string ids;
  for (auto const& e : table) ids += (ids.empty() ? "" : ", ") + std::string(e.id);
  return ids;
}

/// The pinned engine (binding: it raises if it cannot run), else the first of `ranked`.
/// @throws invalid_argument for an unknown id; not_supported when nothing can run.
template <class Engine, class Params, class Rank>
Engine const& choose_engine(std::string_view family, std::span<Engine const> table, resources const& res,
                            graph_impl const& g, Params const& p, Rank rank)
{
  std::string const name(family);
  if (!p.engine.empty()) {
    for (auto const& e : table) {
      if (e.id != p.engine) continue;
      if (e.backend != res.backend())
        throw not_supported(name + ": engine '" + p.engine + "' runs on the " + std::string(to_string(e.backend)) +
                            " backend, the resources are " + std::string(to_string(res.backend())) +
                            "; pass matching resources or unpin the engine");
      e.check_support(g, p);
      return e;
    }
    throw invalid_argument(name + ": no engine has id '" + p.engine + "'; engines are: " + engine_ids(table));
  }
  std::string declined;
  auto const ranked = rank(res, g, p, &declined);
  if (ranked.empty())
    throw not_supported(name + ": no engine for the " + std::string(to_string(res.backend())) +
                        " backend accepts this graph" + (declined.empty() ? std::string() : " (" + declined + ")"));
  return *ranked.front();
}

}  // namespace dyng::detail
