// The original's output layout (MOSP-OpenMP's mosp program): per objective the updated tree,
// then the combined graph's tree and the path costs. Formats: docs/mosp.md.
#include <filesystem>
#include <string>

#include "dyng/io/io.hpp"
#include "dyng/mosp/mosp.hpp"

namespace dyng::mosp {

void write_files(std::string const& directory, result const& r, std::string_view suffix)
{
  namespace fs = std::filesystem;
  fs::path const root = directory;
  std::string const s(suffix);
  for (int i = 0; i < r.num_objectives(); ++i) {
    auto const d = root / ("obj" + std::to_string(r.objectives()[static_cast<std::size_t>(i)]));
    io::make_directories(d);
    io::write_distances(d / ("distances" + s + ".txt"), r.tree(i).distance_data());
    io::write_parents(d / ("SSSPTree" + s + ".txt"), r.tree(i).parents());
  }
  auto const c = root / "combinedGraph";
  io::make_directories(c);
  io::write_distances(c / "distancesCsr.txt", r.combined_tree().distance_data());
  io::write_parents(c / "SSSPTreeCsr.txt", r.combined_tree().parents());
  std::visit([&](auto const& costs) { io::write_path_costs(c / "mospCosts.txt", std::span(costs.data(), costs.size()), r.num_objectives()); },
             r.cost_data());
}

}  // namespace dyng::mosp
